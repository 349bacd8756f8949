"""What reflect does with interaction and control events.

For now it only tracks which sessions were closed; the reflection issue turns
closed sessions into ``MemoryExtracted`` events.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from hindsight_common.events import SessionClosed
from hindsight_common.ports.log import LogRecord, Position

log = logging.getLogger(__name__)


class Reflect:
    def __init__(self) -> None:
        self.closed_sessions = 0

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        closed = sum(isinstance(r.event, SessionClosed) for r in records)
        if closed:
            self.closed_sessions += closed
            log.info("reflect: %d session(s) closed (reflection not yet enabled)", closed)
