"""Per-credential rate limits: one token bucket per key id, in this process.

Each key may send ``rate`` requests a second on average and ``burst`` at once. The
buckets live in memory, so each gateway replica limits on its own (N replicas admit up
to N times the rate); that bounds what one key can cost a replica, which is the point.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

# Buckets kept at most; the least recently used is dropped first (it would be full again
# by now unless its key is busy, and a busy key is recently used).
MAX_BUCKETS = 100_000


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """``take(key_id)``: 0.0 when the request may go ahead, else the seconds to wait."""

    def __init__(self, rate_per_s: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        if rate_per_s <= 0 or burst < 1:
            raise ValueError("a rate limit needs a positive rate and a burst of at least 1")
        self.rate = rate_per_s
        self.burst = burst
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()  # gRPC and HTTP may share one limiter

    def take(self, key_id: str) -> float:
        """Take one token from ``key_id``'s bucket. Returns 0.0 when there was one,
        otherwise how many seconds until there will be (nothing is taken then)."""
        with self._lock:
            now = self._clock()
            bucket = self._buckets.pop(key_id, None) or _Bucket(float(self.burst), now)
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.updated) * self.rate)
            bucket.updated = now
            self._buckets[key_id] = bucket
            if len(self._buckets) > MAX_BUCKETS:
                self._buckets.popitem(last=False)
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self.rate


def retry_after_header(wait_s: float) -> str:
    """Retry-After takes whole seconds: round up, so a client that waits is let in."""
    return str(max(1, math.ceil(wait_s)))
