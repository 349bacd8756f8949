"""``hindsight replay --projection vector|text|graph|all [--embedder NAME] [--drop-old]``.

Embedded: when a server holds the data directory the rebuild runs inside it (``POST
/v1/admin/rebuild`` at the URL the server wrote in ``<data-dir>/server.url``, or
``--url``), and this follows it; otherwise this process takes the data directory's
lock and runs it. Cluster (``HINDSIGHT_LOG_BACKEND=kafka``): this process rebuilds
into new versions beside the live ones and moves the aliases (``cluster.py``). Either
way a progress bar (records applied, rate, ETA, lag) goes to stderr and one JSON
object to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

import httpx

from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import make_embedding_cache, make_log, make_text_index
from hindsight_common.settings import Settings, load_settings
from hindsight_services.auth import api_key_headers
from hindsight_services.bench import Progress as Bar
from hindsight_services.rebuild.embedded import RebuildRequest, parse_projections, rebuild_data_dir
from hindsight_services.rebuild.engine import Progress
from hindsight_services.rebuild.records import resolve

SERVER_URL_FILE = "server.url"
POLL_S = 1.0


def write_server_url(settings: Settings) -> None:
    """Where ``hindsight serve`` on this data directory answers (read by ``replay``)."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    (settings.data_dir / SERVER_URL_FILE).write_text(f"http://{settings.host}:{settings.port}\n")


class _Shown:
    """Draws a rebuild's progress on the CLI's progress bar."""

    def __init__(self) -> None:
        self._bar = Bar("rebuild", 1)
        self._shown = 0

    def __call__(self, p: Progress) -> None:
        resumed = f", resumed after {p.resumed_from}" if p.resumed_from else ""
        self._bar.advance(max(0, p.applied - self._shown), total=p.applied + p.lag,
                          note=f", lag {p.lag}, {p.phase}{resumed}")
        self._shown = max(self._shown, p.applied)


async def run(args: argparse.Namespace) -> int:
    settings = load_settings(data_dir=args.data_dir)
    request = RebuildRequest(parse_projections(args.projection), args.embedder, args.drop_old)
    if settings.log_backend == "kafka":
        from hindsight_services.rebuild.cluster import rebuild_cluster

        result = await rebuild_cluster(settings, request, _Shown())
    else:
        from hindsight_services.embedded import DataDirLocked, lock_data_dir

        try:
            lock = lock_data_dir(settings)
        except DataDirLocked:
            result = await _through_server(settings, request, args.url)
        else:
            try:
                result = await _offline(settings, request)
            finally:
                lock.close()
    print(json.dumps(result))
    return 0


async def _offline(settings: Settings, request: RebuildRequest) -> dict[str, object]:
    resolved = resolve(settings)
    log_ = make_log(resolved)
    cache = make_embedding_cache(resolved)
    lookup = make_text_index(resolved)
    try:
        return await rebuild_data_dir(resolved, log_, cache, lookup, request, on_progress=_Shown())
    finally:
        await lookup.close()
        if cache is not None:
            await cache.close()
        await log_.close()


def _server_url(settings: Settings, url: str | None) -> str:
    if url:
        return url
    try:
        return (settings.data_dir / SERVER_URL_FILE).read_text().strip()
    except FileNotFoundError:
        return f"http://{settings.host}:{settings.port}"


async def _through_server(settings: Settings, request: RebuildRequest, url: str | None) -> dict[str, Any]:
    base = _server_url(settings, url)
    body = {"projection": ",".join(request.projections), "embedder": request.embedder, "drop_old": request.drop_old}
    shown = _Shown()
    async with httpx.AsyncClient(base_url=base, timeout=60, headers=api_key_headers()) as client:
        r = await client.post("/v1/admin/rebuild", json=body)
        if r.status_code != 202:
            raise ConfigurationError(f"the server at {base} refused the rebuild: {r.status_code} {r.text}")
        while True:
            state = (await client.get("/v1/admin/rebuild")).json()
            if "progress" in state:
                shown(Progress(**{k: v for k, v in state["progress"].items() if k != "events_per_s"},
                               rate=state["progress"]["events_per_s"]))
            if not state["running"]:
                break
            await asyncio.sleep(POLL_S)
    if "error" in state:
        raise ConfigurationError(f"the rebuild in the server at {base} failed: {state['error']}")
    result: dict[str, Any] = state["result"]
    result["server"] = base
    return result
