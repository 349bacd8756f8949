"""HTTP plumbing shared by the services that serve HTTP: error bodies, body limits.

Every error answer is JSON: ``{"error": {"code", "message", "problems": [{"field",
"message"}]}}`` so a caller can see which field is wrong and how to fix it.
"""

from __future__ import annotations

import json
import logging
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError

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
)

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)


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


async def parse_body(request: Request, model: type[M], max_bytes: int) -> tuple[M, bytes]:
    """Read and validate a JSON body; returns the model and the body's bytes.

    Raises PayloadTooLarge, MalformedJson (not JSON, or JSON Python cannot hold:
    nested too deeply, integers of thousands of digits) or InvalidInput with clear
    problems.
    """
    body = await request.body()
    if len(body) > max_bytes:
        raise PayloadTooLarge(f"request body is {len(body)} bytes; the limit is {max_bytes}")
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
        return model.model_validate(data), body
    except ValidationError as e:
        raise InvalidInput(
            f"invalid {model.__name__}", problems_from_pydantic(e.errors(), drop_prefix=())
        ) from e


class MalformedJson(InvalidInput):
    """The body could not be parsed as JSON."""


class PayloadTooLarge(InvalidInput):
    """The body is larger than the configured limit."""


def _status(e: HindsightError) -> tuple[int, str]:
    if isinstance(e, MalformedJson):
        return 400, "malformed_json"
    if isinstance(e, PayloadTooLarge):
        return 413, "payload_too_large"
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
    if isinstance(e, (PersistenceError, ProjectionError, ProviderError)):
        return 503, "unavailable"
    return 500, "internal"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HindsightError)
    async def _hindsight(_: Request, e: HindsightError) -> JSONResponse:
        status, code = _status(e)
        if status >= 500:
            log.error("request failed: %s: %s", type(e).__name__, e)
        problems = e.problems if isinstance(e, (InvalidInput, Forbidden)) else []
        return JSONResponse(error_body(code, str(e), problems), status_code=status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            error_body("invalid_request", "invalid request", problems_from_pydantic(list(e.errors()))),
            status_code=422,
        )
