"""ms-marco-MiniLM-L-12-v2 (int8 ONNX) on ONNX Runtime: the cross-encoder.

It reads the query and a passage as one pair ([CLS] query [SEP] passage [SEP]) and
returns a relevance logit; recall uses it to reorder the fused top N.

A call's pairs are tokenized together, sorted by token count and cut into an even
number of runs (the fewest of at most ``batch_size`` pairs, one more when that is odd),
each holding about the same number of tokens: the runs then keep two cores equally
busy (three runs of 16, 16 and 8 pairs left one core idle for a third of the call, and
runs of equal pair counts but unequal lengths did much the same). Each run is padded
only to its own longest pair. The int8 graph quantizes activations with one scale per
input tensor, so a score depends on the run it was read in: this split, which depends
only on the pairs and ``batch_size`` (not on the cores), is part of what a score is.
The runs go side by side (``workers``), each on one intra-op thread that does not
spin: a run of short pairs cannot keep two threads of one run busy, and a spinning
thread burns the core that the other run, or the rest of the process, needs. The
thread count does not change a score (tests/contract/test_onnx_models.py checks it).

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
from typing import Any

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


def token_batches(lengths: Sequence[int], most: int) -> list[list[int]]:
    """The positions of ``lengths`` (each pair's tokens), shortest first (ties in order),
    cut into runs that each hold about the same number of tokens: the fewest runs of at
    most ``most`` pairs, made even when there are pairs enough (see the module's note)."""
    n = len(lengths)
    if n == 0:
        return []
    order = sorted(range(n), key=lambda i: lengths[i])
    runs = -(-n // most)
    if runs % 2 and runs < n:
        runs += 1
    total = sum(lengths)
    out: list[list[int]] = []
    start = acc = 0
    for run in range(runs):
        last = n - (runs - run - 1)  # every later run keeps at least one pair
        end = start + 1
        acc += lengths[order[start]]
        target = total * (run + 1) / runs
        while end < last and (run == runs - 1 or acc + lengths[order[end]] / 2 <= target):
            acc += lengths[order[end]]
            end += 1
        out.append(order[start:end])
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

    def _run(self, encodings: Sequence[Any]) -> list[float]:
        logits = self._model.run(self._model.pad(encodings))
        return [float(v) for v in np.asarray(logits, dtype=np.float32).reshape(-1)]

    async def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        loop = asyncio.get_running_loop()
        try:
            encodings = await asyncio.to_thread(self._model.tokenize, [(query, p) for p in passages])
            batches = token_batches([len(e.ids) for e in encodings], self._batch_size)
            scored = await asyncio.gather(*(loop.run_in_executor(
                self._pool, self._run, [encodings[i] for i in rows]) for rows in batches))
        except ProviderError:
            raise
        except Exception as e:
            raise ProviderError(f"cross-encoder failed: {e}") from e
        out = [0.0] * len(passages)
        for rows, values in zip(batches, scored, strict=True):
            for i, value in zip(rows, values, strict=True):
                out[i] = value
        return out
