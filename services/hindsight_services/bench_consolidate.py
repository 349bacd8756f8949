"""``hindsight bench consolidate``: deduplication and supersession against known truth.

Runs the consolidate service's handler (``services/hindsight_services/consolidate/handler.py``) with the
real embedder, a real SQLite log (its decisions are appended there) and a real SQLite
embedding cache over a synthetic stream (``hindsight_common/bench/consolidation.py``), in
the service's batch size, then scores its decisions: live-set size, dedup and supersession
precision and recall, and throughput.

Two figures of throughput, as the services split the work: first the embed service's
share (every memory's document embedded once, through the embedding cache, as embed does),
then consolidation's: statements per second (wall clock, and per CPU second of the process: on a
shared machine the wall clock counts other work) through ``Consolidate.handle`` (the fold, its
decisions appended durably to the log, the batch position recorded), its vectors read
from the cache embed filled. The model calls consolidation still made (a cache miss) are
counted; with embed ahead of it there are none.

Then forgetting: a seeded tenth of the live memories is pinned and three tenths are
recalled a day before a pass that runs 400 days after the stream (``forgetting_pass``
with the settings' policy). It reports what the pass forgot against what the policy
makes eligible, the guard's cap, how many pinned or recently used memories were
forgotten (0 is the only right answer), the pass's time, how many of them the pass after the
grace period purges, and whether a replay of the
log (no embedder, no model: the recorded decisions are read) gives the same live,
merged, superseded and forgotten sets.
"""

from __future__ import annotations

import json
import math
import random
import tempfile
import time
from datetime import timedelta
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hindsight_common.bench.consolidation import score, stream
from hindsight_common.consolidation.forgetting import ForgetPolicy, plan
from hindsight_common.consolidation.state import ConsolidationState
from hindsight_common.events import (
    Event,
    MemoriesMerged,
    MemoryAccessed,
    MemoryExtracted,
    MemoryForgotten,
    MemoryPinned,
    MemoryPurged,
    MemorySuperseded,
)
from hindsight_common.documents import memory_text
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.factory import make_access_counts, make_embedder, make_embedding_cache, make_log
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
        cache = make_embedding_cache(settings)
        assert cache is not None  # on by default
        embedder = TimedEmbedder(make_embedder(settings))
        try:
            await embedder.inner.embed(["warm up"])
            batch = settings.consumer_batch
            # embed's share: each memory's document, once, into the cache (embed's wiring).
            embed_service = CachedEmbedder(embedder.inner, cache)
            started = time.perf_counter()
            for i in range(0, len(data.events), batch):
                await embed_service.embed([memory_text(e) for e in data.events[i : i + batch]])
            embed_s = time.perf_counter() - started
            # As the wiring builds it (``cache=``): the cache first, the model for a miss.
            cached = CachedEmbedder(embedder, cache)
            handler = Consolidate(accesses, log, cached, similarity=settings.consolidate_similarity)
            elapsed = cpu_s = 0.0  # wall and CPU time (every thread of the process) in the handler
            for i in range(0, len(data.events), batch):
                # On the log first, as reflect leaves them (so a replay reads memories and
                # decisions in their order); only the handler is timed.
                appended = await log.append(MEMORIES, data.events[i : i + batch])
                chunk = [LogRecord(MEMORIES, 0, a.offset, f"{e.tenant}/{e.user}", b"", e)
                         for a, e in zip(appended, data.events[i : i + batch], strict=True)]
                started, cpu = time.perf_counter(), time.process_time()
                await handler.handle(chunk, {f"{MEMORIES}#0": chunk[-1].offset})
                elapsed += time.perf_counter() - started
                cpu_s += time.process_time() - cpu
            decisions = [r.event for r in await _all(log) if not isinstance(r.event, MemoryExtracted)]
            live = len(handler.state.live())  # before the forgetting pass
            forgetting = await _forgetting(handler, log, settings, seed)
        finally:
            await cache.close()
            await accesses.close()
            await log.close()
    merged = [(m, e.kept_id) for e in decisions if isinstance(e, MemoriesMerged) for m in e.merged_ids]
    superseded = [(e.new_id, e.old_id) for e in decisions if isinstance(e, MemorySuperseded)]
    want_merged = [(i, t.target) for i, t in data.truth.items() if t.action == "merge" and t.target]
    want_superseded = [(i, t.target) for i, t in data.truth.items() if t.action == "supersede" and t.target]
    dedup, supersession = score(merged, want_merged), score(superseded, want_superseded)
    return {
        "statements": n, "seconds": round(elapsed, 2), "statements_per_s": round(n / elapsed, 1),
        "cpu_seconds": round(cpu_s, 2), "statements_per_cpu_s": round(n / max(cpu_s, 1e-9), 1),
        "embed_seconds": round(embed_s, 2), "embed_statements_per_s": round(n / max(embed_s, 1e-9), 1),
        "embed_model_texts": embed_service.misses,
        "cache_hits": cached.hits,
        "model_texts": embedder.texts, "model_seconds": round(embedder.seconds, 2),
        "live": live, "live_expected": data.live,
        "merges_exact": sum(1 for e in decisions if isinstance(e, MemoriesMerged) and e.reason.startswith("exact")),
        "merges_near": sum(1 for e in decisions if isinstance(e, MemoriesMerged) and e.reason.startswith("near")),
        "conflicts": sum(1 for e in decisions if e is not None and e.type == "MemoryConflicted"),
        "dedup": vars(dedup), "supersession": vars(supersession), "forgetting": forgetting,
    }


async def _forgetting(handler: Consolidate, log: Any, settings: Settings, seed: int) -> dict[str, Any]:
    state = handler.state
    live = sorted(state.live(), key=str)
    if not live:
        return {"live_before": 0}
    rng = random.Random(seed)
    pinned = set(rng.sample(live, len(live) // 10))
    used = set(rng.sample(sorted(set(live) - pinned, key=str), (len(live) * 3) // 10))
    last = max(m.occurred_at for m in state.memories.values())
    reference = last + timedelta(days=400)
    events: list[Event] = []
    for i in sorted(pinned, key=str):
        m = state.memories[i]
        events.append(MemoryPinned(tenant=m.group[0], user=m.group[1], occurred_at=last, memory_id=i))
    by_user: dict[tuple[str, str], dict[str, int]] = {}
    for i in sorted(used, key=str):
        by_user.setdefault(state.memories[i].group[:2], {})[str(i)] = 1
    day_before = reference - timedelta(days=1)
    for (tenant, user), counts in sorted(by_user.items()):
        items = sorted(counts.items())
        for j in range(0, len(items), 1000):  # an event holds at most 1,000 counts
            events.append(MemoryAccessed(tenant=tenant, user=user, occurred_at=day_before, counts=dict(items[j:j + 1000]),
                                         window_start=day_before, window_end=day_before))
    appended = await log.append(MEMORIES, events)
    new = [LogRecord(MEMORIES, 0, a.offset, f"{e.tenant}/{e.user}", b"", e) for a, e in zip(appended, events, strict=True)]
    await handler.handle(new, {f"{MEMORIES}#0": new[-1].offset})
    policy = ForgetPolicy.from_settings(settings)
    eligible = plan(state, reference, ForgetPolicy(policy.threshold, policy.min_age_days, 1.0, policy.importance))
    started = time.perf_counter()
    forgotten = await handler.forgetting_pass(reference)
    pass_s = time.perf_counter() - started
    ids = {e.memory_id for e in forgotten if isinstance(e, MemoryForgotten)}
    # After the grace period the next pass purges what this one forgot (and forgets more).
    later = await handler.forgetting_pass(reference + timedelta(days=policy.grace_days + 1))
    purged = {e.memory_id for e in later if isinstance(e, MemoryPurged)}
    started = time.perf_counter()
    replayed = ConsolidationState(handler.state.similarity)
    for r in await _all(log):
        if isinstance(r.event, MemoryExtracted):
            replayed.adopt(r.event)
        elif r.event is not None:
            replayed.observe(r.event)
    replay_s = time.perf_counter() - started
    per_user: dict[tuple[str, str], int] = {}  # live memories before the pass, per user
    for i in live:
        per_user[state.memories[i].group[:2]] = per_user.get(state.memories[i].group[:2], 0) + 1
    return {
        "live_before": len(live), "pinned": len(pinned), "recently_used": len(used), "eligible": len(eligible),
        "forgotten": len(ids), "share_forgotten": round(len(ids) / len(live), 4),
        "cap": sum(math.floor(policy.max_share * n) for n in per_user.values()),
        "pinned_forgotten": len(ids & pinned), "used_forgotten": len(ids & used),
        "purged_after_grace": len(purged & ids), "pass_ms": round(pass_s * 1000, 1), "replay_equal": replayed.status_of() == state.status_of(),
        "replay_s": round(replay_s, 2), "policy": {"threshold": policy.threshold,
                                                   "min_age_days": policy.min_age_days, "max_share": policy.max_share},
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
    print(f"  consolidation {result['statements_per_s']:.0f} statements/s ({result['seconds']:.1f} s wall: the fold, decisions "
          f"appended to the log, positions recorded; vectors read from the embedding cache, {result['cache_hits']} hits, "
          f"{result['model_texts']} texts the model embedded for it in {result['model_seconds']:.1f} s)")
    print(f"                {result['statements_per_cpu_s']:.0f} statements per CPU second ({result['cpu_seconds']:.1f} s of "
          f"CPU, all threads: what a loaded machine's wall clock hides)")
    print(f"  embedding     {result['embed_statements_per_s']:.0f} statements/s ({result['embed_seconds']:.1f} s: the embed "
          f"service's share, not part of the figures above; the model ran for {result['embed_model_texts']} distinct texts, "
          f"the stream's repeats were cache hits)")
    f = result["forgetting"]
    if f.get("live_before"):
        print(f"  forgetting    a pass 400 days on: {f['forgotten']} of {f['live_before']} live forgotten "
              f"({f['eligible']} eligible, guard cap {f['cap']}); pinned forgotten {f['pinned_forgotten']} "
              f"of {f['pinned']}, recently used forgotten {f['used_forgotten']} of {f['recently_used']}; "
              f"{f['pass_ms']:.0f} ms; {f['purged_after_grace']} of them purged by the pass after the grace period")
        print(f"  replay        same live/merged/superseded/forgotten sets: {f['replay_equal']} "
              f"({f['replay_s']:.1f} s, no embedder)")
    if as_json:
        print(json.dumps(result))


__all__ = ["print_consolidate_bench", "run_consolidate_bench"]
