"""HTTP plumbing shared by the services that serve HTTP: error bodies, body limits.

Every error answer is JSON: ``{"error": {"code", "message", "problems": [{"field",
"message"}]}}`` so a caller can see which field is wrong and how to fix it. That holds
at the edges too: an unknown path (``not_found``), a wrong method
(``method_not_allowed``) and an unexpected failure (``internal``, 500, with no
traceback or exception text; the log has those) answer the same shape. An outage
(the log, a projection, a model provider or the ingest service down) is ``503
unavailable`` with a ``Retry-After`` header, so clients and proxies back off and retry.
A missing or invalid API key is ``401 unauthorized`` (with ``WWW-Authenticate``), a scope
or tenant the key does not hold ``403 forbidden``, a key over its rate limit ``429
rate_limited`` with ``Retry-After``.
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, JsonValue, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.convertors import StringConvertor, register_url_convertor
from starlette.routing import Match

from hindsight_common.errors import (
    AuthError,
    Forbidden,
    HindsightError,
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
from hindsight_common.security.credentials_limits import retry_after_header

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

# Seconds a caller is asked to wait after a 503: about what a restarted pod or a Kafka
# leader election takes, short enough that an agent's write is not held up for long.
RETRY_AFTER_S = 5


def error_body(code: str, message: str, problems: list[Problem] | None = None) -> dict[str, Any]:
    return {
        "error": {
            "code": code,
            "message": message,
            "problems": [{"field": p.field, "message": p.message} for p in problems or []],
        }
    }


def problems_from_pydantic(errors: list[Any], drop_prefix: tuple[str, ...] = ("body",)) -> list[Problem]:
    out = []
    for err in errors:
        loc = [str(p) for p in err.get("loc", ())]
        while loc and loc[0] in drop_prefix:
            loc = loc[1:]
        out.append(Problem(".".join(loc) or "(body)", str(err.get("msg", "invalid"))))
    return out


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type header names JSON: ``application/json``, with any
    parameters (``; charset=utf-8``), in any case."""
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    return media_type == "application/json"


async def parse_body(request: Request, model: type[M], max_bytes: int) -> tuple[M, JsonValue]:
    """Read and validate a JSON body; returns the model and the parsed JSON.

    Raises PayloadTooLarge, UnsupportedMediaType (a body that is not sent as
    application/json), MalformedJson (not JSON, or JSON Python cannot hold: nested
    too deeply, integers of thousands of digits) or InvalidInput with clear problems.
    """
    body = await request.body()
    if len(body) > max_bytes:
        raise PayloadTooLarge(f"request body is {len(body)} bytes; the limit is {max_bytes}")
    content_type = request.headers.get("content-type")
    if body and not is_json(content_type):
        got = f"got {content_type!r}" if content_type else "none was sent"
        raise UnsupportedMediaType(f"send the body as JSON with Content-Type: application/json; {got}")
    try:
        data = json.loads(body)
    except RecursionError as e:
        raise MalformedJson("request body is nested too deeply to parse") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise MalformedJson(f"request body is not valid JSON: {e}") from e
    except ValueError as e:
        # Python refuses integers of more than 4,300 digits (a guard against slow
        # conversions); its message suggests a Python setting, useless to a caller.
        raise MalformedJson("request body holds a number too long to parse") from e
    try:
        return model.model_validate(data), data
    except ValidationError as e:
        raise InvalidInput(
            f"invalid {model.__name__}", problems_from_pydantic(e.errors(), drop_prefix=())
        ) from e


def _many_valued(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin in (list, tuple, set, frozenset):
        return True
    return any(_many_valued(a) for a in get_args(annotation)) if origin in (Union, UnionType) else False


def single_valued_query(request: Request) -> None:
    """A route dependency: a query parameter that takes one value, given several times, is
    a 422 naming it (FastAPI would silently keep the last one)."""
    dependant = getattr(request.scope.get("route"), "dependant", None)
    for param in getattr(dependant, "query_params", ()):
        if _many_valued(param.field_info.annotation):
            continue
        if len(request.query_params.getlist(param.alias)) > 1:
            raise InvalidInput(
                f"query parameter {param.alias} was given more than once",
                [Problem(f"query.{param.alias}", "give it once; it takes a single value")],
            )


class MalformedJson(InvalidInput):
    """The body could not be parsed as JSON."""


class PayloadTooLarge(InvalidInput):
    """The body is larger than the configured limit."""


class UnsupportedMediaType(InvalidInput):
    """The body was sent with a Content-Type other than application/json (or none)."""


def _status(e: HindsightError) -> tuple[int, str]:
    if isinstance(e, MalformedJson):
        return 400, "malformed_json"
    if isinstance(e, PayloadTooLarge):
        return 413, "payload_too_large"
    if isinstance(e, UnsupportedMediaType):
        return 415, "unsupported_media_type"
    if isinstance(e, IdempotencyConflict):
        return 409, "idempotency_conflict"
    if isinstance(e, InvalidInput):
        return 422, "invalid_request"
    if isinstance(e, NotFound):
        return 404, "not_found"
    if isinstance(e, Forbidden):
        return 403, "forbidden"
    if isinstance(e, AuthError):
        return 401, "unauthorized"
    if isinstance(e, RateLimited):
        return 429, "rate_limited"
    if isinstance(e, (PersistenceError, ProjectionError, ProviderError, ServiceUnavailable)):
        return 503, "unavailable"
    return 500, "internal"


def _http_error(request: Request, e: StarletteHTTPException) -> tuple[str, str]:
    """Our code and message for an HTTPException Starlette raised: the status's
    phrase as the code (``not_found``, ``method_not_allowed``), a message that says
    what to do instead of Starlette's bare phrase."""
    try:
        phrase = HTTPStatus(e.status_code).phrase
    except ValueError:
        phrase = "HTTP error"
    code = phrase.lower().replace(" ", "_").replace("-", "_")
    if isinstance(e.detail, str) and e.detail != phrase:
        return code, e.detail
    if e.status_code == 404:
        return code, f"no such path {request.url.path}; the API is described at /openapi.json"
    if e.status_code == 405:
        allowed = (e.headers or {}).get("Allow", "")
        return code, f"{request.method} is not allowed on {request.url.path}; allowed: {allowed}"
    return code, phrase


class _IdConvertor(StringConvertor):
    """A path segment that is an id: no ``/`` and no ``:``, so ``/v1/memories/{memory_id:id}``
    does not also match the action paths ``/v1/memories/{memory_id}:forget``."""

    regex = "[^/:]+"


register_url_convertor("id", _IdConvertor())

_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at the request's path. Starlette's own 405 names only
    the methods of the first route matching the path, so a path two routes share (GET and
    POST /v1/admin/keys) would answer a wrong ``Allow``."""
    out = []
    for method in _METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            out.append(method)
    return out


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HindsightError)
    async def _hindsight(_: Request, e: HindsightError) -> JSONResponse:
        status, code = _status(e)
        if status >= 500:
            log.error("request failed: %s: %s", type(e).__name__, e)
        problems = e.problems if isinstance(e, (InvalidInput, Forbidden)) else []
        headers = {"Retry-After": str(RETRY_AFTER_S)} if status == 503 else None
        if isinstance(e, RateLimited):
            headers = {"Retry-After": retry_after_header(e.retry_after_s)}
        elif status == 401:
            headers = {"WWW-Authenticate": 'Bearer realm="hindsight"'}
        return JSONResponse(error_body(code, str(e), problems), status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            error_body("invalid_request", "invalid request", problems_from_pydantic(list(e.errors()))),
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, e: StarletteHTTPException) -> Response:
        # Routing's own answers (no such path, wrong method) and static files'.
        if e.status_code in (204, 304):  # answers that may carry no body
            return Response(status_code=e.status_code, headers=e.headers)
        if e.status_code == 405:
            e.headers = {**(e.headers or {}), "Allow": ", ".join(allowed_methods(request))}
        return JSONResponse(
            error_body(*_http_error(request, e)), status_code=e.status_code, headers=e.headers
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, e: Exception) -> JSONResponse:
        # A bug, not the caller's fault: say so in our shape, and keep the exception's
        # text (which may hold data) out of the answer. The server logs the traceback
        # when Starlette re-raises after this answer is sent.
        log.error("%s %s failed unexpectedly: %s", request.method, request.url.path, type(e).__name__)
        return JSONResponse(
            error_body("internal", "internal error; the server log has the details"), status_code=500
        )
