"""The audit trail: admin actions on keys, failed authentications and refusals, and every
read and write of memories (``services/hindsight_services/audit_actions.py``), as
``AuditRecorded`` events on ``hindsight.audit.v1`` (append-only, never content).

Two ways in, because the kinds of event differ in what they may cost:

- :meth:`AuditTrail.record` appends at once and returns when the event is durable: an
  admin action (a key created or revoked) is answered only after its audit event is on
  the log.
- :meth:`AuditTrail.note` queues an event, appended in batches by a background task:
  failed authentications (anyone can send requests without a valid key; an fsync per
  refused request would let them load the disk at will) and the reads and writes, whose
  answer must not wait for an audit append. The queue is bounded: beyond ``max_pending``
  events waiting, new ones are dropped, counted in :attr:`dropped` and in the
  ``hindsight_audit_dropped_total`` metric, and logged, so a flood costs memory and log
  volume that are both bounded and never blocks a request.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from dataclasses import dataclass

from hindsight_common.errors import HindsightError
from hindsight_common.events.audit import AuditRecorded
from hindsight_common.errors import InvalidInput, Problem
from hindsight_common.ports.log import EventLog
from hindsight_common.streams import AUDIT
from hindsight_common.telemetry import metrics

log = logging.getLogger(__name__)

DEFAULT_FLUSH_S = 0.5
DEFAULT_MAX_PENDING = 1000
SCAN_PER_PARTITION = 1000  # records a page reads from each partition at most


@dataclass(frozen=True)
class AuditPage:
    """Audit events of one tenant, oldest first, and the cursor of the next page (pass it
    back for the next page; later, it shows what came since). ``more``: the log holds
    records after this page already (the next page may still be empty of this tenant's)."""

    events: list[AuditRecorded]
    next: str
    more: bool


def parse_cursor(cursor: str | None) -> dict[int, int]:
    """``"0:41,1:7"`` (partition:offset) as a mapping; raises InvalidInput."""
    out: dict[int, int] = {}
    for part in (cursor or "").split(","):
        if not part.strip():
            continue
        p, sep, o = part.partition(":")
        if not sep or not p.strip().isdigit() or not o.strip().lstrip("-").isdigit():
            raise InvalidInput("invalid cursor", [Problem("after", "pass the next cursor of an earlier page")])
        out[int(p)] = int(o)
    return out


def _cursor(position: dict[int, int]) -> str:
    return ",".join(f"{p}:{o}" for p, o in sorted(position.items()))


class AuditTrail:
    """Writes audit events to the log that ``get_log`` returns (once the service started)."""

    def __init__(self, get_log: Callable[[], EventLog], *, flush_s: float = DEFAULT_FLUSH_S,
                 max_pending: int = DEFAULT_MAX_PENDING) -> None:
        self._get_log = get_log
        self._flush_s = flush_s
        self._max_pending = max_pending
        self._pending: list[AuditRecorded] = []
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self.dropped = 0
        self.failed = 0

    async def record(self, event: AuditRecorded) -> None:
        """Append ``event`` now; returns once it is durable. Raises PersistenceError."""
        await self._get_log().append(AUDIT, [event])

    def note(self, event: AuditRecorded) -> None:
        """Queue ``event`` for the next batch (dropped and counted when the queue is full)."""
        if len(self._pending) >= self._max_pending:
            self.dropped += 1
            metrics.AUDIT_DROPPED.inc()
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning("audit queue full: %d audit events dropped so far", self.dropped)
            return
        self._pending.append(event)

    def start(self) -> None:
        """Start the background flusher (in the service's event loop)."""
        if self._task is None:
            self._stopping.clear()
            self._task = asyncio.create_task(self._run(), name="audit-flusher")

    async def stop(self) -> None:
        """Flush what is queued and stop the flusher. Idempotent."""
        task, self._task = self._task, None
        if task is not None:
            self._stopping.set()
            await task
        await self.flush()

    async def flush(self) -> None:
        """Append every queued event in one batch. A failed append is logged and counted,
        and its events are kept for the next try (within the queue's bound)."""
        batch, self._pending = self._pending, []
        if not batch:
            return
        try:
            await self._get_log().append(AUDIT, batch)
        except HindsightError as e:
            self.failed += 1
            log.error("audit events not written yet (%d waiting): %s", len(batch), e)
            self._pending = (batch + self._pending)[: self._max_pending]

    async def page(self, tenant: str, after: str | None = None, limit: int = 100) -> AuditPage:
        """``tenant``'s audit events after the cursor ``after``, oldest first (by when they
        were recorded), at most ``limit``. Raises InvalidInput (a bad cursor),
        PersistenceError."""
        log_ = self._get_log()
        position = parse_cursor(after)
        heads = await log_.head(AUDIT)
        partitions = sorted(int(k.rsplit("#", 1)[1]) for k in heads)
        found: list[tuple[AuditRecorded, int, int]] = []  # event, partition, offset
        scanned: dict[int, int] = {}
        full = False  # a partition had more than one scan's worth
        for p in partitions:
            kwargs = {"after": position[p]} if p in position else {}
            records = await log_.read(AUDIT, partition=p, limit=SCAN_PER_PARTITION, **kwargs)
            if records:
                scanned[p] = records[-1].offset
            full = full or len(records) >= SCAN_PER_PARTITION
            found += [(r.event, p, r.offset) for r in records
                      if isinstance(r.event, AuditRecorded) and r.event.tenant == tenant]
        found.sort(key=lambda f: (f[0].recorded_at, f[1], f[2]))
        taken, left = found[:limit], found[limit:]
        nxt = dict(position)
        for p, last in scanned.items():
            if not any(f[1] == p for f in left):
                nxt[p] = last  # everything read from p was this page's or not the tenant's
            elif any(f[1] == p for f in taken):
                nxt[p] = max(f[2] for f in taken if f[1] == p)
        return AuditPage([f[0] for f in taken], _cursor(nxt), more=full or bool(left))

    async def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(self._stopping.wait(), timeout=self._flush_s)
            except TimeoutError:
                pass
            await self.flush()
