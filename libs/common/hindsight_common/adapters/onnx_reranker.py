"""ms-marco-MiniLM-L-12-v2 (int8 ONNX) on ONNX Runtime: the cross-encoder.

It reads the query and a passage as one pair ([CLS] query [SEP] passage [SEP]) and
returns a relevance logit; recall uses it to reorder the fused top N.

A call's pairs are sorted by length and cut into the fewest batches of at most
``batch_size``, as equal in size as can be (20 pairs: two of 10, not 16 and 4, which
left one core idle for most of the call). The int8 graph quantizes activations with
one scale per input tensor, so a score depends on the batch it ran in: this split,
which depends only on the pairs and ``batch_size``, is part of what a score is.
The batches run side by
side (``workers``), each on one intra-op thread that does not spin: a batch of short
pairs cannot keep two threads of one run busy, and a spinning thread burns the core
that the other batch, or the rest of the process, needs. The thread count does not
change a score (tests/contract/test_onnx_models.py checks it).

The residual additions and layer norms run as the graph has them (``Add`` and
``LayerNormalization``), not fused into ONNX Runtime's ``SkipLayerNormalization``: on
this model's short batches (10 pairs of about 30 tokens) the fused kernel took 17% of a
run and the two it replaces 5%, so a batch runs in about 34 ms of CPU instead of 41
(ONNX Runtime 1.32, AVX-512). The sums are rounded differently, so a logit moves by up
to about 0.3 (the int8 graph quantizes each layer's output with a scale of its own),
which is part of what a score is, like the batch split.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from hindsight_common.adapters.model_files import DISTRIBUTION, DISTRIBUTION_VERSION, MS_MARCO_MINILM_L12
from hindsight_common.adapters.onnx_bert import OnnxBert
from hindsight_common.errors import ProviderError
from hindsight_common.ports.reranker import Reranker

MODEL_ID = f"cross-encoder/ms-marco-MiniLM-L-12-v2@int8-onnx:{DISTRIBUTION}-{DISTRIBUTION_VERSION}"
# Query and passage together; turns are short, and a long passage is cut here.
MAX_TOKENS = 256
# Graph fusions left out: slower than the nodes they fuse on this model's batches (above).
UNFUSED = ("SkipLayerNormFusion",)


def even_batches(rows: Sequence[int], most: int) -> list[list[int]]:
    """``rows`` cut, in order, into the fewest runs of at most ``most``, their sizes
    differing by one at most."""
    count = -(-len(rows) // most)
    size, extra = divmod(len(rows), max(count, 1))
    out: list[list[int]] = []
    start = 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        out.append(list(rows[start:end]))
        start = end
    return out


class MiniLMCrossEncoder(Reranker):
    def __init__(self, *, batch_size: int = 16, threads: int | None = None, workers: int | None = None,
                 root: Path | None = None) -> None:
        """``threads``: intra-op threads of each batch's run (default 1); ``workers``:
        batches run at once, across calls too (default: all cores)."""
        self._model = OnnxBert(MS_MARCO_MINILM_L12, max_tokens=MAX_TOKENS, threads=threads or 1, root=root,
                               spin=False, unfused=UNFUSED)
        self._batch_size = batch_size
        self._pool = ThreadPoolExecutor(workers or max(1, os.cpu_count() or 1), thread_name_prefix="ms-marco")

    @property
    def model_id(self) -> str:
        return MODEL_ID

    def load(self) -> None:
        self._model.load()

    def _batch(self, query: str, passages: Sequence[str]) -> list[float]:
        logits = self._model.run(self._model.encode([(query, p) for p in passages]))
        return [float(v) for v in np.asarray(logits, dtype=np.float32).reshape(-1)]

    async def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        order = sorted(range(len(passages)), key=lambda i: len(passages[i]))
        batches = even_batches(order, self._batch_size)
        loop = asyncio.get_running_loop()
        try:
            await asyncio.to_thread(self.load)
            scored = await asyncio.gather(*(loop.run_in_executor(
                self._pool, self._batch, query, [passages[i] for i in rows]) for rows in batches))
        except ProviderError:
            raise
        except Exception as e:
            raise ProviderError(f"cross-encoder failed: {e}") from e
        out = [0.0] * len(passages)
        for rows, values in zip(batches, scored, strict=True):
            for i, value in zip(rows, values, strict=True):
                out[i] = value
        return out
