"""What project does with a batch of events: index their documents for keyword search."""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.documents import document_from_record
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.ports.projection import TextIndex


class Project:
    def __init__(self, text: TextIndex) -> None:
        self._text = text

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        """Idempotent: documents are keyed by id."""
        docs = [d for d in map(document_from_record, records) if d is not None]
        await self._text.upsert(docs, position)
