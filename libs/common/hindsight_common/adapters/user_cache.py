"""Per-user in-memory indexes kept beside a durable store, within a memory budget.

An embedded projection (the SQLite text index, the Qdrant Edge shard) stays the durable
copy; a ``UserCache`` holds, per (tenant, user), an index built from it that answers the
user's searches faster. Its life cycle:

- the first search of a user finds nothing ready and claims the build (``claim_build``);
  the store answers until ``built`` hands the index over;
- writes to a user whose index is building are kept and applied on top when it is
  built (a write the build already read applies twice, so writes must be idempotent);
- writes to a ready user apply at once; writes to a user with no entry are ignored (it
  is read from the store when first searched);
- a user first written while the process runs starts empty and ready (``start_empty``);
- past the budget, the users searched longest ago are dropped (never the last one: a
  single user larger than the budget still gets its index).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, Protocol, TypeVar

log = logging.getLogger(__name__)
UserKey = tuple[str, str]


class Sized(Protocol):
    @property
    def live(self) -> int: ...

    def nbytes(self) -> int: ...


I = TypeVar("I", bound=Sized)
R = TypeVar("R")


class _State(Enum):
    BUILDING = "building"
    READY = "ready"


@dataclass
class _Entry(Generic[I]):
    state: _State
    index: I
    pending: list[Callable[[I], None]]
    used: float


class UserCache(Generic[I]):
    """The per-user indexes of one store, under one lock."""

    def __init__(self, budget_bytes: int, empty: Callable[[], I]) -> None:
        self._budget = budget_bytes
        self._empty = empty
        self._lock = threading.Lock()
        self._users: dict[UserKey, _Entry[I]] = {}
        self.follow_new_users = True  # False: ``fresh`` finds none (``Projection.defer_caches``)

    def empty(self) -> I:
        """A new empty index (what a build fills)."""
        return self._empty()

    def claim_build(self, key: UserKey) -> bool:
        """True once for a user that has no index yet: the caller builds it (``built``)
        and writes meanwhile are kept for it; False while it is building or ready."""
        with self._lock:
            if key in self._users:
                return False
            self._users[key] = _Entry(_State.BUILDING, self._empty(), [], time.monotonic())
            return True

    def built(self, key: UserKey, index: I) -> None:
        """The index a ``claim_build`` caller read from the store: the writes that came
        meanwhile are applied on top."""
        with self._lock:
            entry = self._users.get(key)
            if entry is None or entry.state is not _State.BUILDING:
                return  # purged or evicted while building
            for write in entry.pending:
                write(index)
            self._users[key] = _Entry(_State.READY, index, [], time.monotonic())
            self._evict()

    async def build(self, key: UserKey, read: Awaitable[I], what: str) -> I | None:
        """Await ``read`` (a claimed user's index, read from the store) and hand it over
        (``built``); on failure the claim is abandoned, so the next search tries again,
        and the store keeps answering meanwhile."""
        started = time.monotonic()
        try:
            index = await read
        except asyncio.CancelledError:
            self.abandon(key)
            raise
        except Exception:
            self.abandon(key)
            log.exception("reading the %s of a user into memory failed; the store keeps answering", what)
            return None
        self.built(key, index)
        log.info("the %s of a user in memory: %d entries in %.1f s", what, index.live, time.monotonic() - started)
        return index

    def abandon(self, key: UserKey) -> None:
        """A build that failed: the next search claims it again."""
        with self._lock:
            entry = self._users.get(key)
            if entry is not None and entry.state is _State.BUILDING:
                del self._users[key]

    def start_empty(self, key: UserKey) -> None:
        """A user with nothing in the store yet: ready at once, filled by its writes."""
        with self._lock:
            self._users.setdefault(key, _Entry(_State.READY, self._empty(), [], time.monotonic()))

    def fresh(self, users: set[UserKey], stored: set[UserKey], holds: Callable[[UserKey], bool]) -> set[UserKey]:
        """Of ``users`` (about to be written), those the store holds nothing of yet: their
        indexes can start empty and ready. ``holds`` asks the store, once per user:
        those it holds are remembered in ``stored`` and read when first searched."""
        out: set[UserKey] = set()
        if not self.follow_new_users:
            return out  # read when first searched: ``holds`` would say the store has them
        for key in users - stored:
            if self.known(key):
                continue
            if holds(key):
                stored.add(key)
            else:
                out.add(key)
        return out

    def known(self, key: UserKey) -> bool:
        with self._lock:
            return key in self._users

    def write(self, key: UserKey, change: Callable[[I], None], *, grows: bool = True) -> None:
        """A write to a user: applied when its index is ready, kept when it is building,
        ignored when it has none. ``grows``: the budget is checked after it."""
        with self._lock:
            entry = self._users.get(key)
            if entry is None:
                return
            if entry.state is _State.BUILDING:
                entry.pending.append(change)
                return
            change(entry.index)
            if grows:
                self._evict(keep=key)

    def read(self, key: UserKey, reader: Callable[[I], R]) -> R | None:
        """``reader`` over the user's ready index, under the lock (None: not ready)."""
        with self._lock:
            entry = self._users.get(key)
            if entry is None or entry.state is not _State.READY:
                return None
            entry.used = time.monotonic()
            return reader(entry.index)

    def drop(self, key: UserKey) -> None:
        with self._lock:
            self._users.pop(key, None)

    def drop_all(self) -> None:
        with self._lock:
            self._users.clear()

    def ready_indexes(self) -> tuple[list[I], int]:
        """The ready indexes, and how many users are building (for statistics)."""
        with self._lock:
            ready = [e.index for e in self._users.values() if e.state is _State.READY]
            return ready, len(self._users) - len(ready)

    def _evict(self, keep: UserKey | None = None) -> None:
        """Drop the users searched longest ago while over budget (never ``keep``, never
        the last one)."""
        sizes = {k: e.index.nbytes() for k, e in self._users.items() if e.state is _State.READY}
        total = sum(sizes.values())
        for k in sorted(sizes, key=lambda k: self._users[k].used):
            if total <= self._budget or len(sizes) <= 1:
                break
            if k == keep:
                continue
            total -= sizes.pop(k)
            del self._users[k]
