"""query's wiring: the HTTP read API over the recall engine."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Depends, Query as Param, Request

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
from hindsight_common.settings import Settings
from hindsight_services.http import parse_body
from hindsight_services.query.handler import Query, scope_types


def router(get_query: Callable[[], Query], settings: Settings) -> APIRouter:
    """The read API; ``get_query`` returns the query service once started."""
    api = APIRouter(tags=["query"])

    @api.post("/v1/recall", response_model=RecallOut)
    async def recall(request: Request) -> RecallOut:
        """Recall what matters for a query: vector and BM25 paths fused with RRF (k=60).

        The tenant (default ``default``) is always applied inside each index. ``include``
        is admin only: 403 without ``Authorization: Bearer <HINDSIGHT_ADMIN_TOKEN>``.
        """
        body, _ = await parse_body(request, RecallIn, settings.max_body_bytes)
        if body.include:
            require_admin(settings, request.headers.get("authorization"), "include")
        result: RecallOut = await get_query().recall(body)
        return result

    @api.get("/v1/sessions/{session}/context", response_model=SessionContextOut)
    async def session_context(
        session: str,
        user: str = Param(min_length=1, max_length=200),
        tenant: str | None = Param(None, max_length=200),
        budget: int = Param(2000, ge=1, le=200_000, description="Token budget."),
    ) -> SessionContextOut:
        """Working memory for a session: the last turns that fit the token budget,
        plus a rolling summary of the earlier part once the session is long."""
        result: SessionContextOut = await get_query().session_context(session, tenant, user, budget)
        return result

    @api.get("/v1/memories", response_model=MemoryListOut)
    async def list_memories(
        request: Request,
        user: str | None = Param(None, max_length=200),
        tenant: str | None = Param(None, max_length=200),
        session: str | None = Param(None, max_length=200),
        type: list[BrowseType] = Param(["semantic"], description="episodic, semantic, summary"),  # noqa: A002
        kind: list[str] = Param([], description="fact, preference, event, lesson, error"),
        key: list[str] = Param([]),
        tag: list[str] = Param([]),
        limit: int = Param(50, ge=1, le=500),
        offset: int = Param(0, ge=0, le=MAX_OFFSET),
        include: list[Include] = Param([], description=INCLUDE_DESCRIPTION),
    ) -> MemoryListOut:
        """Browse what Hindsight remembers, newest first, filtered by kind, key and tag.

        ``include`` is admin only: 403 without ``Authorization: Bearer <HINDSIGHT_ADMIN_TOKEN>``.
        """
        if include:
            require_admin(settings, request.headers.get("authorization"), "include")
        result: MemoryListOut = await get_query().list_memories(
            tenant, user, types=scope_types(type, include), session=session, kinds=tuple(kind),
            keys=tuple(key), tags=tuple(tag), limit=limit, offset=offset)
        return result

    def included(request: Request, include: list[Include] = Param([], description=INCLUDE_DESCRIPTION)) -> tuple[str, ...]:
        """The ``include`` of a request on one memory, once the caller is known as an admin."""
        if include:
            require_admin(settings, request.headers.get("authorization"), "include")
        return tuple(include)

    @api.get("/v1/memories/{memory_id}", response_model=MemoryDetailOut)
    async def get_memory(
        memory_id: str, tenant: str | None = Param(None, max_length=200), include: tuple[str, ...] = Depends(included),
    ) -> MemoryDetailOut:
        """One memory with its provenance: the turns it was learned from. A forgotten
        memory is 404 unless an admin asks with ``include=forgotten``."""
        result: MemoryDetailOut = await get_query().memory(tenant, memory_id, include=include)
        return result

    @api.get("/v1/memories/{memory_id}/history", response_model=MemoryHistoryOut)
    async def memory_history(
        memory_id: str, tenant: str | None = Param(None, max_length=200), include: tuple[str, ...] = Depends(included),
    ) -> MemoryHistoryOut:
        """How a memory changed: the values it superseded or was superseded by, and the
        near-duplicates merged with it, oldest first, each typed by its state ("semantic"
        is the live one). Forgotten versions only for an admin with ``include=forgotten``."""
        result: MemoryHistoryOut = await get_query().history(tenant, memory_id, include=include)
        return result

    return api
