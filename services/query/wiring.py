"""query's wiring: the HTTP read API over the recall engine."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Query as Param, Request

from hindsight_common.api import RecallIn, RecallOut, SessionContextOut
from hindsight_common.settings import Settings
from hindsight_services.http import parse_body
from hindsight_services.query.handler import Query


def router(get_query: Callable[[], Query], settings: Settings) -> APIRouter:
    """The read API; ``get_query`` returns the query service once started."""
    api = APIRouter(tags=["query"])

    @api.post("/v1/recall", response_model=RecallOut)
    async def recall(request: Request) -> RecallOut:
        """Recall what matters for a query: vector and BM25 paths fused with RRF (k=60).

        The tenant (default ``default``) is always applied inside each index.
        """
        body, _ = await parse_body(request, RecallIn, settings.max_body_bytes)
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

    return api
