"""Access frequency: what recall returned, batched onto the log, and read back for rerank.

The query service notes the ids each recall returns (:meth:`AccessRecorder.note`,
in memory, no I/O on the request path); every ``flush_s`` seconds, and once more
on a clean stop, the counts go to the memories stream as one ``MemoryAccessed`` per
(tenant, user). Consolidate adds them up in an :class:`AccessCounts` store, and
rerank's access factor reads them back through :func:`access_lookup`.

Counting is best effort by design: a failed append keeps the counts for the next
flush, and the buffer is bounded (the oldest ids are dropped, and counted in
``dropped``) so an outage of the log never grows the query process without limit.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from pydantic import ValidationError

from hindsight_common.errors import PersistenceError
from hindsight_common.events import Event, MemoryAccessed, utcnow
from hindsight_common.events.memories import MAX_ACCESS_COUNTS
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.log import EventLog
from hindsight_common.recall.engine import AccessLookup
from hindsight_common.streams import MEMORIES

log = logging.getLogger(__name__)

MAX_BUFFERED_IDS = 100_000
MAX_ID_CHARS = 200
# (tenant, user, document id) -> times returned since the last successful flush.
Buffer = dict[tuple[str, str, str], int]


class AccessRecorder:
    """Buffers recall's returned ids and appends them as ``MemoryAccessed`` events.

    ``flush_s`` 0 turns recording off (``note`` does nothing, no task runs).
    """

    def __init__(
        self, log_: EventLog, flush_s: float, *, max_ids: int = MAX_BUFFERED_IDS, stream: str = MEMORIES
    ) -> None:
        self._log = log_
        self._flush_s = flush_s
        self._max_ids = max_ids
        self._stream = stream
        self._buffer: Buffer = {}  # insertion order = oldest first
        self._window_start: datetime | None = None
        self._flushing = asyncio.Lock()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.dropped = 0  # ids dropped because the buffer was full
        self.appended = 0  # MemoryAccessed events appended

    @property
    def enabled(self) -> bool:
        return self._flush_s > 0

    @property
    def buffered(self) -> int:
        """Distinct (tenant, user, id) entries waiting for a flush."""
        return len(self._buffer)

    def note(self, tenant: str, user: str, ids: Iterable[str]) -> None:
        """Count one return of each of ``ids`` (documents of ``user`` in ``tenant``)."""
        if not self.enabled:
            return
        if self._window_start is None:
            self._window_start = utcnow()
        for doc_id in ids:
            if not 0 < len(doc_id) <= MAX_ID_CHARS:
                continue  # not a document id any event could carry
            key = (tenant, user, doc_id)
            self._buffer[key] = self._buffer.get(key, 0) + 1
        self._bound()

    def _bound(self) -> None:
        excess = len(self._buffer) - self._max_ids
        if excess <= 0:
            return
        for key in list(itertools.islice(self._buffer, excess)):
            del self._buffer[key]
        self.dropped += excess
        log.warning("access buffer full: dropped %s oldest ids (%s in all)", excess, self.dropped)

    async def flush(self) -> int:
        """Append what is buffered; returns how many events were appended.

        On failure the counts stay buffered (ahead of anything noted meanwhile) and the
        error is raised: PersistenceError or whatever the log raised.
        """
        async with self._flushing:
            if not self._buffer:
                return 0
            taken, self._buffer = self._buffer, {}
            start, self._window_start = self._window_start or utcnow(), None
            events = to_events(taken, start, utcnow())
            if not events:
                return 0
            try:
                await self._log.append(self._stream, events)
            except BaseException:
                self._restore(taken, start)
                raise
            self.appended += len(events)
            return len(events)

    def _restore(self, taken: Buffer, start: datetime) -> None:
        for key, n in self._buffer.items():  # noted while the append was in flight
            taken[key] = taken.get(key, 0) + n
        self._buffer = taken
        self._window_start = start
        self._bound()

    async def _flush_quietly(self) -> None:
        try:
            await self.flush()
        except Exception as e:  # task boundary: the counts stay buffered for the next try
            log.warning("could not append access counts (%s ids kept for the next flush): %s",
                        len(self._buffer), e)

    async def _run(self) -> None:
        while not self._stop.is_set():
            try:
                await asyncio.wait_for(self._stop.wait(), self._flush_s)
            except TimeoutError:
                await self._flush_quietly()

    def start(self) -> None:
        """Start the periodic flush (nothing when recording is off). Idempotent."""
        if self.enabled and self._task is None:
            self._stop.clear()
            self._task = asyncio.create_task(self._run(), name="access-recorder")

    async def stop(self) -> None:
        """Stop the periodic flush and flush what is left. Idempotent."""
        self._stop.set()
        task, self._task = self._task, None
        if task is not None:
            await task
        await self._flush_quietly()


def to_events(buffer: Buffer, start: datetime, end: datetime) -> list[Event]:
    """One ``MemoryAccessed`` per (tenant, user), split to stay within its size bound."""
    by_user: dict[tuple[str, str], dict[str, int]] = {}
    for (tenant, user, doc_id), n in buffer.items():
        by_user.setdefault((tenant, user), {})[doc_id] = n
    events: list[Event] = []
    for (tenant, user), counts in by_user.items():
        items = list(counts.items())
        for at in range(0, len(items), MAX_ACCESS_COUNTS):
            try:
                events.append(MemoryAccessed(
                    tenant=tenant, user=user, occurred_at=end,
                    counts=dict(items[at : at + MAX_ACCESS_COUNTS]), window_start=start, window_end=end,
                ))
            except ValidationError as e:  # e.g. a user id no event may carry: never retried
                log.warning("dropped access counts that do not make a valid event: %s", e)
    return events


def access_lookup(store: AccessCounts, timeout_s: float = 1.0) -> AccessLookup:
    """Rerank's read of the counts: a store that is slow or down costs the access
    factor (every count reads as 0, with a warning), never the recall itself."""

    async def lookup(tenant: str, ids: Sequence[str]) -> Mapping[str, int]:
        try:
            return await asyncio.wait_for(store.get(tenant, ids), timeout_s)
        except (PersistenceError, TimeoutError) as e:
            log.warning("access counts unavailable; recall ranks without them: %s", e)
            return {}

    return lookup
