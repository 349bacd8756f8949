"""Embedded mode: all six services as asyncio tasks in one process.

Log = one SQLite file; vectors = Qdrant Edge; text = SQLite FTS5. The same
service handlers run in the cluster, each in its own process, over Kafka; both modes put
them together with the same functions (``compose.py``).
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import shutil
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import IO, Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from hindsight_common.consumer import Consumer, supervise
from hindsight_common.embedder_check import check_vectors_model, embedded_remedy
from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import make_credentials, make_embedder, make_log, make_vector_index
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import TextIndex, VectorIndex
from hindsight_common.ports.reflect_state import ReflectState
from hindsight_common.ports.reranker import Reranker
from hindsight_common.recall.access import AccessRecorder
from hindsight_common.recall.presets import PRESETS, Preset
from hindsight_common.security.credentials_access import Authenticator
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.settings import Settings
from hindsight_common.telemetry import TracedLog
from hindsight_services import api_docs, auth_routes, compose, erase_routes
from hindsight_services.auth import needs, warn_if_open
from hindsight_services.grpc_api.server import GrpcGateway, build_server
from hindsight_services.http import install_error_handlers
from hindsight_services.ingest import wiring as ingest_wiring
from hindsight_services.ingest.handler import Ingest
from hindsight_services.observability import FASTAPI_TELEMETRY, install_telemetry
from hindsight_services.query import wiring as query_wiring
from hindsight_services.query.handler import Query
from hindsight_services.query.ui_routes import ui_router
from hindsight_services.rebuild import routes as rebuild_routes
from hindsight_services.rebuild.embedded import EmbeddedRebuilds
from hindsight_services.rebuild.records import resolve as resolve_versions
from hindsight_services.status import read_status

log = logging.getLogger(__name__)


class DataDirLocked(ConfigurationError):
    """Another Hindsight process holds this data directory."""


def lock_data_dir(settings: Settings) -> IO[str]:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    handle = open(settings.data_dir / "hindsight.lock", "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as e:
        handle.close()
        raise DataDirLocked(
            f"{settings.data_dir} is in use by another Hindsight process "
            "(stop `hindsight serve` first, or use another --data-dir)"
        ) from e
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def drop_projections(settings: Settings) -> None:
    """Delete every projection; they are rebuilt from the log on the next start."""
    shutil.rmtree(settings.projections_dir, ignore_errors=True)


async def check_data_dir(settings: Settings) -> None:
    """Refuse a data directory whose vectors another embedder made (EmbedderMismatch, a
    ConfigurationError naming the command to run), or that another process holds
    (DataDirLocked), before a server starts on it; the model itself is not loaded.
    ``EmbeddedRuntime.start`` checks the same."""
    lock = lock_data_dir(settings)  # never open a shard another process is using
    try:
        settings = resolve_versions(settings)  # the live versions and their embedder
        embedder = make_embedder(settings)
        vectors = make_vector_index(settings, embedder.dim)
        try:
            await check_vectors_model(vectors, embedder.model_id,
                                      where=f"the vector projection in {settings.vector_dir}",
                                      remedy=embedded_remedy(str(settings.data_dir)))
        finally:
            await vectors.close()
    finally:
        lock.close()


class EmbeddedRuntime:
    """Owns the adapters and the consumer tasks of one embedded Hindsight."""

    def __init__(self, settings: Settings, embedder: Embedder | None = None,
                 reranker: Reranker | None = None, presets: Mapping[str, Preset] = PRESETS) -> None:
        self.settings = settings
        self._presets = presets
        self._given_embedder = embedder
        self._given_reranker = reranker
        self._lock: IO[str] | None = None
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.log: EventLog
        self.embedder: Embedder
        self.vectors: VectorIndex
        self.text: TextIndex
        self.graph: GraphStore
        self.reflect_state: ReflectState
        self.access_counts: AccessCounts
        self.embedding_cache: EmbeddingCache | None = None
        self.access_recorder: AccessRecorder
        self._parts: compose.Parts
        self.consumers: list[Consumer] = []
        self.query: Query
        self.rebuilds: EmbeddedRebuilds

    async def start(self) -> None:
        self._lock = lock_data_dir(self.settings)
        self.settings = resolve_versions(self.settings)  # the live versions (rebuild/records.py)
        self.log = TracedLog(make_log(self.settings))  # appends traced and counted
        # live: the embedder and projections behind swappable references, so that an online
        # rebuild can switch them (rebuild/live.py).
        parts = self._parts = compose.Parts(
            self.settings, self.log, embedder=self._given_embedder, reranker=self._given_reranker,
            presets=self._presets, vectors_where=f"the vector projection in {self.settings.vector_dir}",
            vectors_remedy=embedded_remedy(str(self.settings.data_dir)), live=True)
        try:
            self.embedder = await parts.embedder()  # the model is loaded before saying ready
            await parts.reranker()
            self.vectors = await parts.vectors()
            self.embedding_cache = parts.embedding_cache
            self.text, self.graph = parts.text, parts.graph
            self.reflect_state, self.access_counts = parts.reflect_state, parts.access_counts
            self.consumers = [await wire(parts) for wire in compose.CONSUMERS.values()]
            self.query = await compose.query(parts)  # makes the keyring on first start
        except BaseException:
            await parts.close()
            await self.log.close()
            self._lock.close()
            self._lock = None
            raise
        assert parts.access_recorder is not None  # compose.query made it
        self.access_recorder = parts.access_recorder
        self.rebuilds = EmbeddedRebuilds(self)
        self._tasks = [
            asyncio.create_task(supervise(c, self._stop), name=f"consumer:{c.group}")
            for c in self.consumers
        ]
        await asyncio.gather(*(c.ready.wait() for c in self.consumers))
        log.info("hindsight embedded runtime started in %s", self.settings.data_dir)

    async def status(self) -> dict[str, Any]:
        """The status document (``status.py``), with each consumer's counters."""
        extras = {c.group: {"processed": c.processed, "dead_lettered": c.dead_lettered} for c in self.consumers}
        document = await read_status(self.log, await self._parts.feeds(), extras)
        for name, index in (("text_memory", self.text), ("vector_memory", self.vectors)):
            stats = getattr(index, "memory_stats", None)
            if callable(stats) and (memory := stats()) is not None:
                document[name] = memory
        return document

    async def wait_caught_up(self, timeout_s: float = 60.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while not (await self.status())["caught_up"]:
            if loop.time() > deadline:
                raise TimeoutError(f"projections not caught up after {timeout_s}s")
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        await self.rebuilds.stop()  # a rebuild cut short resumes on the next request
        await self.access_recorder.stop()  # flushes: a clean stop loses no counts
        self._stop.set()
        for t in self._tasks:
            try:
                await asyncio.wait_for(t, timeout=30)
            except TimeoutError:
                t.cancel()
        await self._parts.close()
        await self.log.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None


def create_app(
    settings: Settings, embedder: Embedder | None = None, *, serve_grpc: bool = False,
    reranker: Reranker | None = None, presets: Mapping[str, Preset] = PRESETS,
) -> FastAPI:
    """The embedded gateway: write and read APIs over one runtime.

    ``embedder`` and ``reranker`` let a caller share already-loaded models (tests,
    benchmarks); ``presets`` replaces the named recall presets (the LoCoMo bench's
    ablations).
    ``serve_grpc``: also serve gRPC on ``settings.grpc_port`` (``hindsight serve``
    does; tests and benchmarks leave it off, so they never compete for the port).
    """
    runtime = EmbeddedRuntime(settings, embedder, reranker, presets)
    audit = AuditTrail(lambda: runtime.log)
    auth = Authenticator.from_settings(settings, lambda: make_credentials(settings), audit)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        warn_if_open(settings)
        await runtime.start()
        audit.start()
        grpc_gateway: GrpcGateway | None = None
        try:
            if serve_grpc and settings.grpc_port:  # gRPC beside HTTP, over the same handlers
                grpc_gateway = build_server(
                    lambda: runtime.query, lambda: Ingest(runtime.log, settings), settings, settings.grpc_port,
                    auth=auth,
                )
                await grpc_gateway.start()
            app.state.grpc = grpc_gateway
            app.state.ready = True
            yield
        finally:
            app.state.ready = False
            if grpc_gateway is not None:
                await grpc_gateway.stop()
            await audit.stop()  # its last batch goes out before the log closes
            await runtime.stop()
            await auth.store.close()

    app = FastAPI(title="Hindsight", version="0.1.0", lifespan=lifespan, telemetry=FASTAPI_TELEMETRY,
                  generate_unique_id_function=api_docs.operation_id)
    app.state.runtime = runtime
    app.state.auth = auth
    app.state.audit = audit
    app.state.ready = False
    install_error_handlers(app)
    api_docs.install(app, settings, presets=tuple(presets))
    install_telemetry(app, "embedded", lambda: getattr(runtime, "log", None), lambda: runtime.consumers)

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """200 once every service is started and the model is loaded."""
        ok = bool(app.state.ready)
        return JSONResponse({"status": "ok" if ok else "starting"}, status_code=200 if ok else 503)

    @app.get("/v1/status", description=api_docs.STATUS_DESCRIPTION, responses=api_docs.EVERY_ROUTE,
             dependencies=[needs(auth, "read")])
    async def status() -> dict[str, Any]:
        return await runtime.status()

    app.include_router(ingest_wiring.router(lambda: runtime.log, settings, auth))
    app.include_router(query_wiring.router(lambda: runtime.query, settings, auth))
    app.include_router(auth_routes.router(settings, auth, audit))
    app.include_router(erase_routes.router(lambda: runtime.log, settings, auth, audit))
    app.include_router(rebuild_routes.router(lambda: runtime.rebuilds, auth))
    app.include_router(ui_router())
    return app
