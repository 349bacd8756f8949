"""What consolidate does with memory events.

Today: it adds up recall's access counts (``MemoryAccessed``) for rerank's access
factor; merging, supersession and decay come with the consolidation issue. It
counts every record it saw, so its group position is real.
"""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.events import MemoryAccessed
from hindsight_common.ports.access import AccessCounts, AccessIncrement
from hindsight_common.ports.log import LogRecord, Position


def access_increments(records: Sequence[LogRecord]) -> list[AccessIncrement]:
    """The access counts the records carry, each with its place on the log."""
    return [
        AccessIncrement(r.event.tenant, r.event.counts, r.position_key, r.offset)
        for r in records
        if isinstance(r.event, MemoryAccessed)
    ]


class Consolidate:
    def __init__(self, accesses: AccessCounts) -> None:
        self._accesses = accesses
        self.seen = 0

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        """Idempotent: the store skips records at or below the position it holds, and
        records the batch position even when no record carried counts."""
        await self._accesses.add(access_increments(records), position)
        self.seen += len(records)
