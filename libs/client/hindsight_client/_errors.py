"""The client's exception tree, translated from the gateway's JSON error bodies.

    HindsightError            every error this package raises; ``status``, ``code`` and
    │                         ``problems`` when the gateway answered (``None``, ``None``, ())
    ├── InvalidRequest        400 / 413 / 422: the request is wrong; ``problems`` names each field
    ├── Unauthorized          401: missing, unknown or revoked API key
    │   └── Forbidden         403: insufficient ones: a scope or tenant the key does not
    │                         hold, an admin option (``include``); ``problems`` names it
    ├── RateLimited           429: the key is over its rate limit; retry after a pause
    ├── NotFound              404: no such memory (or route)
    ├── Conflict              409: an idempotency key reused with a different body
    ├── Unavailable           502 / 503 / 504: a backend is down; retrying later may succeed
    └── TransportError        no answer at all: connection refused or reset, or a timeout

The gateway's error body is ``{"error": {"code", "message", "problems": [{"field",
"message"}]}}``; anything else (a proxy's HTML page) still maps by status code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request: the field (dotted path) and what is wrong with it."""

    field: str
    message: str


class HindsightError(Exception):
    """Root of every error raised by hindsight_client; ``problems``: what the gateway's
    error body named (each field, and what is wrong with it), if anything."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        problems: tuple[Problem, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.problems = problems


class InvalidRequest(HindsightError):
    """The gateway rejected the request as invalid; nothing of it was recorded."""

    def __str__(self) -> str:
        if not self.problems:
            return self.message
        details = "; ".join(f"{p.field}: {p.message}" for p in self.problems)
        return f"{self.message} ({details})"


class Unauthorized(HindsightError):
    """Missing, wrong or insufficient credentials (pass ``api_key``)."""


class Forbidden(Unauthorized):
    """The key lacks the scope or tenant the call needs, or the call used an admin-only
    option without a key with the admin scope (pass ``admin_token``); ``problems`` names it."""


class RateLimited(HindsightError):
    """The API key sent more requests than the gateway's rate limit allows; wait a
    moment (the gateway's ``Retry-After``) and retry."""


class NotFound(HindsightError):
    """The thing asked for does not exist (in this tenant)."""


class Conflict(HindsightError):
    """The request conflicts with an earlier one (an idempotency key reused with another body)."""


class Unavailable(HindsightError):
    """The gateway or one of its backends is unavailable; the request may succeed later."""


class TransportError(HindsightError):
    """No answer from the gateway: it could not be reached, or it did not answer in time."""


_BY_STATUS: dict[int, type[HindsightError]] = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    429: RateLimited,
    413: InvalidRequest,
    422: InvalidRequest,
    502: Unavailable,
    503: Unavailable,
    504: Unavailable,
}


def error_from_response(status: int, body: bytes) -> HindsightError:
    """The exception for a non-2xx answer, built from the gateway's JSON error body."""
    message, code, problems = _parse_error_body(body)
    if not message:
        message = f"HTTP {status}"
    return _BY_STATUS.get(status, HindsightError)(message, status=status, code=code, problems=problems)


def _parse_error_body(body: bytes) -> tuple[str, str | None, tuple[Problem, ...]]:
    try:
        data: Any = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        # Not the gateway's JSON (a proxy page, a crash): keep a short excerpt.
        return body[:500].decode("utf-8", "replace").strip(), None, ()
    error = data.get("error") if isinstance(data, dict) else None
    if not isinstance(error, dict):
        # FastAPI's own {"detail": ...} answers, e.g. for an unknown route.
        detail = data.get("detail") if isinstance(data, dict) else None
        return (str(detail) if detail is not None else str(data)[:500]), None, ()
    problems = tuple(
        Problem(str(p.get("field", "")), str(p.get("message", "")))
        for p in error.get("problems") or ()
        if isinstance(p, dict)
    )
    code = error.get("code")
    return str(error.get("message", "")), (str(code) if code is not None else None), problems
