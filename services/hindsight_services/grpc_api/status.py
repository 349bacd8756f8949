"""How a failed rpc is answered: each exception becomes a gRPC status with details.


    InvalidInput          INVALID_ARGUMENT  details: the message, then one
                                            ``field: message`` line per problem;
                                            trailing metadata ``hindsight-problems``:
                                            the problems as JSON
    IdempotencyConflict   ALREADY_EXISTS
    NotFound              NOT_FOUND
    Forbidden             PERMISSION_DENIED details and metadata as INVALID_ARGUMENT's
                                            (a scope or tenant the API key does not hold,
                                            an admin option without the admin scope)
    AuthError             UNAUTHENTICATED   no valid API key in metadata
                                            ``authorization: Bearer <key>``
    RateLimited           RESOURCE_EXHAUSTED  trailing metadata ``retry-after``: seconds
    PersistenceError,
    ProjectionError,
    ProviderError,
    ServiceUnavailable    UNAVAILABLE       details: what is down, "; retry later"
    anything else         INTERNAL          (logged; no internals in the details)
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc
from opentelemetry.trace import SpanKind
from pydantic import ValidationError

from hindsight_common.errors import (
    AuthError,
    Forbidden,
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
from hindsight_common.telemetry import span
from hindsight_services.http import problems_from_pydantic

log = logging.getLogger("hindsight_services.grpc_api.server")

PROBLEMS_METADATA = "hindsight-problems"

Q = TypeVar("Q")
R = TypeVar("R")
Metadata = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Failure:
    """What a caller is told when an rpc fails."""

    code: grpc.StatusCode
    details: str
    metadata: Metadata = ()


def _invalid(code: grpc.StatusCode, message: str, problems: list[Problem]) -> Failure:
    lines = [message, *(f"{p.field}: {p.message}" for p in problems)]
    as_json = json.dumps([{"field": p.field, "message": p.message} for p in problems])
    return Failure(code, "\n".join(lines), ((PROBLEMS_METADATA, as_json),))


def failure(e: Exception) -> Failure:
    """The status for an exception raised while answering an rpc."""
    if isinstance(e, IdempotencyConflict):
        return _invalid(grpc.StatusCode.ALREADY_EXISTS, e.message, e.problems)
    if isinstance(e, InvalidInput):
        return _invalid(grpc.StatusCode.INVALID_ARGUMENT, e.message, e.problems)
    if isinstance(e, ValidationError):  # a model built inside a handler
        return _invalid(grpc.StatusCode.INVALID_ARGUMENT, "invalid request",
                        problems_from_pydantic(e.errors(), drop_prefix=()))
    if isinstance(e, NotFound):
        return Failure(grpc.StatusCode.NOT_FOUND, str(e))
    if isinstance(e, Forbidden):
        return _invalid(grpc.StatusCode.PERMISSION_DENIED, e.message, e.problems)
    if isinstance(e, AuthError):
        return Failure(grpc.StatusCode.UNAUTHENTICATED, str(e))
    if isinstance(e, RateLimited):
        return Failure(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e),
                       (("retry-after", retry_after_header(e.retry_after_s)),))
    if isinstance(e, (PersistenceError, ProjectionError, ProviderError, ServiceUnavailable)):
        return Failure(grpc.StatusCode.UNAVAILABLE, f"{e}; retry later")
    return Failure(grpc.StatusCode.INTERNAL, "internal error")


def rpc_name(work: Callable[[], Awaitable[R]]) -> str:
    """The rpc a method's inner ``work`` belongs to: ``Gateway.Recall.<locals>.work`` → Recall."""
    return work.__qualname__.split(".<locals>")[0].rsplit(".", 1)[-1]


async def answer(
    context: grpc.aio.ServicerContext[Q, R], work: Callable[[], Awaitable[R]], rpc: str | None = None
) -> R:
    """Run one rpc's work in a SERVER span (continuing a ``traceparent`` in the call's
    metadata); on failure abort the call with the mapped status. ``rpc`` defaults to the
    name ``work`` was defined in."""
    metadata = {str(k): str(v) for k, v in (context.invocation_metadata() or ())}
    rpc = rpc or rpc_name(work)
    try:
        with span(f"hindsight.v1.Hindsight/{rpc}", {"rpc.system": "grpc", "rpc.method": rpc},
                  kind=SpanKind.SERVER, parent=metadata):
            return await work()
    except Exception as e:  # noqa: BLE001 - the rpc boundary: every failure becomes a status
        bad = failure(e)
        if bad.code == grpc.StatusCode.INTERNAL:
            log.exception("grpc call failed")
        elif bad.code == grpc.StatusCode.UNAVAILABLE:
            log.error("grpc call failed: %s: %s", type(e).__name__, e)
    await context.abort(bad.code, bad.details, bad.metadata)
