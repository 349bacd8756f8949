"""The embedded server's rebuild endpoints (admin scope), which ``hindsight replay``
calls when a server holds the data directory:

- ``POST /v1/admin/rebuild`` ``{"projection": "all", "embedder": null, "drop_old": false}``
  starts an online rebuild (202), or answers 409 ``rebuild_running`` while one runs;
- ``GET /v1/admin/rebuild``: ``{"running", "projections", "progress": {"phase", "applied",
  "resumed_from", "lag", "events_per_s", "eta_s"}, "result" | "error"}``.

They operate one server's data directory and exist only in the embedded mode (the
cluster rebuilds from the command line, ``rebuild/cluster.py``), so they are left out of
the published OpenAPI document, which the cluster gateway serves too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from hindsight_common.errors import ConfigurationError, InvalidInput, Problem
from hindsight_common.security.credentials_access import Authenticator
from hindsight_services.auth import needs
from hindsight_services.http import error_body, parse_body
from hindsight_services.rebuild.embedded import EmbeddedRebuilds, RebuildRequest, parse_projections

MAX_BODY = 4096


class RebuildIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    projection: str = Field("all", description="vector, text, graph, all, or a comma-separated choice")
    embedder: Literal["bge-small-en", "minilm"] | None = Field(
        None, description="re-embed the vector projection with this embedder")
    drop_old: bool = False


def router(rebuilds: Callable[[], EmbeddedRebuilds], auth: Authenticator) -> APIRouter:
    api = APIRouter(dependencies=[needs(auth, "admin")], include_in_schema=False)

    @api.post("/v1/admin/rebuild", status_code=202)
    async def start_rebuild(request: Request) -> JSONResponse:
        body, _ = await parse_body(request, RebuildIn, MAX_BODY)
        try:
            projections = parse_projections(body.projection)
        except ConfigurationError as e:
            raise InvalidInput(str(e), [Problem("projection", str(e))]) from e
        service = rebuilds()
        try:
            started = service.start(RebuildRequest(projections, body.embedder, body.drop_old))
        except ConfigurationError as e:  # another interrupted rebuild is recorded
            return JSONResponse(error_body("rebuild_interrupted", str(e)), status_code=409)
        if not started:
            return JSONResponse(error_body("rebuild_running", "a rebuild is running; follow it with "
                                           "GET /v1/admin/rebuild"), status_code=409)
        return JSONResponse(service.state(), status_code=202)

    @api.get("/v1/admin/rebuild")
    async def rebuild_state() -> JSONResponse:
        return JSONResponse(rebuilds().state())

    return api
