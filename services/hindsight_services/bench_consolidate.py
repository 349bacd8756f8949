"""``hindsight bench consolidate``: deduplication and supersession against known truth.

Runs the consolidate service's handler (``services/hindsight_services/consolidate/handler.py``) with the
real embedder and a real SQLite log (its decisions are appended there) over a synthetic
stream (``hindsight_common/bench/consolidation.py``), in the service's batch size, then
scores its decisions: live-set size, dedup and supersession precision and recall, and
statements per second (embedding included).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hindsight_common.bench.consolidation import score, stream
from hindsight_common.events import MemoriesMerged, MemorySuperseded
from hindsight_common.factory import make_access_counts, make_embedder, make_log
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import Consolidate


class TimedEmbedder(Embedder):
    """The real embedder, with the time spent in it and the texts it embedded counted."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.seconds, self.texts = inner, 0.0, 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        started = time.perf_counter()
        try:
            return await self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - started
            self.texts += len(texts)

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_queries(texts)


async def run_consolidate_bench(n: int, seed: int = 7) -> dict[str, Any]:
    data = stream(n, seed)
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-consolidate-") as tmp:
        settings = Settings(data_dir=Path(tmp))
        log, accesses = make_log(settings), make_access_counts(settings)
        embedder = TimedEmbedder(make_embedder(settings))
        try:
            await embedder.inner.embed(["warm up"])
            handler = Consolidate(accesses, log, embedder, similarity=settings.consolidate_similarity)
            records = [LogRecord(MEMORIES, 0, i + 1, f"{e.tenant}/{e.user}", b"", e) for i, e in enumerate(data.events)]
            batch = settings.consumer_batch
            started = time.perf_counter()
            for i in range(0, len(records), batch):
                chunk = records[i : i + batch]
                await handler.handle(chunk, {f"{MEMORIES}#0": chunk[-1].offset})
            elapsed = time.perf_counter() - started
            decisions = [r.event for r in await _all(log)]
        finally:
            await accesses.close()
            await log.close()
    merged = [(m, e.kept_id) for e in decisions if isinstance(e, MemoriesMerged) for m in e.merged_ids]
    superseded = [(e.new_id, e.old_id) for e in decisions if isinstance(e, MemorySuperseded)]
    want_merged = [(i, t.target) for i, t in data.truth.items() if t.action == "merge" and t.target]
    want_superseded = [(i, t.target) for i, t in data.truth.items() if t.action == "supersede" and t.target]
    dedup, supersession = score(merged, want_merged), score(superseded, want_superseded)
    return {
        "statements": n, "seconds": round(elapsed, 2), "statements_per_s": round(n / elapsed, 1),
        "embedded_texts": embedder.texts, "embedding_seconds": round(embedder.seconds, 2),
        "statements_per_s_without_embedding": round(n / max(elapsed - embedder.seconds, 1e-9), 1),
        "live": len(handler.state.live()), "live_expected": data.live,
        "merges_exact": sum(1 for e in decisions if isinstance(e, MemoriesMerged) and e.reason.startswith("exact")),
        "merges_near": sum(1 for e in decisions if isinstance(e, MemoriesMerged) and e.reason.startswith("near")),
        "conflicts": sum(1 for e in decisions if e is not None and e.type == "MemoryConflicted"),
        "dedup": vars(dedup), "supersession": vars(supersession),
    }


async def _all(log: Any) -> list[LogRecord]:
    out: list[LogRecord] = []
    batch: list[LogRecord] = await log.read(MEMORIES, limit=5000)
    while batch:
        out += batch
        batch = await log.read(MEMORIES, after=batch[-1].offset, limit=5000)
    return out


def print_consolidate_bench(result: dict[str, Any], as_json: bool) -> None:
    d, s = result["dedup"], result["supersession"]
    print(f"consolidation of {result['statements']} synthetic statements (40% restated, 10% new values)")
    print(f"  live set      {result['live']} (truth {result['live_expected']}), conflicts flagged {result['conflicts']}")
    print(f"  dedup         P={d['precision']:.3f} R={d['recall']:.3f} ({d['made']} merges, {d['expected']} expected; "
          f"{result['merges_exact']} exact repeats, {result['merges_near']} by meaning)")
    print(f"  supersession  P={s['precision']:.3f} R={s['recall']:.3f} ({s['made']} made, {s['expected']} expected)")
    print(f"  throughput    {result['statements_per_s']:.0f} statements/s ({result['seconds']:.1f} s, embedding included)")
    print(f"  of which      {result['embedding_seconds']:.1f} s embedding {result['embedded_texts']} texts; "
          f"{result['statements_per_s_without_embedding']:.0f} statements/s without it")
    if as_json:
        print(json.dumps(result))


__all__ = ["print_consolidate_bench", "run_consolidate_bench"]
