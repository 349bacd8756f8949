"""bge-small-en (int8 ONNX, 384 dimensions) on ONNX Runtime: the default embedder.

CLS pooling, L2-normalised. A search query gets bge's instruction prefix; stored
passages do not (the model was trained that way). Work runs in worker threads.

Each text is run alone: the int8 graph quantizes its activations with one scale per
input tensor, so in a padded batch a text's vector would depend on the texts beside
it (cosine 0.996 instead of 1). Alone, a vector depends only on its text and the
model, so a rebuild from the log reproduces the index exactly. Throughput comes from
running several texts at once instead (``workers``, each run alone on one intra-op
thread that does not spin): one 15-token text is too small to keep two threads of one
run busy, two texts side by side are not. One intra-op thread or several give the
same bits (checked by tests/contract/test_onnx_models.py). Queries run on the same
one-thread session by default: a 20-token query cannot keep two threads busy (two
spinning threads cost 22.7 ms of CPU for a 16-token query, one thread 10.5), and while
it embeds, the query's keyword paths run on the other core. ``threads`` above 1 gives
queries a session of their own with that many threads.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from hindsight_common.adapters.model_files import BGE_SMALL_EN, DISTRIBUTION, DISTRIBUTION_VERSION
from hindsight_common.adapters.onnx_bert import OnnxBert
from hindsight_common.errors import ProviderError
from hindsight_common.ports.embedder import Embedder

MODEL_ID = f"BAAI/bge-small-en@int8-onnx:{DISTRIBUTION}-{DISTRIBUTION_VERSION}"
QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: "
# Conversation turns are short; a longer text keeps its first 512 tokens (the model's limit).
MAX_TOKENS = 512


class BgeSmallEmbedder(Embedder):
    def __init__(self, *, threads: int | None = None, workers: int | None = None, root: Path | None = None,
                 query_instruction: str = QUERY_INSTRUCTION) -> None:
        """``threads``: intra-op threads of the query session (default 1: the session of
        stored texts); ``workers``: texts of a batch embedded at once, each alone
        (default: all cores)."""
        self._texts = OnnxBert(BGE_SMALL_EN, max_tokens=MAX_TOKENS, threads=1, root=root, spin=False)
        self._queries = self._texts if (threads or 1) == 1 else OnnxBert(
            BGE_SMALL_EN, max_tokens=MAX_TOKENS, threads=threads, root=root, spin=False)
        self._workers = workers or max(1, os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="bge-small")
        self._instruction = query_instruction

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dim(self) -> int:
        return 384

    def load(self) -> None:
        self._queries.load()
        self._texts.load()

    @staticmethod
    def _one(model: OnnxBert, text: str) -> list[float]:
        hidden = model.run(model.encode([text]))
        cls = np.asarray(hidden[0, 0, :], dtype=np.float32)
        return (cls / max(float(np.linalg.norm(cls)), 1e-12)).tolist()  # type: ignore[no-any-return]

    def _encode_texts(self, texts: list[str]) -> list[list[float]]:
        if len(texts) == 1:
            return [self._one(self._texts, texts[0])]
        return list(self._pool.map(lambda t: self._one(self._texts, t), texts))

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._run(self._encode_texts, [t if t.strip() else "." for t in texts])

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._run(lambda ts: [self._one(self._queries, t) for t in ts],
                               [self._instruction + t for t in texts])

    async def _run(self, encode: Callable[[list[str]], list[list[float]]], texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        def loaded_then_encoded() -> list[list[float]]:
            self.load()  # both sessions at the first call: a warm-up embed readies queries too
            return encode(texts)

        try:
            return await asyncio.to_thread(loaded_then_encoded)
        except ProviderError:
            raise
        except Exception as e:
            raise ProviderError(f"embedding failed: {e}") from e
