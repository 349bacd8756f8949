"""The gRPC gateway: ``hindsight.v1.Hindsight`` over the same handlers as HTTP.

Each rpc turns its request into the API model the HTTP route validates
(``convert``), calls the same ``Query`` / ``Ingest`` handler method, and turns
the answer back into a message. Errors become gRPC statuses (``status.py``).

The server also answers ``grpc.health.v1.Health`` (SERVING from :meth:`GrpcGateway.start`,
NOT_SERVING from :meth:`GrpcGateway.stop`) and server reflection, so ``grpcurl`` and
load balancers work without the .proto.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from hindsight_common.admin import require_admin
from hindsight_common.api import (
    ConsolidateIn, ExpireIn, ForgetIn, IngestRequest, MemoryActionIn, RecallIn, ReflectIn, SessionCloseIn,
)
from hindsight_common.errors import (
    ConfigurationError,
    Forbidden,
    InvalidInput,
    Problem,
)
from hindsight_common.events.audit import ANONYMOUS, AuditRecorded
from hindsight_common.events.base import utcnow
from hindsight_common.security.credentials import Principal
from hindsight_common.security.credentials_access import Authenticator, forbidden_event, require_scope, tenant_for
from hindsight_common.settings import Settings
from hindsight_services.auth import bind_tenant
from hindsight_services.audit_actions import audited_rpc, ingest_effects, marked_event, rpc_mark
from hindsight_common.events.audit import AuditOutcome
from hindsight_services.grpc_api import convert
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.status import PROBLEMS_METADATA, answer, rpc_name  # noqa: F401 - PROBLEMS_METADATA re-exported
from hindsight_services.grpc_api.wire import add_servicer
from hindsight_services.ingest.handler import Ingest
from hindsight_services.query.handler import Query, scope_types

log = logging.getLogger(__name__)

SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["Hindsight"].full_name  # hindsight.v1.Hindsight
MAX_IDEMPOTENCY_KEY = 200  # as the HTTP Idempotency-Key header

Q = TypeVar("Q")
R = TypeVar("R")
Metadata = tuple[tuple[str, str], ...]


def idempotency_key(msg: pb.RetainRequest) -> str | None:
    if not msg.HasField("idempotency_key"):
        return None
    if len(msg.idempotency_key) > MAX_IDEMPOTENCY_KEY:
        raise InvalidInput("idempotency key too long", [
            Problem("idempotency_key", f"at most {MAX_IDEMPOTENCY_KEY} characters, "
                                       f"got {len(msg.idempotency_key)}")])
    return msg.idempotency_key


Context = grpc.aio.ServicerContext
B = TypeVar("B", IngestRequest, SessionCloseIn, ReflectIn, ForgetIn, RecallIn, MemoryActionIn, ExpireIn, ConsolidateIn)
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
            rpc_mark(reset=True)
            try:
                result = await work()
            except Forbidden as e:
                principal, what = _CALLER.get((None, SERVICE_NAME))
                if self._auth.audit is not None:
                    self._auth.audit.note(forbidden_event(principal, e, what, "grpc"))
                raise
            except Exception as e:  # the marked action failed; answer() maps the error
                self._note("failed", type(e).__name__)
                raise
            self._note("ok")
            return result

        return await answer(context, audited, rpc or rpc_name(work))

    def _note(self, outcome: AuditOutcome, reason: str = "") -> None:
        """Queue the audit event of the action the rpc marked (``audit_actions.audited_rpc``)."""
        principal, what = _CALLER.get((None, SERVICE_NAME))
        event = marked_event(rpc_mark(), principal, what, outcome, "grpc", reason)
        if event is not None and self._auth.audit is not None:
            self._auth.audit.note(event)

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
            details = audited_rpc("recall", str(body.tenant), k=body.k, preset=body.preset or "default",
                                  include=",".join(body.include), user=body.user or "")  # never the query
            if body.include:
                require_admin(principal, "include")
            out = await self._query().recall(body)
            details["results"] = len(out.items)
            return convert.recall_response(out)

        return await self._answer(context, work)

    async def GetSessionContext(  # noqa: N802
        self,
        request: pb.GetSessionContextRequest,
        context: Context[pb.GetSessionContextRequest, pb.GetSessionContextResponse],
    ) -> pb.GetSessionContextResponse:
        async def work() -> pb.GetSessionContextResponse:
            principal = await self._principal(context, "read", "GetSessionContext")
            p = convert.session_context_params(request)
            tenant = self._tenant(principal, p.tenant)
            details = audited_rpc("session.context", tenant, session=p.session, user=p.user, budget=p.budget)
            out = await self._query().session_context(p.session, tenant, p.user, p.budget)
            details["results"] = len(out.turns)
            return convert.session_context_response(out)

        return await self._answer(context, work)

    async def Retain(  # noqa: N802
        self, request: pb.RetainRequest, context: Context[pb.RetainRequest, pb.RetainResponse]
    ) -> pb.RetainResponse:
        async def work() -> pb.RetainResponse:
            principal = await self._principal(context, "write", "Retain")
            body = self._bind(principal, convert.ingest_request(request))
            details = audited_rpc("ingest", str(body.interactions[0].tenant), count=len(body.interactions))
            key = idempotency_key(request)
            # Without a raw body, Ingest fingerprints the validated batch (its canonical
            # JSON), so a retry of the same batch matches whatever its wire encoding.
            ingest = self._ingest()
            out = await ingest.record(body, idempotency_key=key)
            effects = ingest_effects(details, principal, out.replayed, out.events[0].event_id,
                                     out.events[-1].event_id, ingest.recorded, ingest.held, "grpc")
            if self._auth.audit is not None:
                for event in effects:
                    self._auth.audit.note(event)
            return convert.retain_response(out)

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
            audited_rpc("session.close", str(body.tenant), session=session, user=body.user)
            return convert.close_session_response(await self._ingest().close_session(session, body))

        return await self._answer(context, work)

    async def Reflect(  # noqa: N802
        self, request: pb.ReflectRequest, context: Context[pb.ReflectRequest, pb.ReflectResponse]
    ) -> pb.ReflectResponse:
        async def work() -> pb.ReflectResponse:
            principal = await self._principal(context, "write", "Reflect")
            body = self._bind(principal, convert.reflect_in(request))
            audited_rpc("reflect.request", str(body.tenant), user=body.user)
            out = await self._ingest().request_reflection(body)
            return convert.reflect_response(out)

        return await self._answer(context, work)

    async def Forget(  # noqa: N802
        self, request: pb.ForgetRequest, context: Context[pb.ForgetRequest, pb.ForgetResponse]
    ) -> pb.ForgetResponse:
        async def work() -> pb.ForgetResponse:
            principal = await self._principal(context, "write", "Forget")
            body = self._bind(principal, convert.forget_in(request))
            audited_rpc("memory.forget", str(body.tenant), memory=request.memory_id)
            out = await self._ingest().forget(request.memory_id, body)
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

    async def ExpireMemory(  # noqa: N802
        self, request: pb.ExpireMemoryRequest, context: Context[pb.ExpireMemoryRequest, pb.MemoryActionResponse]
    ) -> pb.MemoryActionResponse:
        async def work() -> pb.MemoryActionResponse:
            principal = await self._principal(context, "write", "ExpireMemory")
            body = self._bind(principal, convert.expire_in(request))
            return convert.memory_action_response(await self._ingest().expire(request.memory_id, body))

        return await self._answer(context, work, "ExpireMemory")

    async def Consolidate(  # noqa: N802
        self, request: pb.ConsolidateRequest, context: Context[pb.ConsolidateRequest, pb.ConsolidateResponse]
    ) -> pb.ConsolidateResponse:
        async def work() -> pb.ConsolidateResponse:
            principal = await self._principal(context, "write", "Consolidate")
            body = self._bind(principal, convert.consolidate_in(request))
            return convert.consolidate_response(await self._ingest().consolidate(body))

        return await self._answer(context, work, "Consolidate")

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
            details = audited_rpc("memories.browse", tenant, types=",".join(p.types), limit=p.limit,
                                  offset=p.offset, include=",".join(p.include), user=p.user or "")
            if p.include:
                require_admin(principal, "include")
            out = await self._query().list_memories(
                tenant, p.user, types=scope_types(p.types, p.include), session=p.session,
                kinds=tuple(p.kinds), keys=tuple(p.keys), tags=tuple(p.tags), limit=p.limit, offset=p.offset)
            details["results"] = len(out.items)
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
            audited_rpc("memory.history" if rpc == "GetMemoryHistory" else "memory.read", tenant,
                        memory=p.memory_id, include=",".join(p.include))
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
    add_servicer(HindsightServicer(query_getter, ingest_getter, settings, auth), server)  # (see wire.py)
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
