"""``hindsight bench replay``: how fast the embedded projections rebuild from the log,
without the embedding cache, with a cold one (filled as it goes) and with a warm one.

N synthetic turns (``bench/synthetic.py``, deterministic) are appended straight to the
log of a scratch data directory; each run then drops the projections and rebuilds every
one of them (vector, text, graph, as ``hindsight replay`` does) and is timed from the
start of the runtime (models already loaded) until every consumer has caught up. The
rate is log records per second; beside the wall time each run has the process's CPU time
(every thread), which is what to compare on a shared, loaded machine. Reflection is off (it would add memories, and work, to
the first run only), so what is rebuilt is the projections of the interactions.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hindsight_common.bench import synthetic
from hindsight_common.events import InteractionRecorded
from hindsight_common.factory import make_embedder, make_log, make_reranker
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.bench import Progress
from hindsight_services.embedded import EmbeddedRuntime, drop_projections

TENANT = "bench-replay"
BATCH = 500


@dataclass(frozen=True)
class ReplayRun:
    name: str
    records: int
    seconds: float
    embedded: int  # texts the model embedded (cache misses, or every text without the cache)
    vector_seconds: float  # until embed alone had caught up (the vector projection rebuilt)
    cpu_seconds: float = 0.0  # the process's CPU time over the run, every thread

    @property
    def cpu_rate(self) -> float:
        """Records per CPU second: the rate a core of its own would give."""
        return self.records / max(self.cpu_seconds, 1e-9)

    @property
    def rate(self) -> float:
        return self.records / max(self.seconds, 1e-9)

    @property
    def vector_rate(self) -> float:
        return self.records / max(self.vector_seconds, 1e-9)


class CountingEmbedder(Embedder):
    """The real embedder, with every text it is asked to embed written down (what the
    cache saved; the tests count model calls with it)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts += texts
        return await self.inner.embed(texts)

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_queries(texts)


async def fill_log(settings: Settings, n: int) -> None:
    log = make_log(settings)
    progress = Progress("append turns", n)
    batch: list[InteractionRecorded] = []
    try:
        for t in synthetic.turns(n):
            batch.append(InteractionRecorded(
                tenant=TENANT, user=t.user, session=t.session, speaker=t.speaker, role="user",
                content=t.content, occurred_at=t.occurred_at, recorded_at=t.occurred_at))
            if len(batch) == BATCH:
                await log.append(INTERACTIONS, batch)
                progress.advance(len(batch))
                batch = []
        if batch:
            await log.append(INTERACTIONS, batch)
            progress.advance(len(batch))
    finally:
        await log.close()


async def rebuild(name: str, n: int, settings: Settings, embedder: Embedder, reranker: Reranker | None) -> ReplayRun:
    drop_projections(settings)
    counting = CountingEmbedder(embedder)
    started, cpu = time.perf_counter(), time.process_time()
    runtime = EmbeddedRuntime(settings, counting, reranker)
    await runtime.start()
    try:
        progress = Progress(f"rebuild ({name})", n)
        shown = 0
        vector_seconds = None
        while not (status := await runtime.status())["caught_up"]:
            if vector_seconds is None and not status["consumers"]["embed"]["behind"]:
                vector_seconds = time.perf_counter() - started
            done = min(c.processed for c in runtime.consumers[:2])  # embed and project
            progress.advance(max(0, done - shown))
            shown = max(shown, done)
            await asyncio.sleep(0.2)
        progress.advance(max(0, n - shown))
        seconds = time.perf_counter() - started
        records = runtime.consumers[0].processed  # embed's: every interaction, once
    finally:
        await runtime.stop()
    # Less the start-up warm-up; embed may have been the last to catch up.
    return ReplayRun(name, records, seconds, len(counting.texts) - 1, vector_seconds or seconds,
                     time.process_time() - cpu)


async def run_replay_bench(n: int, data_dir: Path | None = None) -> list[ReplayRun]:
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-replay-") as scratch:
        # Reflection off (it would add memories, and work, to the first run only): the
        # rebuild of the interactions' projections is what is measured.
        base = Settings(data_dir=data_dir or Path(scratch), reflect_every_n_turns=10**9, reflect_idle_s=10**9)
        await fill_log(base, n)
        embedder = make_embedder(base)
        await embedder.embed(["warm up"])  # loaded once, outside the timings
        reranker = make_reranker(base)
        if reranker is not None:
            await reranker.score("warm up", ["warm up"])
        off = base.model_copy(update={"embedding_cache": False})
        return [
            await rebuild("no cache", n, off, embedder, reranker),
            await rebuild("cold cache", n, base, embedder, reranker),
            await rebuild("warm cache", n, base, embedder, reranker),
            await online(n, base, embedder),
        ]


async def online(n: int, settings: Settings, embedder: Embedder) -> ReplayRun:
    """What ``hindsight replay`` runs (warm cache): every projection into new versions
    (``rebuild/embedded.py``, batches of ``HINDSIGHT_REBUILD_BATCH``), swapped in at the end."""
    from hindsight_common.factory import make_embedding_cache, make_text_index
    from hindsight_services.rebuild.embedded import RebuildRequest, rebuild_data_dir
    from hindsight_services.rebuild.records import resolve

    live = resolve(settings)
    counting = CountingEmbedder(embedder)
    log, cache, lookup = make_log(live), make_embedding_cache(live), make_text_index(live)
    started, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    try:
        # As `hindsight replay` runs it (the vectors in a process of their own, which
        # loads its model), the bench's model given as the live one for the rest.
        result = await rebuild_data_dir(live, log, cache, lookup, RebuildRequest(("vector", "text", "graph")),
                                        live_embedder=counting)
    finally:
        await lookup.close()
        if cache is not None:
            await cache.close()
        await log.close()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    applied = result["applied"]
    child = result.get("vector_process")
    embedded = len(counting.texts) + (int(child.get("embedded") or 0) if isinstance(child, dict) else 0)
    return ReplayRun("online", applied if isinstance(applied, int) else n, seconds, embedded, seconds,
                     cpu + _children_cpu() - children)


def _children_cpu() -> float:
    """CPU time of the child processes that ended (the vector process of ``online``)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def print_replay_bench(runs: list[ReplayRun], n: int, as_json: bool) -> None:
    print(f"rebuild of every embedded projection from {n} logged turns (models loaded beforehand; "
          "online: `hindsight replay`, new versions, warm cache)")
    for r in runs:
        print(f"  {r.name:<11} {r.records:>7} records in {r.seconds:7.1f}s = {r.rate:6.0f} events/s all projections, "
              f"{r.vector_rate:6.0f} events/s vectors ({r.embedded} texts embedded); "
              f"CPU {r.cpu_seconds:.1f}s = {r.cpu_rate:.0f} events per CPU second")
    if as_json:
        out: dict[str, Any] = {"n": n, "runs": [
            {"name": r.name, "records": r.records, "seconds": round(r.seconds, 2),
             "events_per_s": round(r.rate, 1), "vector_seconds": round(r.vector_seconds, 2),
             "vector_events_per_s": round(r.vector_rate, 1), "embedded": r.embedded,
             "cpu_seconds": round(r.cpu_seconds, 2), "events_per_cpu_s": round(r.cpu_rate, 1)} for r in runs]}
        print(json.dumps(out))
