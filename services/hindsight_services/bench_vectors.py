"""``hindsight bench vectors``: the embedded vector search of one user, four ways.

Over the corpus a ``bench recall --data-dir`` run left (its one user), with the recall
bench's questions embedded as queries:

- ``shard``: Qdrant Edge's filtered search (what answers with ``HINDSIGHT_VECTOR_MEMORY_MB=0``);
- ``memory``: the adapter's search from the user's in-memory vectors, payloads read
  from the shard included (what recall calls);
- ``exact`` and ``lists``: the in-memory matrix alone, scored whole and through the
  inverted lists, with the share of the exact top k the lists find: the results scoring at
  least the exact k-th score (the synthetic corpus repeats sentences, so equal vectors tie
  and which of them an id set holds says nothing).

Read-only: the data directory is opened, never written.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits

from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.adapters.vector_memory import plan_lists, unit
from hindsight_common.bench import synthetic
from hindsight_common.bench.locomo import percentile
from hindsight_common.factory import make_embedder
from hindsight_common.ports.projection import Scope
from hindsight_common.settings import Settings
from hindsight_services.bench_recall import TENANT

USER = "user-0"


def _ms(samples: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(samples, 50), 2), "p99_ms": round(percentile(samples, 99), 2)}


async def run_vector_bench(data_dir: Path, queries: int, ks: Sequence[int]) -> dict[str, Any]:
    threadpool_limits(limits=1, user_api="blas")  # as the serving process has it (``vector_memory``)
    settings = Settings(data_dir=data_dir)
    if not settings.vector_dir.exists():
        raise SystemExit(f"hindsight: no vector index under {data_dir} (load one with "
                         f"`hindsight bench recall --data-dir {data_dir}` first)")
    embedder = make_embedder(settings)
    questions = await embedder.embed_queries(synthetic.questions(queries))
    scope = Scope(tenant=TENANT, user=USER)
    k_max = max(ks)
    out: dict[str, Any] = {"queries": queries, "k": list(ks)}

    shard = QdrantEdgeIndex(settings.vector_dir, embedder.dim)
    try:
        started = time.perf_counter()
        index = await asyncio.to_thread(shard.read_user, TENANT, USER)  # what the adapter reads in
        out.update(points=index.live, read_s=round(time.perf_counter() - started, 1),
                   memory_mb=round(index.nbytes() / 2**20, 1))
        timings: dict[str, list[float]] = {"shard": [], "exact": [], "lists": []}
        exact: list[list[tuple[str, float]]] = []
        for q in questions:
            t0 = time.perf_counter()
            await shard.search(scope, q, k_max)
            timings["shard"].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            exact.append(index.search(unit(q), k_max))
            timings["exact"].append((time.perf_counter() - t0) * 1000)
        started = time.perf_counter()
        index.adopt_lists(plan_lists(*index.snapshot()))
        out["lists_build_s"] = round(time.perf_counter() - started, 1)
        out["probe"] = index.probe_count()
        found, wanted = dict.fromkeys(ks, 0), dict.fromkeys(ks, 0)
        for q, best in zip(questions, exact, strict=True):
            t0 = time.perf_counter()
            got = index.search(unit(q), k_max)
            timings["lists"].append((time.perf_counter() - t0) * 1000)
            for k in ks:
                want = min(k, len(best))
                if want:
                    kth = best[want - 1][1] - 1e-6
                    found[k] += min(want, sum(1 for _, score in got[:k] if score >= kth))
                    wanted[k] += want
        out["lists_recall"] = {str(k): round(found[k] / max(wanted[k], 1), 4) for k in ks}
    finally:
        await shard.close()

    memory = QdrantEdgeIndex(settings.vector_dir, embedder.dim, memory_bytes=2**40)
    try:
        started = time.perf_counter()
        await memory.search(scope, questions[0], k_max)  # starts the read into memory
        while (stats := memory.memory_stats()) and (stats["building"] or stats["listing"]):
            await asyncio.sleep(0.1)
        out["adapter_ready_s"] = round(time.perf_counter() - started, 1)
        timings["memory"] = []
        for q in questions:
            t0 = time.perf_counter()
            await memory.search(scope, q, k_max)
            timings["memory"].append((time.perf_counter() - t0) * 1000)
    finally:
        await memory.close()
    out["latency"] = {name: _ms(samples) for name, samples in timings.items()}
    return out


def print_vector_bench(result: dict[str, Any]) -> None:
    print(f"one user's {result['points']:,} points ({result['memory_mb']} MB in memory; lists built in "
          f"{result['lists_build_s']} s, {result['probe']} probed; the adapter read the user and built its "
          f"lists in {result['adapter_ready_s']} s), {result['queries']} queries, top {max(result['k'])}")
    for name, row in result["latency"].items():
        print(f"  {name:<7} p50 {row['p50_ms']:>7.2f} ms   p99 {row['p99_ms']:>7.2f} ms")
    shares = ", ".join(f"@{k} {v:.4f}" for k, v in result["lists_recall"].items())
    print(f"  the lists find of the exact top k: {shares}")
