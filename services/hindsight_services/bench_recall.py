"""``hindsight bench recall``: recall latency per preset over N synthetic turns.

Loads through the real ingest path and asks through the real recall path
(query embedding included). Embedded by default (in-process app, fresh data
directory); ``--url`` measures a running gateway instead (e.g. the cluster).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from hindsight_common.bench import synthetic
from hindsight_common.bench.locomo import percentile
from hindsight_common.recall.presets import PRESETS
from hindsight_common.settings import Settings
from hindsight_services.auth import api_key_headers
from hindsight_services.embedded import create_app

TENANT = "recall-bench"
# One user holds the whole corpus, so a query searches every document (spread over 50
# users, a query at "100,000" searched about 3,400).
USERS = 1


MARKER = "bench-recall-loaded-1user.json"  # in a kept data directory: how many synthetic turns it holds


@asynccontextmanager
async def _client(url: str | None, data_dir: Path | None) -> AsyncIterator[httpx.AsyncClient]:
    if url:
        async with httpx.AsyncClient(base_url=url, timeout=120, headers=api_key_headers()) as client:
            yield client
        return
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-") as tmp:
        app = create_app(Settings(data_dir=data_dir or Path(tmp)))
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench",
                                         timeout=120) as client:
                yield client


def _already_loaded(data_dir: Path | None) -> int:
    """Turns a kept data directory already holds (the synthetic stream is deterministic)."""
    if data_dir is None or not (data_dir / MARKER).exists():
        return 0
    return int(json.loads((data_dir / MARKER).read_text())["turns"])


async def _wait_caught_up(client: httpx.AsyncClient, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if (await client.get("/v1/status")).json().get("caught_up"):
            return
        await asyncio.sleep(0.2)
    raise TimeoutError("projections did not catch up")


async def _warm(client: httpx.AsyncClient, presets: Sequence[str], timeout_s: float = 600) -> None:
    """One unmeasured recall per preset (models loaded, caches filled), then, embedded,
    until the text and vector indexes hold the user in memory: a data directory reopened
    by this run has none until its first search, and the stores answer while it is read."""
    for name in presets:
        body = {"tenant": TENANT, "user": "user-0", "query": "warm up", "k": 10, "preset": name}
        (await client.post("/v1/recall", json=body)).raise_for_status()
    deadline = time.monotonic() + timeout_s
    while any((status.get(name) or {}).get(state) for status in [(await client.get("/v1/status")).json()]
              for name in ("text_memory", "vector_memory") for state in ("building", "listing")):
        if time.monotonic() > deadline:
            raise TimeoutError("the indexes did not finish reading the user into memory")
        await asyncio.sleep(0.2)


async def _load_batch(client: httpx.AsyncClient, data_dir: Path | None, first: int,
                      batch: list[dict[str, Any]]) -> int:
    """Append ``batch`` (turns ``first`` onwards of the synthetic stream) and note in a kept
    data directory how many turns it now holds, after every batch: a run stopped midway
    resumes where it stopped instead of appending the same turns again. The batch's
    Idempotency-Key names its turns, so a batch whose answer was lost is not appended twice."""
    key = f"bench-recall-{first}-{len(batch)}"
    (await client.post("/v1/interactions", json={"interactions": batch},
                       headers={"Idempotency-Key": key})).raise_for_status()
    if data_dir is not None:
        (data_dir / MARKER).write_text(json.dumps({"turns": first + len(batch)}))
    return first + len(batch)


async def run_recall_bench(sizes: Sequence[int], presets: Sequence[str], queries: int,
                           url: str | None = None, data_dir: Path | None = None) -> list[dict[str, Any]]:
    """Latency rows per (size, preset). ``data_dir`` (embedded only) keeps the loaded
    corpus between runs: a later run loads only the turns it lacks (load_s then
    covers just those)."""
    results = []
    loaded = _already_loaded(data_dir)
    if data_dir is not None:
        data_dir.mkdir(parents=True, exist_ok=True)
    async with _client(url, data_dir) as client:
        for size in sorted(sizes):
            started = time.perf_counter()
            batch: list[dict[str, Any]] = []
            first = loaded  # the stream index of the batch's first turn
            for index, t in enumerate(synthetic.turns(size, users=USERS)):
                if index < loaded:
                    continue  # already loaded by a smaller size or an earlier run
                batch.append({"tenant": TENANT, "user": t.user, "session": t.session, "speaker": t.speaker,
                              "content": t.content, "occurred_at": t.occurred_at.isoformat()})
                if len(batch) == 500:
                    first = await _load_batch(client, data_dir, first, batch)
                    batch = []
            if batch:
                first = await _load_batch(client, data_dir, first, batch)
            await _wait_caught_up(client, timeout_s=6 * 3600)
            load_s = time.perf_counter() - started
            loaded = max(loaded, size)
            await _warm(client, presets)
            for name in presets:
                latencies = []
                cpu_started = time.process_time()
                for i, q in enumerate(synthetic.questions(queries)):
                    body = {"tenant": TENANT, "user": f"user-{i % USERS}", "query": q, "k": 10, "preset": name}
                    t0 = time.perf_counter()
                    (await client.post("/v1/recall", json=body)).raise_for_status()
                    latencies.append((time.perf_counter() - t0) * 1000)
                row = {
                    "memories": size, "preset": name, "queries": queries, "load_s": round(load_s, 1),
                    "p50_ms": round(percentile(latencies, 50), 2), "p95_ms": round(percentile(latencies, 95), 2),
                    "p99_ms": round(percentile(latencies, 99), 2),
                }
                if not url:  # the server runs in this process: its CPU time per query, every thread
                    # (on a loaded machine the wall-clock figures wait for the CPU; this does not)
                    row["cpu_ms"] = round((time.process_time() - cpu_started) * 1000 / max(queries, 1), 2)
                results.append(row)
                print(f"measured: {json.dumps(row)}", flush=True)  # long runs: keep what is done
    return results


def print_recall_bench(rows: list[dict[str, Any]], mode: str, as_json: bool) -> None:
    print(f"recall latency ({mode}; query embedding included)")
    print(f"corpus: synthetic turns of {USERS} user, written through POST /v1/interactions and projected by the "
          "services themselves (each turn embedded by the embed service), waited for until caught up")
    print(f"{'memories':>9} {'preset':<9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'load s':>8} {'CPU ms':>8}")
    for r in rows:
        cpu = f"{r['cpu_ms']:>8.1f}" if "cpu_ms" in r else f"{'-':>8}"
        print(f"{r['memories']:>9} {r['preset']:<9} {r['p50_ms']:>8.1f} {r['p95_ms']:>8.1f} "
              f"{r['p99_ms']:>8.1f} {r['load_s']:>8.1f} {cpu}")
    if as_json:
        print(json.dumps({"mode": mode, "results": rows}))


def preset_names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        raise SystemExit(f"hindsight: unknown preset(s) {', '.join(unknown)}; one of {', '.join(PRESETS)}")
    return names
