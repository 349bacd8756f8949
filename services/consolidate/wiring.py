"""consolidate's wiring: consumer group ``consolidate`` on the memories stream."""

from __future__ import annotations

from hindsight_common.consumer import Consumer
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.log import EventLog
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import Consolidate

GROUP = "consolidate"
STREAMS = (MEMORIES,)


def consumer(log: EventLog, settings: Settings, accesses: AccessCounts) -> Consumer:
    """Resumes where the access store stands, so a new (or deleted) store is
    rebuilt from the log's ``MemoryAccessed`` events."""
    return Consumer(
        log,
        GROUP,
        STREAMS,
        Consolidate(accesses).handle,
        resume_from=accesses.position,
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
