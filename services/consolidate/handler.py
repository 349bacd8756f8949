"""What consolidate does with memory events.

No memory events exist yet (reflection adds them); until then it consumes the
stream and counts what it saw, so its group position is real.
"""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.ports.log import LogRecord, Position


class Consolidate:
    def __init__(self) -> None:
        self.seen = 0

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        self.seen += len(records)
