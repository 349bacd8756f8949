"""query's wiring: the HTTP read API over the recall engine."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request

from hindsight_common.api import RecallIn, RecallOut
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

    return api
