"""The write routes of a memory's lifecycle: ``:pin``, ``:unpin``, ``:restore``,
``:expire`` (a TTL) and an on-demand forgetting pass (``POST /v1/consolidate``).

Each pin, unpin or restore is one event on the memories stream (``events/lifecycle.py``),
acknowledged once durable; the projections apply it (``consolidation/lifecycle.py``). The
pass is ``consolidate/on_demand.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from hindsight_common.api import AppendedEventsOut, ConsolidateIn, ConsolidateOut, ExpireIn, MemoryActionIn
from hindsight_common.events import Event, MemoryPinned, MemoryRestored, MemoryUnpinned
from hindsight_common.ports.log import EventLog
from hindsight_common.settings import Settings
from hindsight_services.api_docs import json_body
from hindsight_services.auth import bind_tenant, principal_of
from hindsight_services.http import parse_body
from hindsight_services.ingest.handler import Ingest

ACTIONS: dict[str, tuple[type[Event], str]] = {
    "pin": (MemoryPinned, "Pin a memory: no forgetting pass touches it, and it weighs the most in importance."),
    "unpin": (MemoryUnpinned, "Unpin a memory: forgetting passes judge it by its importance again."),
    "restore": (MemoryRestored, "Restore a forgotten memory: recall serves it again once the projections "
                "applied the MemoryRestored event."),
}
#: The paths of these routes, for the gateway that forwards writes to ingest.
PATHS = (*(f"/v1/memories/{{memory_id}}:{a}" for a in (*ACTIONS, "expire")), "/v1/consolidate")


def add_routes(api: APIRouter, get_log: Callable[[], EventLog], settings: Settings) -> None:
    """Add the lifecycle routes to ingest's router (which checks the ``write`` scope)."""
    for action, (model, summary) in ACTIONS.items():
        _action_route(api, get_log, settings, action, model, summary)

    @api.post(
        "/v1/memories/{memory_id}:expire",
        status_code=202,
        openapi_extra=json_body(ExpireIn),
        responses={202: {"model": AppendedEventsOut, "description": "MemoryExpirySet is durable on the log."}},
    )
    async def expire_memory(memory_id: str, request: Request) -> JSONResponse:
        """Give a memory an expiry (``expires_at``, or ``ttl_s`` seconds from now), or clear
        it (neither): once it has passed, recall leaves the memory out and the next
        forgetting pass forgets it (unless it is pinned)."""
        body, _ = await parse_body(request, ExpireIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        appended = await Ingest(get_log(), settings).expire(memory_id, body)
        return JSONResponse(AppendedEventsOut(events=[appended]).model_dump(mode="json"), status_code=202)

    @api.post(
        "/v1/consolidate",
        openapi_extra=json_body(ConsolidateIn),
        responses={200: {"model": ConsolidateOut, "description": "What the pass forgot (durable on the log), "
                         "or with dry_run what it would forget."}},
    )
    async def consolidate(request: Request) -> JSONResponse:
        """Run a forgetting pass over one user's memories now: those below the importance
        threshold and older than the minimum age are forgotten (soft; ``:restore`` brings
        one back), pinned ones never, and never more than the configured share of the
        user's live memories. ``dry_run`` lists what it would forget and forgets nothing."""
        body, _ = await parse_body(request, ConsolidateIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        out = await Ingest(get_log(), settings).consolidate(body)
        return JSONResponse(out.model_dump(mode="json"))


def _action_route(api: APIRouter, get_log: Callable[[], EventLog], settings: Settings, action: str,
                  model: type[Event], summary: str) -> None:
    async def route(memory_id: str, request: Request) -> JSONResponse:
        body, _ = await parse_body(request, MemoryActionIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        appended = await Ingest(get_log(), settings).lifecycle(action, memory_id, body)
        return JSONResponse(AppendedEventsOut(events=[appended]).model_dump(mode="json"), status_code=202)

    route.__name__ = f"{action}_memory"
    api.add_api_route(
        f"/v1/memories/{{memory_id}}:{action}", route, methods=["POST"], status_code=202, summary=summary,
        description=summary, openapi_extra=json_body(MemoryActionIn),
        responses={202: {"model": AppendedEventsOut, "description": f"{model.__name__} is durable on the log."}},
    )
