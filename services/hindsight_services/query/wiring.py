"""query's wiring: the HTTP read API over the recall engine."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Depends, Path, Query as Param, Request

from hindsight_common.admin import require_admin
from hindsight_common.api import (
    INCLUDE_DESCRIPTION,
    MAX_OFFSET,
    BrowseType,
    Include,
    MemoryDetailOut,
    MemoryHistoryOut,
    MemoryListOut,
    RecallIn,
    RecallOut,
    SessionContextOut,
)
from hindsight_common.events.base import IDENTIFIER_PATTERN
from hindsight_common.security.credentials_access import Authenticator
from hindsight_common.settings import Settings
from hindsight_services.api_docs import EVERY_ROUTE, WITH_BODY, errors, json_body, operation_id
from hindsight_services.audit_actions import audited
from hindsight_services.auth import bind_tenant, needs, principal_of, tenant_of
from hindsight_services.http import parse_body, single_valued_query
from hindsight_services.query.handler import Query, scope_types


def router(get_query: Callable[[], Query], settings: Settings, auth: Authenticator) -> APIRouter:
    """The read API; ``get_query`` returns the query service once started. Every route
    needs the ``read`` scope and reads only its key's tenant (``services/hindsight_services/auth.py``)."""
    api = APIRouter(
        tags=["query"], responses={**EVERY_ROUTE, **errors(401, 403, 429)},
        generate_unique_id_function=operation_id,
        dependencies=[needs(auth, "read"), Depends(single_valued_query)],
    )

    @api.post(
        "/v1/recall",
        response_model=RecallOut,
        openapi_extra=json_body(RecallIn),
        responses={**WITH_BODY, **errors(403)},
    )
    async def recall(request: Request) -> RecallOut:
        """Recall what matters for a query: vector and BM25 paths fused with RRF (k=60).

        The tenant (default ``default``) is always applied inside each index. ``include``
        is admin only: 403 without an API key with the admin scope.
        """
        audited(request, "recall", tenant_of(request, None, settings))  # also when the body is refused
        body, _ = await parse_body(request, RecallIn, settings.max_body_bytes)
        body = bind_tenant(principal_of(request), body, settings)
        details = audited(request, "recall", str(body.tenant), k=body.k, preset=body.preset or "default",
                          include=",".join(body.include))  # never the query
        if body.user:
            details["user"] = body.user
        if body.include:
            require_admin(principal_of(request), "include")
        result: RecallOut = await get_query().recall(body)
        details["results"] = len(result.items)
        return result

    @api.get("/v1/sessions/{session}/context", response_model=SessionContextOut, responses=errors(422))
    async def session_context(
        request: Request,
        session: str = Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        user: str = Param(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        tenant: str | None = Param(None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        budget: int = Param(2000, ge=1, le=200_000, description="Token budget."),
    ) -> SessionContextOut:
        """Working memory for a session: the last turns that fit the token budget,
        plus a rolling summary of the earlier part once the session is long."""
        tenant = tenant_of(request, tenant, settings)
        details = audited(request, "session.context", tenant, session=session, user=user, budget=budget)
        result: SessionContextOut = await get_query().session_context(session, tenant, user, budget)
        details["results"] = len(result.turns)
        return result

    @api.get("/v1/memories", response_model=MemoryListOut, responses=errors(403, 422))
    async def list_memories(
        request: Request,
        user: str | None = Param(None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        tenant: str | None = Param(None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        session: str | None = Param(None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        type: list[BrowseType] = Param(["semantic"], description="episodic, semantic, summary"),  # noqa: A002
        kind: list[str] = Param([], description="fact, preference, event, lesson, error"),
        key: list[str] = Param([]),
        tag: list[str] = Param([]),
        limit: int = Param(50, ge=1, le=500),
        offset: int = Param(0, ge=0, le=MAX_OFFSET),
        include: list[Include] = Param([], description=INCLUDE_DESCRIPTION),
    ) -> MemoryListOut:
        """Browse what Hindsight remembers, newest first, filtered by kind, key and tag.

        ``include`` is admin only: 403 without an API key with the admin scope.
        """
        tenant = tenant_of(request, tenant, settings)
        details = audited(request, "memories.browse", tenant, types=",".join(type), limit=limit, offset=offset,
                          include=",".join(include))
        if user:
            details["user"] = user
        if include:
            require_admin(principal_of(request), "include")
        result: MemoryListOut = await get_query().list_memories(
            tenant, user, types=scope_types(type, include), session=session, kinds=tuple(kind),
            keys=tuple(key), tags=tuple(tag), limit=limit, offset=offset)
        details["results"] = len(result.items)
        return result

    def one_memory(
        request: Request,
        tenant: str | None = Param(None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        include: list[Include] = Param([], description=INCLUDE_DESCRIPTION),
    ) -> tuple[str, tuple[str, ...]]:
        """The tenant and ``include`` of a request on one memory, the caller known as an
        admin when it asks for ``include``."""
        tenant = tenant_of(request, tenant, settings)
        if include:
            require_admin(principal_of(request), "include")
        return tenant, tuple(include)

    @api.get("/v1/memories/{memory_id:id}", response_model=MemoryDetailOut, responses=errors(403, 404, 422))
    async def get_memory(
        request: Request, memory_id: str, asked: tuple[str, tuple[str, ...]] = Depends(one_memory),
    ) -> MemoryDetailOut:
        """One memory with its provenance: the turns it was learned from. A forgotten
        memory is 404 unless an admin asks with ``include=forgotten``."""
        tenant, include = asked
        audited(request, "memory.read", tenant, memory=memory_id, include=",".join(include))
        result: MemoryDetailOut = await get_query().memory(tenant, memory_id, include=include)
        return result

    @api.get("/v1/memories/{memory_id:id}/history", response_model=MemoryHistoryOut,
             responses=errors(403, 404, 422))
    async def memory_history(
        request: Request, memory_id: str, asked: tuple[str, tuple[str, ...]] = Depends(one_memory),
    ) -> MemoryHistoryOut:
        """How a memory changed: the values it superseded or was superseded by, and the
        near-duplicates merged with it, oldest first, each typed by its state ("semantic"
        is the live one). Forgotten versions only for an admin with ``include=forgotten``."""
        tenant, include = asked
        audited(request, "memory.history", tenant, memory=memory_id, include=",".join(include))
        result: MemoryHistoryOut = await get_query().history(tenant, memory_id, include=include)
        return result

    return api
