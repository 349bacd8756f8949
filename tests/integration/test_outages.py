"""Writes during an outage: ``503 unavailable`` with ``Retry-After``, never a bare 500.

- ingest (and the embedded mode, which mounts the same router and error handlers) over a
  real SQLite log that has been closed: every append raises PersistenceError;
- the cluster gateway (``create_service_app("query")``, embedded storage for its own
  reads) forwarding to an ingest that is down, then back: the real ingest service on a
  local port, started by uvicorn in this process;
- the gateway's forwarding in isolation, against an ingest that accepts and never answers
  and against an ingest whose log is down.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from hindsight_common.factory import make_log
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.http import RETRY_AFTER_S, install_error_handlers
from hindsight_services.ingest import wiring as ingest_wiring
from hindsight_services.process import IngestForwarder, create_service_app, forwarding_router
from tests.support.auth import open_auth

TURN = {"user": "ann", "session": "s1", "speaker": "Ann", "role": "user", "content": "hello"}
WRITES: list[tuple[str, dict[str, Any]]] = [
    ("/v1/interactions", {"interactions": [TURN]}),
    ("/v1/sessions/s1:close", {"user": "ann"}),
    ("/v1/reflect", {"user": "ann", "session": "s1"}),
    ("/v1/memories/00000000-0000-4000-8000-000000000001:forget", {"user": "ann"}),
]


def free_port() -> int:
    """A local port nothing listens on (bound and released at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def assert_unavailable(answer: httpx.Response, *, naming: str) -> str:
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] == str(RETRY_AFTER_S)
    error = answer.json()["error"]
    assert error["code"] == "unavailable"
    assert naming in error["message"]
    message: str = error["message"]
    return message


async def ingest_over_a_closed_log(tmp_path: Path) -> FastAPI:
    """The write API as ingest and the embedded mode assemble it, over a real log that
    is closed, so every append fails with PersistenceError."""
    settings = Settings(data_dir=tmp_path / "closed")
    closed = make_log(settings)
    await closed.close()
    app = FastAPI()
    install_error_handlers(app)
    app.include_router(ingest_wiring.router(lambda: closed, settings, open_auth()))
    return app


@asynccontextmanager
async def client_of(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        yield c


@asynccontextmanager
async def serving(app: FastAPI, port: int) -> AsyncIterator[str]:
    """``app`` on a real local port (lifespan included) until the block ends."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(200):
            if server.started or task.done():
                break
            await asyncio.sleep(0.05)
        assert server.started, "the stand-in ingest did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


@pytest.mark.parametrize(("path", "body"), WRITES)
async def test_a_failed_log_answers_503_with_retry_after(tmp_path: Path, path: str, body: dict[str, Any]) -> None:
    async with client_of(await ingest_over_a_closed_log(tmp_path)) as client:
        answer = await client.post(path, json=body)
    assert_unavailable(answer, naming="log")


async def test_gateway_answers_503_while_ingest_is_down_and_the_retry_goes_through(tmp_path: Path) -> None:
    port = free_port()
    gateway_settings = Settings(data_dir=tmp_path / "gateway", ingest_url=f"http://127.0.0.1:{port}",
                                grpc_port=0, access_flush_s=0)
    ingest_settings = Settings(data_dir=tmp_path / "ingest", grpc_port=0)
    gateway = create_service_app("query", gateway_settings)
    forwarder: IngestForwarder = gateway.state.forwarder
    write = {"json": {"interactions": [TURN]}, "headers": {"Idempotency-Key": "batch-1"}}

    async with gateway.router.lifespan_context(gateway), client_of(gateway) as client:
        down = await client.post("/v1/interactions", **write)
        message = assert_unavailable(down, naming="ingest")
        assert f"127.0.0.1:{port}" in message and "nothing was written" in message

        async with serving(create_service_app("ingest", ingest_settings), port):
            retried = await client.post("/v1/interactions", **write)
            assert retried.status_code == 201, retried.text
            again = await client.post("/v1/interactions", **write)  # the same ingest, deduplicated
            assert again.status_code == 200 and again.json()["replayed"] is True
            assert again.json()["events"] == retried.json()["events"]
        assert forwarder.client is not None and not forwarder.client.is_closed
        client_in_use = forwarder.client

    assert client_in_use.is_closed  # the lifespan closed the forwarding client on shutdown
    assert forwarder.client is None
    log = make_log(ingest_settings)
    try:
        recorded = await log.read(INTERACTIONS)
    finally:
        await log.close()
    assert [r.event.event_id for r in recorded if r.event] == [
        UUID(e["event_id"]) for e in retried.json()["events"]]


@asynccontextmanager
async def forwarding_to(url: str, answer_timeout_s: float = 5) -> AsyncIterator[httpx.AsyncClient]:
    """The gateway's write routes alone, forwarding to ``url``."""
    forwarder = IngestForwarder(url, 5, answer_timeout_s)
    app = FastAPI()
    install_error_handlers(app)
    app.include_router(forwarding_router(forwarder, open_auth()))
    forwarder.open()
    try:
        async with client_of(app) as client:
            yield client
    finally:
        await forwarder.close()


async def test_gateway_gives_up_on_a_silent_ingest_after_its_timeout() -> None:
    release = asyncio.Event()

    async def never_answers(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(65536)
        await release.wait()
        writer.close()

    server = await asyncio.start_server(never_answers, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with forwarding_to(f"http://127.0.0.1:{port}", answer_timeout_s=0.3) as client:
            answer = await asyncio.wait_for(client.post("/v1/interactions", json={"interactions": [TURN]}), 10)
    finally:
        release.set()
        server.close()
        await server.wait_closed()
    message = assert_unavailable(answer, naming="ingest")
    assert "did not answer within 0.3 s" in message and "Idempotency-Key" in message


async def test_gateway_passes_on_ingest_own_503_and_its_retry_after(tmp_path: Path) -> None:
    async with serving(await ingest_over_a_closed_log(tmp_path), free_port()) as url:
        async with forwarding_to(url) as client:
            for path, body in WRITES:
                assert_unavailable(await client.post(path, json=body), naming="log")


async def test_gateway_refuses_writes_when_not_serving() -> None:
    forwarder = IngestForwarder(f"http://127.0.0.1:{free_port()}", 1, 1)
    app = FastAPI()
    install_error_handlers(app)
    app.include_router(forwarding_router(forwarder, open_auth()))  # never opened: as before start-up
    async with client_of(app) as client:
        assert_unavailable(await client.post("/v1/interactions", json={"interactions": [TURN]}),
                           naming="not serving")
