"""bge-small-en (int8 ONNX, 384 dimensions) on ONNX Runtime: the default embedder.

CLS pooling, L2-normalised. A search query gets bge's instruction prefix; stored
passages do not (the model was trained that way). Work runs in a worker thread.

Each text is run alone by default: the int8 graph quantizes its activations with one
scale per input tensor, so in a padded batch a text's vector would depend on the texts
beside it (cosine 0.996 instead of 1). Alone, a vector depends only on its text and the
model, so a rebuild from the log reproduces the index exactly; batching would be about
30% faster (measured on 2 cores: 84 vs 115 LoCoMo turns/s).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
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
    def __init__(self, *, batch_size: int = 1, threads: int | None = None, root: Path | None = None,
                 query_instruction: str = QUERY_INSTRUCTION) -> None:
        self._model = OnnxBert(BGE_SMALL_EN, max_tokens=MAX_TOKENS, threads=threads, root=root)
        self._batch_size = batch_size
        self._instruction = query_instruction

    @property
    def model_id(self) -> str:
        return MODEL_ID

    @property
    def dim(self) -> int:
        return 384

    def load(self) -> None:
        self._model.load()

    def _encode(self, texts: list[str]) -> list[list[float]]:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            hidden = self._model.run(self._model.encode([texts[i] for i in rows]))
            cls = np.asarray(hidden[:, 0, :], dtype=np.float32)
            norms = np.linalg.norm(cls, axis=1, keepdims=True)
            cls = cls / np.maximum(norms, 1e-12)
            for i, vector in zip(rows, cls, strict=True):
                out[i] = vector.tolist()
        return out

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._run([t if t.strip() else "." for t in texts])

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._run([self._instruction + t for t in texts])

    async def _run(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            return await asyncio.to_thread(self._encode, texts)
        except ProviderError:
            raise
        except Exception as e:
            raise ProviderError(f"embedding failed: {e}") from e
