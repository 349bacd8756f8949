"""``hindsight bench ingest``: what acknowledging a batch costs in the embedded ingest path.

``bench perf`` times ingest through a whole ``hindsight serve``, where the embedding and
projection consumers compete for the same cores; this bench isolates the write path so that
its CPU time can be read back to back across changes, also on a loaded machine:

1. **app**: the ingest service's own ASGI app (``process.create_service_app("ingest")``: the
   same routes, middleware, audit and handler as the embedded gateway's) over the embedded
   SQLite log, sealed, in a fresh data directory, driven in-process with prebuilt JSON
   bodies (no HTTP client, no socket): CPU time of the whole process (every thread: the
   worker threads that redact, screen and append included) and wall time per batch, from
   one writer and from ``--clients`` concurrent writers, with screening on (the default)
   and off (``HINDSIGHT_SCREENING=false``), so the difference is screening's share;
2. **stages**: the same batch through each step of the path on its own, CPU per batch:
   JSON parsing and validation, redaction and building the events, signing, screening,
   sealing, and the SQLite append with its fsync (its wall time too). What the stages
   leave of the app's figure is FastAPI, the middleware, audit and the thread hops.

Every batch is distinct (synthetic turns of one user, ``bench/synthetic.py``).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI

from hindsight_common.api import IngestRequest
from hindsight_common.bench import synthetic
from hindsight_common.factory import make_log, make_screener
from hindsight_common.security.pii import PiiPolicy
from hindsight_common.security.screening_events import request_sources, screen_interactions
from hindsight_common.security.sealed_log import SealedLog
from hindsight_common.security.signed_items import sign_events
from hindsight_common.security.signing_keys import keyring_from_settings
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS

T = TypeVar("T")
#: The stages ``stage_figures`` measures, in the order of the write path.
STAGES = ("parse_validate", "redact_build", "sign", "screen", "seal", "append_fsync")
TENANT = "bench-ingest"
USER = "bench-user"


def bodies(n: int, size: int) -> list[bytes]:
    """``n`` distinct JSON bodies of ``size`` synthetic turns each."""
    source = synthetic.turns(10**9, users=1)
    out = []
    for _ in range(n):
        batch = []
        for _ in range(size):
            t = next(source)
            batch.append({"tenant": TENANT, "user": USER, "session": t.session, "speaker": t.speaker,
                          "content": t.content, "occurred_at": t.occurred_at.isoformat()})
        out.append(json.dumps({"interactions": batch}).encode())
    return out


async def post(app: FastAPI, body: bytes) -> int:
    """POST /v1/interactions straight into the ASGI app; returns the status."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/v1/interactions", "raw_path": b"/v1/interactions",
        "query_string": b"", "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80),
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())],
    }
    delivered = False
    status = 0

    async def receive() -> MutableMapping[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Future()  # no disconnect while the answer is being written
        raise AssertionError("unreachable")

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])

    await app(scope, receive, send)
    return status


async def _timed_posts(app: FastAPI, batches: list[bytes], clients: int) -> dict[str, float]:
    queue = list(reversed(batches))

    async def writer() -> None:
        while queue:
            status = await post(app, queue.pop())
            if status != 201:
                raise SystemExit(f"hindsight: ingest answered {status}")

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(writer() for _ in range(clients)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu_ms_per_batch": round(cpu * 1000 / len(batches), 2),
            "wall_ms_per_batch": round(wall * 1000 / len(batches), 2),
            "per_s": round(len(batches) * _size(batches[0]) / wall, 1)}


def _size(body: bytes) -> int:
    return len(json.loads(body)["interactions"])


async def app_figures(screening: bool, batches: int, size: int, clients: int) -> dict[str, Any]:
    """The ingest app's CPU and wall time per batch, one writer then ``clients``."""
    from hindsight_services.process import create_service_app

    with tempfile.TemporaryDirectory(prefix="hindsight-bench-ingest-") as tmp:
        settings = Settings(data_dir=Path(tmp) / "data", screening=screening)
        app = create_service_app("ingest", settings)
        warm, one, many = bodies(3, size), bodies(batches, size), bodies(batches, size)
        async with app.router.lifespan_context(app):
            for body in warm:  # keys, the screening model, first-use imports
                await post(app, body)
            return {"1": await _timed_posts(app, one, 1), str(clients): await _timed_posts(app, many, clients)}


def _cpu(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The mean CPU time of ``repeat`` calls (ms; the mean, like the app's figures), and
    the last result."""
    start = time.thread_time()
    for _ in range(repeat):
        result = fn()
    return round((time.thread_time() - start) * 1000 / repeat, 2), result


async def stage_figures(size: int, repeat: int) -> dict[str, float]:
    """CPU per batch (ms) of each stage of the write path, run on its own, with the pieces
    ingest builds from the default settings."""
    from hindsight_services.ingest.handler import to_events

    with tempfile.TemporaryDirectory(prefix="hindsight-bench-ingest-") as tmp:
        settings = Settings(data_dir=Path(tmp) / "data")
        log = make_log(settings)
        assert isinstance(log, SealedLog)
        try:
            pii, keyring, screener = PiiPolicy(settings.pii_policy), keyring_from_settings(settings), make_screener(settings)
            assert screener is not None
            raw = bodies(1, size)[0]
            out: dict[str, float] = {}
            out["parse_validate"], request = _cpu(lambda: IngestRequest.model_validate(json.loads(raw)), repeat)
            out["redact_build"], events = _cpu(lambda: to_events(request, settings.default_tenant, pii, None), repeat)
            out["sign"], _ = _cpu(lambda: sign_events(keyring, events), repeat)
            sources = request_sources(request)
            out["screen"], _ = _cpu(lambda: screen_interactions(screener, events, sources, request.interactions),
                                    max(1, repeat // 4))
            keys = {(TENANT, USER): await log.keys.for_write(TENANT, USER)}
            out["seal"], _ = _cpu(lambda: log.seal_batch(events, keys), repeat)
            # The append on its own: distinct events each time (event ids are unique on the log).
            batches = [log.seal_batch(to_events(request, settings.default_tenant, pii, keyring), keys)
                       for _ in range(repeat)]
            cpu, wall = time.process_time(), time.perf_counter()
            for sealed in batches:
                await log.inner.append(INTERACTIONS, sealed)
            out["append_fsync"] = round((time.process_time() - cpu) * 1000 / repeat, 2)
            out["append_fsync_wall"] = round((time.perf_counter() - wall) * 1000 / repeat, 2)
            return out
        finally:
            await log.close()


async def run_ingest_bench(batches: int, size: int, clients: int) -> dict[str, Any]:
    return {
        "batch": size,
        "app": {"screening_on": await app_figures(True, batches, size, clients),
                "screening_off": await app_figures(False, batches, size, clients)},
        "stages_cpu_ms": await stage_figures(size, max(5, batches // 2)),
    }


def print_ingest_bench(result: dict[str, Any], as_json: bool) -> None:
    size = result["batch"]
    print(f"ingest app, batches of {size} (CPU: the whole process, every thread)")
    print(f"{'screening':<10} {'writers':>7} {'CPU ms/batch':>13} {'wall ms/batch':>14} {'interactions/s':>15}")
    for mode, runs in result["app"].items():
        for clients, r in runs.items():
            print(f"{mode.removeprefix('screening_'):<10} {clients:>7} {r['cpu_ms_per_batch']:>13} "
                  f"{r['wall_ms_per_batch']:>14} {r['per_s']:>15}")
    stages = result["stages_cpu_ms"]
    print(f"\nstages on their own, CPU ms per batch of {size}:")
    for name, ms in stages.items():
        print(f"  {name:<18} {ms:>8}")
    if as_json:
        print(json.dumps(result))
