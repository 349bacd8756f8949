"""ms-marco-MiniLM-L-12-v2 (int8 ONNX) on ONNX Runtime: the cross-encoder.

It reads the query and a passage as one pair ([CLS] query [SEP] passage [SEP]) and
returns a relevance logit; recall uses it to reorder the fused top N.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from hindsight_common.adapters.model_files import DISTRIBUTION, DISTRIBUTION_VERSION, MS_MARCO_MINILM_L12
from hindsight_common.adapters.onnx_bert import OnnxBert
from hindsight_common.errors import ProviderError
from hindsight_common.ports.reranker import Reranker

MODEL_ID = f"cross-encoder/ms-marco-MiniLM-L-12-v2@int8-onnx:{DISTRIBUTION}-{DISTRIBUTION_VERSION}"
# Query and passage together; turns are short, and a long passage is cut here.
MAX_TOKENS = 256


class MiniLMCrossEncoder(Reranker):
    def __init__(self, *, batch_size: int = 16, threads: int | None = None, root: Path | None = None) -> None:
        self._model = OnnxBert(MS_MARCO_MINILM_L12, max_tokens=MAX_TOKENS, threads=threads, root=root)
        self._batch_size = batch_size

    @property
    def model_id(self) -> str:
        return MODEL_ID

    def load(self) -> None:
        self._model.load()

    def _score(self, query: str, passages: list[str]) -> list[float]:
        order = sorted(range(len(passages)), key=lambda i: len(passages[i]))
        out = [0.0] * len(passages)
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            logits = self._model.run(self._model.encode([(query, passages[i]) for i in rows]))
            for i, value in zip(rows, np.asarray(logits, dtype=np.float32).reshape(-1), strict=True):
                out[i] = float(value)
        return out

    async def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        try:
            return await asyncio.to_thread(self._score, query, list(passages))
        except ProviderError:
            raise
        except Exception as e:
            raise ProviderError(f"cross-encoder failed: {e}") from e
