"""``hindsight bench perf``: throughput, freshness, recall latency and memory of a server.

Embedded by default: it starts ``hindsight serve`` as a process of its own (a fresh data
directory, a free port) so that what it measures is a real server over HTTP and its peak
memory is that process's. ``--url`` measures a running gateway instead (the cluster); it
must be on this machine (127.0.0.1 / localhost): this is a load generator, bounded in
what it sends and where. ``--pid NAME=PID`` names the processes whose peak memory to
report (the bench reads ``VmHWM`` from ``/proc``). A gateway that requires keys gets
``$HINDSIGHT_API_KEY``, a key of the tenant written to (``--tenant``, default ``perf-bench``)
with the read and write scopes.

Phases, all through the public HTTP API, for one tenant and ONE user:

1. ingest: batches of 1 and of 100 interactions, from 1 and from 8 concurrent clients;
   a batch counts when its answer (the durable append) arrives;
2. projection: interactions per second from the first ingest write until every
   projection has applied everything (embedding included);
3. freshness: a writer at a steady rate; for each write, the time from its answer until
   the embed and project consumers hold its offset, as ``/v1/status`` reports positions;
4. recall: the default preset at each size in ``--sizes`` (the user's turns are topped up
   to that many first), query embedding included.

``--quick`` keeps every phase small (well under three minutes on two cores) for CI.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from hindsight_common.bench import synthetic
from hindsight_common.bench.locomo import percentile
from hindsight_common.streams import INTERACTIONS
from hindsight_services.auth import api_key_headers

TENANT = "perf-bench"
USER = "perf-user"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
#: The consumers that make a turn recallable, in the embedded status.
PROJECTING = ("embed", "project")


@dataclass(frozen=True)
class Plan:
    """How much each phase does."""

    ingest_requests: dict[int, int]  # batch size -> requests per client-count run
    freshness_rate: float  # interactions per second
    freshness_s: float
    sizes: tuple[int, ...]
    queries: int

    @classmethod
    def quick(cls) -> Plan:
        return cls({1: 120, 100: 6}, freshness_rate=10, freshness_s=12, sizes=(), queries=20)

    @classmethod
    def full(cls, sizes: Sequence[int]) -> Plan:
        return cls({1: 2000, 100: 100}, freshness_rate=100, freshness_s=60, sizes=tuple(sizes), queries=100)


@dataclass
class Turns:
    """The user's synthetic turns, handed out in order (the stream is deterministic)."""

    tenant: str = TENANT
    sent: int = 0
    _source: Iterator[synthetic.SyntheticTurn] = field(
        default_factory=lambda: synthetic.turns(10**9, users=1)
    )

    def take(self, n: int) -> list[dict[str, Any]]:
        out = []
        for _ in range(n):
            t = next(self._source)
            out.append({"tenant": self.tenant, "user": USER, "session": t.session, "speaker": t.speaker,
                        "content": t.content, "occurred_at": t.occurred_at.isoformat()})
        self.sent += n
        return out


def check_local(url: str) -> None:
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK:
        raise SystemExit(f"hindsight: bench perf only targets this machine (127.0.0.1); got {host!r}")


def peak_rss_mb(pid: int) -> float | None:
    """The process's peak resident set (``VmHWM``), in MB; None when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def embedded_server(log_path: Path) -> AsyncIterator[tuple[str, int]]:
    """``hindsight serve`` on a fresh data directory; yields its URL and pid."""
    with tempfile.TemporaryDirectory(prefix="hindsight-perf-") as tmp:
        port = _free_port()
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "hindsight_services.cli", "serve", "--port", str(port),
                 "--data-dir", str(Path(tmp) / "data"), "--grpc-port", str(_free_port())],
                stdout=log, stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}"
        try:
            async with httpx.AsyncClient(timeout=2) as probe:
                deadline = time.monotonic() + 180
                while True:
                    if proc.poll() is not None:
                        raise SystemExit(f"hindsight: the server exited; see {log_path}")
                    try:
                        if (await probe.get(f"{url}/healthz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline:
                        raise SystemExit(f"hindsight: the server did not start; see {log_path}")
                    await asyncio.sleep(0.2)
            yield url, proc.pid
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()


#: 503 answers (the log's append deadline passed: backpressure) retried per batch before giving up.
MAX_RETRIES = 5
RETRIES = [0]  # 503s retried during the run, reported with the figures


async def _post(client: httpx.AsyncClient, batch: list[dict[str, Any]]) -> dict[str, Any]:
    """One batch, durably acknowledged. A 503 is the server shedding load (its Kafka
    append deadline passed): wait its Retry-After and send the batch again under the same
    Idempotency-Key, so an append that did land is answered from the key, not repeated.
    The time spent waiting counts against the phase's rate."""
    headers = {"Idempotency-Key": uuid.uuid4().hex}
    for attempt in range(MAX_RETRIES + 1):
        r = await client.post("/v1/interactions", json={"interactions": batch}, headers=headers)
        if r.status_code in (200, 201):  # 200: a replay of the key
            answer: dict[str, Any] = r.json()
            return answer
        if r.status_code != 503 or attempt == MAX_RETRIES:
            break
        RETRIES[0] += 1
        wait = r.headers.get("retry-after", "1")
        await asyncio.sleep(min(5.0, float(wait)) if wait.isdigit() else 1.0)
    raise SystemExit(f"hindsight: ingest answered {r.status_code}: {r.text[:300]}")


async def ingest_rate(client: httpx.AsyncClient, turns: Turns, batch: int, clients: int, requests: int) -> float:
    """Interactions per second durably acknowledged, ``clients`` writers sharing
    ``requests`` batches of ``batch``."""
    batches = [turns.take(batch) for _ in range(requests)]
    queue: asyncio.Queue[list[dict[str, Any]]] = asyncio.Queue()
    for b in batches:
        queue.put_nowait(b)

    async def writer() -> None:
        while not queue.empty():
            await _post(client, queue.get_nowait())

    started = time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(clients)))
    return len(batches) * batch / (time.perf_counter() - started)


async def status(client: httpx.AsyncClient) -> dict[str, Any]:
    answer: dict[str, Any] = (await client.get("/v1/status")).json()
    return answer


def projected(answer: dict[str, Any]) -> list[dict[str, int]]:
    """The positions of what makes a turn recallable: the embed and project consumers
    (the same in embedded and cluster status)."""
    return [c["position"] for g, c in answer.get("consumers", {}).items() if g in PROJECTING]


async def wait_caught_up(client: httpx.AsyncClient, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not (await status(client)).get("caught_up"):
        if time.monotonic() > deadline:
            raise SystemExit(f"hindsight: the projections did not catch up within {timeout_s:.0f} s")
        await asyncio.sleep(0.1)


#: Writes of the freshness phase that may wait for their answer at once: the writer
#: keeps to its rate while answers are slower than 1/rate, and slows down (which
#: ``rate_per_s`` shows) only when ingest cannot keep up at all.
FRESHNESS_IN_FLIGHT = 32


async def freshness(client: httpx.AsyncClient, turns: Turns, rate: float, seconds: float) -> dict[str, float]:
    """Acknowledged → recallable, for one write every 1/rate s over ``seconds``."""
    await wait_caught_up(client, 3600)
    before = (await status(client))["log"]
    pending: list[tuple[int, float]] = []  # a heap of (offset, answered at)
    lags: list[float] = []
    key: list[str] = []  # the user's partition on the interactions stream, once known
    done = asyncio.Event()
    answered = [0]
    slots = asyncio.Semaphore(FRESHNESS_IN_FLIGHT)
    started = time.perf_counter()
    finished = [started]

    async def write_one(batch: list[dict[str, Any]]) -> None:
        try:
            answer = await _post(client, batch)
            heapq.heappush(pending, (answer["events"][0]["offset"], time.perf_counter()))
            answered[0] += 1
        finally:
            slots.release()

    async def writer() -> None:
        interval = 1 / rate
        next_at = time.perf_counter()
        end = next_at + seconds
        writes: list[asyncio.Task[None]] = []
        while next_at < end:
            await slots.acquire()
            writes.append(asyncio.create_task(write_one(turns.take(1))))
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        await asyncio.gather(*writes)
        finished[0] = time.perf_counter()
        done.set()

    async def watcher() -> None:
        while not (done.is_set() and not pending):
            answer = await status(client)
            now = time.perf_counter()
            if not key:
                moved = [k for k, off in answer["log"].items()
                         if k.startswith(INTERACTIONS) and off != before.get(k)]
                if len(moved) == 1:
                    key.append(moved[0])
            if key:
                applied = min((p.get(key[0], -1) for p in projected(answer)), default=-1)
                while pending and pending[0][0] <= applied:
                    lags.append((now - heapq.heappop(pending)[1]) * 1000)
            await asyncio.sleep(0.02)

    await asyncio.wait_for(asyncio.gather(writer(), watcher()), timeout=seconds + 600)
    return {"p50": round(percentile(lags, 50), 1), "p95": round(percentile(lags, 95), 1),
            "p99": round(percentile(lags, 99), 1), "writes": len(lags),
            # What the writer achieved: answered writes over the time until the last
            # answer (below ``rate`` when ingest could not keep up).
            "rate_per_s": round(answered[0] / max(1e-9, finished[0] - started), 1)}


async def recall_latency(client: httpx.AsyncClient, queries: int, tenant: str = TENANT) -> dict[str, float]:
    latencies = []
    for q in synthetic.questions(queries):
        t0 = time.perf_counter()
        r = await client.post("/v1/recall", json={"tenant": tenant, "user": USER, "query": q, "k": 10})
        if r.status_code != 200:
            raise SystemExit(f"hindsight: recall answered {r.status_code}: {r.text[:300]}")
        latencies.append((time.perf_counter() - t0) * 1000)
    return {"p50": round(percentile(latencies, 50), 1), "p95": round(percentile(latencies, 95), 1),
            "p99": round(percentile(latencies, 99), 1)}


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def measure(url: str, pids: dict[str, int], plan: Plan, mode: str, tenant: str = TENANT) -> dict[str, Any]:
    turns = Turns(tenant)
    result: dict[str, Any] = {"mode": mode}
    # A cluster gateway requires a key (``hindsight keys create --tenant perf-bench --scopes
    # read,write``), read from $HINDSIGHT_API_KEY like every command-line client.
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=httpx.Limits(max_connections=16),
                                 headers=api_key_headers()) as client:
        first_write = time.perf_counter()
        by_clients: dict[str, dict[str, float]] = {}
        for batch, requests in sorted(plan.ingest_requests.items()):
            for clients in (1, 8):
                rate = await ingest_rate(client, turns, batch, clients, requests)
                by_clients.setdefault(str(clients), {})[f"batch{batch}"] = round(rate, 1)
                _say(f"measured: ingest batch {batch}, {clients} client(s): {rate:,.0f} interactions/s")
        result["ingest_per_s"] = {f"batch{b}": max(by_clients[c][f"batch{b}"] for c in by_clients)
                                  for b in sorted(plan.ingest_requests)}
        result["ingest_per_s_by_clients"] = by_clients
        await wait_caught_up(client, 6 * 3600)
        result["projection_per_s"] = round(turns.sent / (time.perf_counter() - first_write), 1)
        _say(f"measured: projection {result['projection_per_s']:,.0f} interactions/s "
             f"({turns.sent} interactions, embedding included)")
        result["freshness_ms"] = await freshness(client, turns, plan.freshness_rate, plan.freshness_s)
        _say(f"measured: freshness at {plan.freshness_rate:g}/s asked: {result['freshness_ms']}")
        recall: dict[str, dict[str, float]] = {}
        for size in sorted(plan.sizes or (turns.sent,)):
            while turns.sent < size:
                await _post(client, turns.take(min(500, size - turns.sent)))
            await wait_caught_up(client, 6 * 3600)
            recall[str(turns.sent)] = await recall_latency(client, plan.queries, tenant)
            _say(f"measured: recall at {turns.sent} turns of one user: {recall[str(turns.sent)]}")
        result["recall_ms"] = recall
    result["rss_mb"] = {name: peak_rss_mb(pid) for name, pid in pids.items()}
    result["retried_503"] = RETRIES[0]
    return result


async def run_perf_bench(
    url: str | None, pids: dict[str, int], plan: Plan, log_dir: Path, tenant: str = TENANT
) -> dict[str, Any]:
    if url:
        check_local(url)
        return await measure(url, pids, plan, "gateway at " + url, tenant)
    log_path = log_dir / "bench-perf-serve.log"
    async with embedded_server(log_path) as (server_url, pid):
        return await measure(server_url, {"hindsight serve": pid, **pids}, plan, "embedded")


def print_perf(result: dict[str, Any], as_json: bool) -> None:
    print(f"performance ({result['mode']}; one tenant, one user)")
    for clients, rates in result["ingest_per_s_by_clients"].items():
        for batch, rate in rates.items():
            print(f"  ingest, {batch:<9} {clients} client(s) {rate:>12,.1f} interactions/s")
    print(f"  projection, embedding included {result['projection_per_s']:>10,.1f} interactions/s")
    f = result["freshness_ms"]
    print(f"  freshness at {f['rate_per_s']:>5g}/s      p50 {f['p50']:>8.1f}  p95 {f['p95']:>8.1f}"
          f"  p99 {f['p99']:>8.1f} ms")
    for size, r in result["recall_ms"].items():
        print(f"  recall at {int(size):>7,} turns    p50 {r['p50']:>8.1f}  p95 {r['p95']:>8.1f}  p99 {r['p99']:>8.1f} ms")
    if result.get("retried_503"):
        print(f"  ingest answered 503 (retried after Retry-After) {result['retried_503']} time(s)")
    for name, mb in result["rss_mb"].items():
        print(f"  peak RSS {name:<22} {mb if mb is not None else 'gone':>8} MB")
    if as_json:
        print(json.dumps(result))


def parse_pids(values: Sequence[str]) -> dict[str, int]:
    out = {}
    for value in values:
        name, sep, pid = value.partition("=")
        if not sep or not pid.isdigit() or not name:
            raise SystemExit(f"hindsight: --pid takes NAME=PID, got {value!r}")
        out[name] = int(pid)
    return out


def default_log_dir() -> Path:
    return Path(os.environ.get("TMPDIR", tempfile.gettempdir()))
