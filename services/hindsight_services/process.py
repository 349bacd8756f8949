"""Cluster mode: each service in its own process (``hindsight run <service>``).

Every process is configured only by ``HINDSIGHT_*`` variables, serves
``GET /healthz`` and ``GET /metrics`` (Prometheus) on ``HINDSIGHT_PORT``, and talks to
the others only through the log (Kafka). ``query`` is the gateway: it serves the same HTTP API as the
embedded mode, answering reads itself and forwarding writes to ``ingest``
(``HINDSIGHT_INGEST_URL``) so that validation and write policy live in one place.
When ingest cannot be reached within ``HINDSIGHT_INGEST_TIMEOUT_S`` or does not answer
within ``HINDSIGHT_INGEST_ANSWER_TIMEOUT_S``, a write gets ``503 unavailable`` with
``Retry-After``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from hindsight_common.consumer import Consumer, supervise
from hindsight_common.errors import ConfigurationError, ServiceUnavailable
from hindsight_common.factory import make_credentials, make_log
from hindsight_common.ports.log import EventLog
from hindsight_common.security.signing_keys import keyring_from_settings
from hindsight_common.security.credentials_access import Authenticator
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.security.data_keys import master_key_from_settings, previous_master_keys
from hindsight_common.settings import Settings
from hindsight_common.telemetry import TracedLog, current_carrier
from hindsight_services import api_docs, auth_routes, compose, erase_routes
from hindsight_services.auth import needs, warn_if_open
from hindsight_services.grpc_api.server import build_server
from hindsight_services.http import install_error_handlers
from hindsight_services.ingest import wiring as ingest_wiring
from hindsight_services.ingest.handler import Ingest
from hindsight_services.ingest.lifecycle import PATHS as lifecycle_paths
from hindsight_services.observability import FASTAPI_TELEMETRY, install_telemetry
from hindsight_services.query import wiring as query_wiring
from hindsight_services.query.ui_routes import ui_router
from hindsight_services.status import read_status

log = logging.getLogger(__name__)

SERVICES = ("ingest", "embed", "project", "reflect", "consolidate", "query")
Closer = Callable[[], Awaitable[None]]


def consumer_problem(tasks: list[asyncio.Task[None]], consumer: Consumer | None, max_silence_s: float) -> str | None:
    """Why this process's consumer cannot make progress, or None (also without one)."""
    for t in tasks:
        if t.done():
            return f"the task {t.get_name()} has ended"
    return consumer.health(max_silence_s) if consumer is not None else None


# What the gateway passes on each way: the request headers ingest reads, and the answer
# headers a caller needs (Retry-After when ingest itself is answering 503).
_FORWARDED_REQUEST_HEADERS = ("content-type", "idempotency-key", "authorization", "traceparent")
_FORWARDED_ANSWER_HEADERS = ("content-type", "retry-after")


class IngestForwarder:
    """The gateway's writes, forwarded as-is to the ingest service over one pooled
    client. The app's lifespan owns the client: :meth:`open` before serving,
    :meth:`close` on shutdown."""

    def __init__(self, ingest_url: str, reach_timeout_s: float, answer_timeout_s: float) -> None:
        self.ingest_url = ingest_url
        self.reach_timeout_s = reach_timeout_s
        self.answer_timeout_s = answer_timeout_s
        self.client: httpx.AsyncClient | None = None

    def open(self) -> None:
        # A down or blackholed ingest is known within reach_timeout_s (connect, send, a free
        # pooled connection); its answer, which waits for a durable append, may take longer.
        reach = self.reach_timeout_s
        timeout = httpx.Timeout(connect=reach, write=reach, pool=reach, read=self.answer_timeout_s)
        self.client = httpx.AsyncClient(base_url=self.ingest_url, timeout=timeout)

    async def close(self) -> None:
        """Close the client's connections. Idempotent."""
        client, self.client = self.client, None
        if client is not None:
            await client.aclose()

    async def forward(self, request: Request) -> Response:
        """Ingest's answer, status and body as they are.

        Raises ServiceUnavailable when ingest refuses the connection or cannot be reached
        within ``reach_timeout_s``, drops the connection, or does not answer within
        ``answer_timeout_s`` (and while the gateway is not serving).
        """
        client = self.client
        if client is None:
            raise ServiceUnavailable("the gateway is not serving writes (starting or stopping)")
        headers = {k: v for k, v in request.headers.items() if k.lower() in _FORWARDED_REQUEST_HEADERS}
        headers.update(current_carrier())  # ingest's span continues the gateway's trace
        body = await request.body()
        try:
            upstream = await client.request(request.method, request.url.path, content=body, headers=headers)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as e:
            raise ServiceUnavailable(
                f"the ingest service at {self.ingest_url} cannot be reached ({type(e).__name__}); "
                "nothing was written"
            ) from e
        except httpx.TransportError as e:
            # Sent, or partly: ingest may have appended before it went quiet.
            what = (f"did not answer within {self.answer_timeout_s:g} s" if isinstance(e, httpx.ReadTimeout)
                    else f"dropped the connection ({type(e).__name__})")
            raise ServiceUnavailable(
                f"the ingest service at {self.ingest_url} {what}; the write may have been "
                "recorded: retry with the same Idempotency-Key"
            ) from e
        passed = {k: v for k, v in upstream.headers.items() if k.lower() in _FORWARDED_ANSWER_HEADERS}
        return Response(upstream.content, status_code=upstream.status_code, headers=passed)


def _not_serving() -> EventLog:
    raise ServiceUnavailable("the gateway forwards writes; it holds no log")


def forwarding_router(forwarder: IngestForwarder, auth: Authenticator) -> APIRouter:
    """The write routes of the gateway, each forwarded to ingest by ``forwarder``. The
    gateway checks the key's ``write`` scope first (a request without one never reaches
    ingest); ingest checks the forwarded key again and binds its tenant."""
    api = APIRouter(tags=["ingest"], dependencies=[needs(auth, "write")])
    for path in ("/v1/interactions", "/v1/sessions/{session}:close", "/v1/reflect",
                 "/v1/memories/{memory_id}:forget", "/v1/memories/{memory_id}:release", *lifecycle_paths):
        api.add_api_route(path, forwarder.forward, methods=["POST"], include_in_schema=False)
    return api


def create_service_app(service: str, settings: Settings) -> FastAPI:
    """The FastAPI app (health, and the service's own routes) of one service process."""
    if service not in SERVICES:
        raise ConfigurationError(f"unknown service {service!r}; one of {', '.join(SERVICES)}")
    stop = asyncio.Event()
    parts: dict[str, Any] = {}
    closers: list[Closer] = []
    tasks: list[asyncio.Task[None]] = []
    forwarder = None
    audit = AuditTrail(lambda: parts["log"])
    auth = Authenticator.from_settings(settings, lambda: make_credentials(settings), audit)
    closers.append(auth.store.close)
    if service == "query" and settings.ingest_url:
        forwarder = IngestForwarder(
            settings.ingest_url, settings.ingest_timeout_s, settings.ingest_answer_timeout_s)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if service in ("ingest", "reflect", "query"):
            keyring_from_settings(settings)  # they sign or verify: no keys, no start
        if settings.seal_log:
            master_key_from_settings(settings)  # every service seals or opens the log: no master key, no start
            previous_master_keys(settings)  # a rotation's previous key, when set, must be usable too
        warn_if_open(settings)
        event_log = TracedLog(make_log(settings))
        parts["log"] = event_log
        audit.start()
        closers.append(audit.stop)  # closers run in reverse: its last batch goes out first
        composed = compose.Parts(settings, event_log, follow=True)
        closers.append(composed.close)
        consumer = await _start(service, composed, parts)
        if consumer is not None:
            parts["consumer"] = consumer
            tasks.append(asyncio.create_task(supervise(consumer, stop), name=f"consumer:{service}"))
            await consumer.ready.wait()
        if service == "query" and settings.grpc_port:
            # gRPC beside HTTP: reads through Query; writes through the Ingest handler
            # onto the shared log (the same validation as the ingest service).
            gateway = build_server(lambda: parts["query"], lambda: Ingest(event_log, settings),
                                   settings, settings.grpc_port, auth=auth)
            await gateway.start()
            closers.append(gateway.stop)
        if forwarder is not None:
            forwarder.open()  # last, so nothing that can fail comes between it and its closer
            closers.append(forwarder.close)
        app.state.ready = True
        log.info("hindsight %s started", service)
        try:
            yield
        finally:
            app.state.ready = False
            stop.set()
            for t in tasks:
                try:
                    await asyncio.wait_for(t, timeout=30)
                except TimeoutError:
                    t.cancel()
            for close in reversed(closers):
                await close()
            await event_log.close()

    app = FastAPI(title=f"Hindsight {service}", version="0.1.0", lifespan=lifespan,
                  telemetry=FASTAPI_TELEMETRY, generate_unique_id_function=api_docs.operation_id)
    app.state.ready = False
    app.state.forwarder = forwarder
    app.state.audit = audit
    install_error_handlers(app)
    # The gateway forwards writes to ingest; its document describes them as ingest does.
    api_docs.install(app, settings, documented=ingest_wiring.router(_not_serving, settings, auth).routes
                     if forwarder is not None else ())
    install_telemetry(app, service, lambda: parts.get("log"),
                      lambda: [parts["consumer"]] if "consumer" in parts else [])

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """Liveness: 503 with the reason while starting, and once the consumer's task has
        ended or its loop cannot make progress (Kubernetes then restarts the process)."""
        if not app.state.ready:
            return JSONResponse({"service": service, "status": "starting"}, status_code=503)
        problem = consumer_problem(tasks, parts.get("consumer"), settings.liveness_stall_s)
        if problem is not None:
            return JSONResponse({"service": service, "status": "unhealthy", "reason": problem}, status_code=503)
        return JSONResponse({"service": service, "status": "ok"}, status_code=200)

    if service == "ingest":
        app.include_router(ingest_wiring.router(lambda: parts["log"], settings, auth))
    if service == "query":
        app.include_router(query_wiring.router(lambda: parts["query"], settings, auth))
        app.include_router(auth_routes.router(settings, auth, audit))
        app.include_router(erase_routes.router(lambda: parts["log"], settings, auth, audit))
        app.include_router(ui_router())
        if forwarder is not None:
            app.include_router(forwarding_router(forwarder, auth))
        else:
            app.include_router(ingest_wiring.router(lambda: parts["log"], settings, auth))

        @app.get("/v1/status", description=api_docs.STATUS_DESCRIPTION, responses=api_docs.EVERY_ROUTE,
                 dependencies=[needs(auth, "read")])
        async def status() -> dict[str, Any]:
            # Every group, as the embedded status counts them: the gateway reads their
            # committed positions from the log (it runs none of them).
            return await read_status(parts["log"], parts["feeds"])

    if service in ("embed", "project", "reflect", "consolidate"):

        @app.get("/v1/status", dependencies=[needs(auth, "read")])
        async def consumer_status() -> dict[str, Any]:
            c: Consumer = parts["consumer"]
            return {"group": c.group, "position": c.position, "processed": c.processed,
                    "dead_lettered": c.dead_lettered,
                    "problem": consumer_problem(tasks, c, settings.liveness_stall_s)}

    return app


async def _start(service: str, parts: compose.Parts, state: dict[str, Any]) -> Consumer | None:
    """Build what ``service`` needs (closed with ``parts``); returns its consumer, if it has one."""
    if service in compose.CONSUMERS:
        return await compose.CONSUMERS[service](parts)
    if service == "query":
        state["query"] = await compose.query(parts)
        state["feeds"] = await parts.feeds()
    return None
