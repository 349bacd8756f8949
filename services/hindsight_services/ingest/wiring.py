"""ingest's wiring: the HTTP write API over the log."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import JSONResponse, Response

from hindsight_common.admin import require_admin
from hindsight_common.api import (
    AppendedEventsOut,
    ForgetIn,
    IngestRequest,
    IngestResponse,
    ReflectIn,
    ReleaseIn,
    SessionCloseIn,
)
from hindsight_common.ports.log import EventLog
from hindsight_common.events.base import IDENTIFIER_PATTERN
from hindsight_common.security.credentials_access import Authenticator
from hindsight_common.settings import Settings
from hindsight_services.api_docs import EVERY_ROUTE, WITH_BODY, errors, json_body, operation_id
from hindsight_services.audit_actions import audited, ingest_effects
from hindsight_services.auth import bind_tenant, needs, principal_of, tenant_of
from hindsight_services.http import parse_body
from hindsight_services.ingest.handler import Ingest
from hindsight_services.ingest.lifecycle import add_routes


def router(get_log: Callable[[], EventLog], settings: Settings, auth: Authenticator) -> APIRouter:
    """The write API; ``get_log`` returns the log once the service has started. Every
    route needs the ``write`` scope and acts on its key's tenant (``services/hindsight_services/auth.py``)."""
    api = APIRouter(
        tags=["ingest"], responses={**EVERY_ROUTE, **WITH_BODY, **errors(401, 403, 429)},
        generate_unique_id_function=operation_id, dependencies=[needs(auth, "write")],
    )

    @api.post(
        "/v1/interactions",
        status_code=201,
        openapi_extra=json_body(IngestRequest),
        responses={
            201: {"model": IngestResponse, "description": "Every interaction is durable on the log."},
            200: {"model": IngestResponse, "description": "A replay: the Idempotency-Key matched an "
                  "earlier batch with the same body, whose answer this repeats (replayed: true)."},
            **errors(409),
        },
    )
    async def record_interactions(
        request: Request,
        idempotency_key: str | None = Header(
            None, max_length=200,
            description="Makes a retried batch a no-op (the answer repeats the first one's, with "
            "replayed: true). It applies to one tenant: a batch sent with a key holds one tenant's "
            "interactions (422 otherwise); the same key with another body is 409.",
        ),
    ) -> Response:
        """Append a batch of interactions; answers once they are durable on the log.

        An ``Idempotency-Key`` header makes a retried batch a no-op: the answer
        repeats the first one's event ids and offsets (``replayed: true``).
        """
        audited(request, "ingest", tenant_of(request, None, settings))  # also when the body is refused
        body, payload = await parse_body(request, IngestRequest, settings.max_body_bytes)
        principal = principal_of(request)
        body = bind_tenant(principal, body, settings)
        tenants = sorted({str(i.tenant) for i in body.interactions})
        details = audited(request, "ingest", tenants[0], count=len(body.interactions))
        if len(tenants) > 1:
            details["tenants"] = len(tenants)  # auth off only: a key binds one tenant
        ingest = Ingest(get_log(), settings)
        result = await ingest.record(body, idempotency_key=idempotency_key, payload=payload)
        effects = ingest_effects(details, principal, result.replayed, result.events[0].event_id,
                                 result.events[-1].event_id, ingest.recorded, ingest.held, "http")
        if auth.audit is not None:
            for event in effects:
                auth.audit.note(event)
        # pydantic's serializer straight to bytes: no dict of 100 entries, no json.dumps.
        return Response(result.model_dump_json(), status_code=200 if result.replayed else 201,
                        media_type="application/json")

    @api.post(
        "/v1/sessions/{session}:close",
        status_code=201,
        openapi_extra=json_body(SessionCloseIn),
        responses={201: {"model": AppendedEventsOut, "description": "SessionClosed is durable on the log."}},
    )
    async def close_session(
        request: Request, session: str = Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN)
    ) -> JSONResponse:
        """Record that a session ended (reflection looks back at closed sessions)."""
        body, _ = await parse_body(request, SessionCloseIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        audited(request, "session.close", str(body.tenant), session=session, user=body.user)
        appended = await Ingest(get_log(), settings).close_session(session, body)
        return JSONResponse({"events": [appended.model_dump(mode="json")]}, status_code=201)

    @api.post(
        "/v1/reflect",
        status_code=202,
        openapi_extra=json_body(ReflectIn),
        responses={202: {"model": AppendedEventsOut, "description": "ReflectionRequested is durable "
                         "on the log; reflect runs asynchronously."}},
    )
    async def reflect(request: Request) -> JSONResponse:
        """Ask for reflection on a session (or a task, or every session of the user
        with unreflected turns). Reflection runs asynchronously in reflect."""
        body, _ = await parse_body(request, ReflectIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        audited(request, "reflect.request", str(body.tenant), user=body.user)
        appended = await Ingest(get_log(), settings).request_reflection(body)
        return JSONResponse({"events": [appended.model_dump(mode="json")]}, status_code=202)

    @api.post(
        "/v1/memories/{memory_id}:forget",
        status_code=202,
        openapi_extra=json_body(ForgetIn),
        responses={202: {"model": AppendedEventsOut, "description": "MemoryForgotten is durable on the log."}},
    )
    async def forget(memory_id: str, request: Request) -> JSONResponse:
        """Forget one memory: recall never returns it again once the projections
        applied the MemoryForgotten event (see /v1/status)."""
        body, _ = await parse_body(request, ForgetIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        audited(request, "memory.forget", str(body.tenant), memory=memory_id)
        appended = await Ingest(get_log(), settings).forget(memory_id, body)
        return JSONResponse({"events": [appended.model_dump(mode="json")]}, status_code=202)

    @api.post(
        "/v1/memories/{memory_id}:release",
        status_code=202,
        openapi_extra=json_body(ReleaseIn),
        responses={202: {"model": AppendedEventsOut, "description": "MemoryReleased is durable on the log."},
                   **errors(403)},
    )
    async def release(memory_id: str, request: Request) -> JSONResponse:
        """Admin only: release a quarantined memory or turn (its id): it is served again
        once the projections applied the MemoryReleased event. 403 without an API key
        with the admin scope."""
        require_admin(principal_of(request), "release")
        body, _ = await parse_body(request, ReleaseIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        audited(request, "memory.release", str(body.tenant), target=memory_id)
        appended = await Ingest(get_log(), settings).release(memory_id, body)
        return JSONResponse({"events": [appended.model_dump(mode="json")]}, status_code=202)

    add_routes(api, get_log, settings)  # pin, unpin, restore, consolidate
    return api
