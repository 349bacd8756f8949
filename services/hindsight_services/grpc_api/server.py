"""The gRPC gateway: ``hindsight.v1.Hindsight`` over the same handlers as HTTP.

Each rpc turns its request into the API model the HTTP route validates
(``convert``), calls the same ``Query`` / ``Ingest`` handler method, and turns
the answer back into a message. Errors become gRPC statuses with details:

    InvalidInput          INVALID_ARGUMENT  details: the message, then one
                                            ``field: message`` line per problem;
                                            trailing metadata ``hindsight-problems``:
                                            the problems as JSON
    IdempotencyConflict   ALREADY_EXISTS
    NotFound              NOT_FOUND
    Forbidden             PERMISSION_DENIED details and metadata as INVALID_ARGUMENT's
                                            (a scope or tenant the API key does not hold,
                                            an admin option without the admin scope)
    AuthError             UNAUTHENTICATED   no valid API key in metadata
                                            ``authorization: Bearer <key>``
    RateLimited           RESOURCE_EXHAUSTED  trailing metadata ``retry-after``: seconds
    PersistenceError,
    ProjectionError,
    ProviderError,
    ServiceUnavailable    UNAVAILABLE       details: what is down, "; retry later"
    anything else         INTERNAL          (logged; no internals in the details)

The server also answers ``grpc.health.v1.Health`` (SERVING from :meth:`GrpcGateway.start`,
NOT_SERVING from :meth:`GrpcGateway.stop`) and server reflection, so ``grpcurl`` and
load balancers work without the .proto.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc
from opentelemetry.trace import SpanKind
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from pydantic import ValidationError

from hindsight_common.admin import require_admin
from hindsight_common.api import ForgetIn, IngestRequest, MemoryActionIn, RecallIn, ReflectIn, SessionCloseIn
from hindsight_common.errors import (
    AuthError,
    ConfigurationError,
    Forbidden,
    IdempotencyConflict,
    InvalidInput,
    NotFound,
    PersistenceError,
    Problem,
    ProjectionError,
    ProviderError,
    RateLimited,
    ServiceUnavailable,
)
from hindsight_common.events.audit import ANONYMOUS, AuditRecorded
from hindsight_common.events.base import utcnow
from hindsight_common.security.credentials import Principal
from hindsight_common.security.credentials_access import Authenticator, forbidden_event, require_scope, tenant_for
from hindsight_common.security.credentials_limits import retry_after_header
from hindsight_common.settings import Settings
from hindsight_common.telemetry import span
from hindsight_services.auth import bind_tenant
from hindsight_services.grpc_api import convert
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.http import problems_from_pydantic
from hindsight_services.ingest.handler import Ingest
from hindsight_services.query.handler import Query, scope_types

log = logging.getLogger(__name__)

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["Hindsight"].full_name  # hindsight.v1.Hindsight
PROBLEMS_METADATA = "hindsight-problems"
MAX_IDEMPOTENCY_KEY = 200  # as the HTTP Idempotency-Key header

Q = TypeVar("Q")
R = TypeVar("R")
Metadata = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Failure:
    """What a caller is told when an rpc fails."""

    code: grpc.StatusCode
    details: str
    metadata: Metadata = ()


def _invalid(code: grpc.StatusCode, message: str, problems: list[Problem]) -> Failure:
    lines = [message, *(f"{p.field}: {p.message}" for p in problems)]
    as_json = json.dumps([{"field": p.field, "message": p.message} for p in problems])
    return Failure(code, "\n".join(lines), ((PROBLEMS_METADATA, as_json),))


def failure(e: Exception) -> Failure:
    """The status for an exception raised while answering an rpc."""
    if isinstance(e, IdempotencyConflict):
        return _invalid(grpc.StatusCode.ALREADY_EXISTS, e.message, e.problems)
    if isinstance(e, InvalidInput):
        return _invalid(grpc.StatusCode.INVALID_ARGUMENT, e.message, e.problems)
    if isinstance(e, ValidationError):  # a model built inside a handler
        return _invalid(grpc.StatusCode.INVALID_ARGUMENT, "invalid request",
                        problems_from_pydantic(e.errors(), drop_prefix=()))
    if isinstance(e, NotFound):
        return Failure(grpc.StatusCode.NOT_FOUND, str(e))
    if isinstance(e, Forbidden):
        return _invalid(grpc.StatusCode.PERMISSION_DENIED, e.message, e.problems)
    if isinstance(e, AuthError):
        return Failure(grpc.StatusCode.UNAUTHENTICATED, str(e))
    if isinstance(e, RateLimited):
        return Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e),
                       (("retry-after", retry_after_header(e.retry_after_s)),))
    if isinstance(e, (PersistenceError, ProjectionError, ProviderError, ServiceUnavailable)):
        return Failure(grpc.StatusCode.UNAVAILABLE, f"{e}; retry later")
    return Failure(grpc.StatusCode.INTERNAL, "internal error")


def rpc_name(work: Callable[[], Awaitable[R]]) -> str:
    """The rpc a method's inner ``work`` belongs to: ``Gateway.Recall.<locals>.work`` → Recall."""
    return work.__qualname__.split(".<locals>")[0].rsplit(".", 1)[-1]


async def answer(
    context: grpc.aio.ServicerContext[Q, R], work: Callable[[], Awaitable[R]], rpc: str | None = None
) -> R:
    """Run one rpc's work in a SERVER span (continuing a ``traceparent`` in the call's
    metadata); on failure abort the call with the mapped status. ``rpc`` defaults to the
    name ``work`` was defined in."""
    metadata = {str(k): str(v) for k, v in (context.invocation_metadata() or ())}
    rpc = rpc or rpc_name(work)
    try:
        with span(f"hindsight.v1.Hindsight/{rpc}", {"rpc.system": "grpc", "rpc.method": rpc},
                  kind=SpanKind.SERVER, parent=metadata):
            return await work()
    except Exception as e:  # noqa: BLE001 - the rpc boundary: every failure becomes a status
        bad = failure(e)
        if bad.code == grpc.StatusCode.INTERNAL:
            log.exception("grpc call failed")
        elif bad.code == grpc.StatusCode.UNAVAILABLE:
            log.error("grpc call failed: %s: %s", type(e).__name__, e)
    await context.abort(bad.code, bad.details, bad.metadata)


def idempotency_key(msg: pb.RetainRequest) -> str | None:
    if not msg.HasField("idempotency_key"):
        return None
    if len(msg.idempotency_key) > MAX_IDEMPOTENCY_KEY:
        raise InvalidInput("idempotency key too long", [
            Problem("idempotency_key", f"at most {MAX_IDEMPOTENCY_KEY} characters, "
                                       f"got {len(msg.idempotency_key)}")])
    return msg.idempotency_key


Context = grpc.aio.ServicerContext
B = TypeVar("B", IngestRequest, SessionCloseIn, ReflectIn, ForgetIn, RecallIn, MemoryActionIn)
# Who the current rpc acts as, for the audit of a refusal (each rpc runs in its own task).
_CALLER: ContextVar[tuple[Principal | None, str]] = ContextVar("hindsight_grpc_caller")


def authorization(context: Context[Q, R]) -> str | None:
    """The call's ``authorization`` metadata (as the HTTP header), if any."""
    for key, value in context.invocation_metadata() or ():
        if key.lower() == "authorization":
            return value if isinstance(value, str) else value.decode("utf-8", "replace")
    return None


class HindsightServicer(pb_grpc.HindsightServicer):
    """hindsight.v1.Hindsight: each rpc is the HTTP route's handler call, after the same
    credential check (:meth:`_principal`: scope ``read`` for reads, ``write`` for writes,
    the tenant taken from the key)."""

    def __init__(self, query: Callable[[], Query], ingest: Callable[[], Ingest], settings: Settings,
                 auth: Authenticator) -> None:
        self._query = query
        self._ingest = ingest
        self._settings = settings
        self._auth = auth

    async def _principal(self, context: Context[Q, R], scope: str, rpc: str) -> Principal | None:
        what = f"{SERVICE_NAME}/{rpc}"
        principal = await self._auth.authenticate(authorization(context), interface="grpc", target=what)
        _CALLER.set((principal, what))
        require_scope(principal, scope, what)
        return principal

    async def _answer(self, context: Context[Q, R], work: Callable[[], Awaitable[R]], rpc: str | None = None) -> R:
        """``answer``, with every refusal (403) of the call queued on the audit trail."""

        async def audited() -> R:
            try:
                return await work()
            except Forbidden as e:
                principal, what = _CALLER.get((None, SERVICE_NAME))
                if self._auth.audit is not None:
                    self._auth.audit.note(forbidden_event(principal, e, what, "grpc"))
                raise

        return await answer(context, audited, rpc or rpc_name(work))

    def _bind(self, principal: Principal | None, body: B) -> B:
        return bind_tenant(principal, body, self._settings)

    def _tenant(self, principal: Principal | None, asked: str | None) -> str:
        return tenant_for(principal, asked, self._settings.default_tenant)

    async def Recall(  # noqa: N802 - the rpc's name
        self, request: pb.RecallRequest, context: Context[pb.RecallRequest, pb.RecallResponse]
    ) -> pb.RecallResponse:
        async def work() -> pb.RecallResponse:
            principal = await self._principal(context, "read", "Recall")
            body = self._bind(principal, convert.recall_in(request))
            if body.include:
                require_admin(principal, "include")
            return convert.recall_response(await self._query().recall(body))

        return await self._answer(context, work)

    async def GetSessionContext(  # noqa: N802
        self,
        request: pb.GetSessionContextRequest,
        context: Context[pb.GetSessionContextRequest, pb.GetSessionContextResponse],
    ) -> pb.GetSessionContextResponse:
        async def work() -> pb.GetSessionContextResponse:
            principal = await self._principal(context, "read", "GetSessionContext")
            p = convert.session_context_params(request)
            out = await self._query().session_context(
                p.session, self._tenant(principal, p.tenant), p.user, p.budget)
            return convert.session_context_response(out)

        return await self._answer(context, work)

    async def Retain(  # noqa: N802
        self, request: pb.RetainRequest, context: Context[pb.RetainRequest, pb.RetainResponse]
    ) -> pb.RetainResponse:
        async def work() -> pb.RetainResponse:
            principal = await self._principal(context, "write", "Retain")
            body = self._bind(principal, convert.ingest_request(request))
            key = idempotency_key(request)
            # Without a raw body, Ingest fingerprints the validated batch (its canonical
            # JSON), so a retry of the same batch matches whatever its wire encoding.
            return convert.retain_response(await self._ingest().record(body, idempotency_key=key))

        return await self._answer(context, work)

    async def CloseSession(  # noqa: N802
        self,
        request: pb.CloseSessionRequest,
        context: Context[pb.CloseSessionRequest, pb.CloseSessionResponse],
    ) -> pb.CloseSessionResponse:
        async def work() -> pb.CloseSessionResponse:
            principal = await self._principal(context, "write", "CloseSession")
            session, body = convert.close_session_in(request)
            body = self._bind(principal, body)
            return convert.close_session_response(await self._ingest().close_session(session, body))

        return await self._answer(context, work)

    async def Reflect(  # noqa: N802
        self, request: pb.ReflectRequest, context: Context[pb.ReflectRequest, pb.ReflectResponse]
    ) -> pb.ReflectResponse:
        async def work() -> pb.ReflectResponse:
            principal = await self._principal(context, "write", "Reflect")
            out = await self._ingest().request_reflection(self._bind(principal, convert.reflect_in(request)))
            return convert.reflect_response(out)

        return await self._answer(context, work)

    async def Forget(  # noqa: N802
        self, request: pb.ForgetRequest, context: Context[pb.ForgetRequest, pb.ForgetResponse]
    ) -> pb.ForgetResponse:
        async def work() -> pb.ForgetResponse:
            principal = await self._principal(context, "write", "Forget")
            out = await self._ingest().forget(request.memory_id, self._bind(principal, convert.forget_in(request)))
            return convert.forget_response(out)

        return await self._answer(context, work)

    async def EraseUser(  # noqa: N802
        self, request: pb.EraseUserRequest, context: Context[pb.EraseUserRequest, pb.EraseUserResponse]
    ) -> pb.EraseUserResponse:
        async def work() -> pb.EraseUserResponse:
            principal = await self._principal(context, "erase", "EraseUser")
            tenant = self._tenant(principal, request.tenant if request.HasField("tenant") else None)
            actor = principal.key_id if principal else ANONYMOUS
            out = await self._ingest().erase(tenant, request.user, actor, request.reason)
            if self._auth.audit is not None:
                self._auth.audit.note(AuditRecorded(
                    tenant=tenant, user=actor, occurred_at=utcnow(), action="subject.erase", outcome="ok",
                    credential=principal.key_id if principal else None, interface="grpc", target=request.user))
            return pb.EraseUserResponse(
                keys_destroyed=out.keys_destroyed, next=out.next,
                event=pb.AppendedEvent(event_id=out.event.event_id, offset=out.event.offset))

        return await self._answer(context, work)
    async def PinMemory(  # noqa: N802
        self, request: pb.MemoryActionRequest, context: Context[pb.MemoryActionRequest, pb.MemoryActionResponse]
    ) -> pb.MemoryActionResponse:
        return await self._memory_action("pin", "PinMemory", request, context)

    async def UnpinMemory(  # noqa: N802
        self, request: pb.MemoryActionRequest, context: Context[pb.MemoryActionRequest, pb.MemoryActionResponse]
    ) -> pb.MemoryActionResponse:
        return await self._memory_action("unpin", "UnpinMemory", request, context)

    async def RestoreMemory(  # noqa: N802
        self, request: pb.MemoryActionRequest, context: Context[pb.MemoryActionRequest, pb.MemoryActionResponse]
    ) -> pb.MemoryActionResponse:
        return await self._memory_action("restore", "RestoreMemory", request, context)

    async def _memory_action(
        self, action: str, rpc: str, request: pb.MemoryActionRequest,
        context: Context[pb.MemoryActionRequest, pb.MemoryActionResponse],
    ) -> pb.MemoryActionResponse:
        async def work() -> pb.MemoryActionResponse:
            principal = await self._principal(context, "write", rpc)
            body = self._bind(principal, convert.memory_action_in(request))
            return convert.memory_action_response(await self._ingest().lifecycle(action, request.memory_id, body))

        return await self._answer(context, work, rpc)

    async def ListMemories(  # noqa: N802
        self,
        request: pb.ListMemoriesRequest,
        context: Context[pb.ListMemoriesRequest, pb.ListMemoriesResponse],
    ) -> pb.ListMemoriesResponse:
        async def work() -> pb.ListMemoriesResponse:
            principal = await self._principal(context, "read", "ListMemories")
            p = convert.list_memories_params(request)
            tenant = self._tenant(principal, p.tenant)
            if p.include:
                require_admin(principal, "include")
            out = await self._query().list_memories(
                tenant, p.user, types=scope_types(p.types, p.include), session=p.session,
                kinds=tuple(p.kinds), keys=tuple(p.keys), tags=tuple(p.tags), limit=p.limit, offset=p.offset)
            return convert.list_memories_response(out)

        return await self._answer(context, work)

    async def GetMemory(  # noqa: N802
        self, request: pb.GetMemoryRequest, context: Context[pb.GetMemoryRequest, pb.GetMemoryResponse]
    ) -> pb.GetMemoryResponse:
        async def fetch(tenant: str, p: convert.MemoryParams) -> pb.GetMemoryResponse:
            return convert.memory_response(await self._query().memory(tenant, p.memory_id, include=tuple(p.include)))

        return await self._one_memory(request, context, fetch, "GetMemory")

    async def GetMemoryHistory(  # noqa: N802
        self, request: pb.GetMemoryRequest, context: Context[pb.GetMemoryRequest, pb.GetMemoryHistoryResponse]
    ) -> pb.GetMemoryHistoryResponse:
        async def fetch(tenant: str, p: convert.MemoryParams) -> pb.GetMemoryHistoryResponse:
            return convert.history_response(await self._query().history(tenant, p.memory_id, include=tuple(p.include)))

        return await self._one_memory(request, context, fetch, "GetMemoryHistory")

    async def _one_memory(
        self, request: pb.GetMemoryRequest, context: Context[pb.GetMemoryRequest, R],
        fetch: Callable[[str, convert.MemoryParams], Awaitable[R]], rpc: str,
    ) -> R:
        """An rpc on one memory: its parameters validated, the caller's tenant, ``include``
        for admins only."""
        async def work() -> R:
            principal = await self._principal(context, "read", rpc)
            p = convert.memory_params(request)
            tenant = self._tenant(principal, p.tenant)
            if p.include:
                require_admin(principal, "include")
            return await fetch(tenant, p)

        return await self._answer(context, work, rpc)


@dataclass
class GrpcGateway:
    """A built gRPC server: call :meth:`start` once the handlers are ready, :meth:`stop` to end."""

    server: grpc.aio.Server
    health: health.aio.HealthServicer
    host: str
    port: int  # the bound port (a free one when 0 was asked for)

    @property
    def address(self) -> str:
        return f"{_host(self.host)}:{self.port}"

    async def start(self) -> None:
        await self.server.start()
        for service in ("", SERVICE_NAME):  # "" is the whole server
            await self.health.set(service, health_pb2.HealthCheckResponse.SERVING)
        log.info("hindsight gRPC gateway listening on %s", self.address)

    async def stop(self, grace_s: float = 5.0) -> None:
        """NOT_SERVING at once, then let calls in flight finish for up to ``grace_s``."""
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace_s)


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def build_server(
    query_getter: Callable[[], Query],
    ingest_getter: Callable[[], Ingest],
    settings: Settings,
    port: int,
    *,
    auth: Authenticator,
    host: str | None = None,
) -> GrpcGateway:
    """The gRPC gateway on ``host`` (default ``settings.host``, 127.0.0.1) and ``port``
    (0: a free port), not yet started. The getters return the handlers once the
    services are up; they are called per rpc, like the HTTP routes' getters. ``auth``
    checks every rpc's credential (health and reflection stay open, as ``/healthz``).

    Raises ConfigurationError when the address cannot be bound.
    """
    host = host or settings.host
    limit = settings.max_body_bytes  # the same request-size limit as HTTP
    server = grpc.aio.server(options=[
        ("grpc.max_receive_message_length", limit),
        ("grpc.max_send_message_length", -1),
        # gRPC sets SO_REUSEPORT by default: a second Hindsight on the same port would
        # silently share it. Without it, a taken port fails here with a clear error.
        ("grpc.so_reuseport", 0),
    ])
    pb_grpc.add_HindsightServicer_to_server(HindsightServicer(query_getter, ingest_getter, settings, auth), server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    address = f"{_host(host)}:{port}"
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as e:
        raise _cannot_bind(address) from e
    if bound == 0:
        raise _cannot_bind(address)
    return GrpcGateway(server, health_servicer, host, bound)


def _cannot_bind(address: str) -> ConfigurationError:
    return ConfigurationError(
        f"cannot listen for gRPC on {address} (in use? set HINDSIGHT_GRPC_PORT to another port)"
    )
