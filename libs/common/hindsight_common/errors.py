"""The library's exception tree.

Every error Hindsight raises on purpose derives from :class:`HindsightError`.
Adapters translate driver errors (sqlite3, qdrant, httpx, ...) into one of the
subtrees below with ``raise ... from e``, so callers never catch a driver type.

    HindsightError
    ├── InvalidInput          bad request data; carries the list of problems
    │   └── IdempotencyConflict   same idempotency key, different body
    ├── NotFound              an id, session or stream that does not exist
    ├── AuthError             missing or insufficient credentials
    │   └── Forbidden             the credential lacks the scope or tenant asked for
    ├── RateLimited           a credential sent more requests than its rate limit
    ├── PersistenceError      the log or a state store failed; nothing acknowledged
    ├── ProjectionError       a projection (vector, text, graph) failed
    ├── ProviderError         an external model provider (embedder, LLM) failed
    ├── ServiceUnavailable    another Hindsight service (the gateway's ingest) did not answer
    └── ConfigurationError    settings that cannot work together

PersistenceError, ProjectionError, ProviderError and ServiceUnavailable are outages:
retrying later may succeed (HTTP 503 with ``Retry-After``, gRPC UNAVAILABLE).
"""

from __future__ import annotations

from dataclasses import dataclass


class HindsightError(Exception):
    """Root of every error Hindsight raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request: where (a dotted/indexed path) and what."""

    field: str
    message: str


class InvalidInput(HindsightError):
    """The caller sent something we cannot accept; nothing was written."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or []


class IdempotencyConflict(InvalidInput):
    """An idempotency key was reused with a different request body."""


class NotFound(HindsightError):
    """The thing asked for does not exist (in this tenant)."""


class AuthError(HindsightError):
    """Missing, invalid or insufficient credentials."""


class Forbidden(AuthError):
    """The caller may not use what it asked for: a scope its credential lacks, another
    tenant than its own, an admin-only option; ``problems`` names each such field.
    Nothing was read or written."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or []


class RateLimited(HindsightError):
    """A credential sent requests faster than its rate limit; ``retry_after_s`` says when
    the next one will be accepted (HTTP 429 with ``Retry-After``, gRPC RESOURCE_EXHAUSTED).
    Nothing was read or written."""

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class PersistenceError(HindsightError):
    """The log or a state store failed; the write was not acknowledged."""


class ProjectionError(HindsightError):
    """A projection (vector, text or graph index) failed to read or write."""


class ProviderError(HindsightError):
    """An external model provider (embedding model, LLM) failed."""


class ServiceUnavailable(HindsightError):
    """Another Hindsight service this one relies on (the gateway forwards writes to
    ingest) refused the connection or did not answer in time. After a refusal nothing
    was written; after a timeout the write may have been recorded, so a retry should
    carry the same idempotency key."""


class ConfigurationError(HindsightError):
    """Settings that cannot work (unknown backend, missing URL, ...)."""
