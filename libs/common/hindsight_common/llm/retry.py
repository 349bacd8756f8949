"""When to try a provider again: exponential backoff with jitter, and ``Retry-After``.

Pure functions; the adapter does the waiting.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

__all__ = ["Backoff", "retry_after_seconds"]


@dataclass(frozen=True, slots=True)
class Backoff:
    """Exponential backoff with "equal jitter".

    The n-th consecutive failure waits between half and all of
    ``min(max_s, base_s * 2 ** (n - 1))``: the jitter spreads clients that failed together,
    and the guaranteed half keeps a retry from hammering a struggling server.
    """

    base_s: float = 0.5
    max_s: float = 20.0

    def __post_init__(self) -> None:
        if self.base_s < 0 or self.max_s < 0:
            raise ValueError("backoff times must not be negative")

    def delay(
        self, failures: int, rng: random.Random, retry_after_s: float | None = None
    ) -> float | None:
        """Return the seconds to wait after ``failures`` consecutive failures.

        A server's ``retry_after_s`` is a minimum. Returns None (give up now) when it is
        longer than ``max_s``: the caller had better postpone the whole piece of work.
        """
        ceiling = min(self.max_s, self.base_s * 2.0 ** max(0, failures - 1))
        delay = ceiling / 2 + rng.uniform(0, ceiling / 2)
        if retry_after_s is not None:
            if retry_after_s > self.max_s:
                return None
            delay = max(delay, retry_after_s)
        return delay


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Return the wait a server asked for, in seconds, or None when it did not say.

    Reads ``retry-after-ms`` (sent by OpenAI) and then ``retry-after`` (seconds or an HTTP
    date). ``headers`` should be case-insensitive (``httpx.Headers``); a plain dict needs
    lower-case names. ``now`` is the current Unix time (for tests).
    """
    milliseconds = _number(headers.get("retry-after-ms"))
    if milliseconds is not None:
        return milliseconds / 1000
    raw = headers.get("retry-after")
    if raw is None:
        return None
    seconds = _number(raw)
    if seconds is not None:
        return seconds
    try:
        when = parsedate_to_datetime(raw).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def _number(raw: str | None) -> float | None:
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None
