"""consolidate's wiring: consumer group ``consolidate`` on the memories stream."""

from __future__ import annotations

from hindsight_common.consolidation.forgetting import ForgetPolicy
from hindsight_common.consumer import Consumer
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import Consolidate

GROUP = "consolidate"
STREAMS = (MEMORIES,)


def consumer(
    log: EventLog, settings: Settings, accesses: AccessCounts, embedder: Embedder | None = None
) -> Consumer:
    """Resumes where the access store stands, so a new (or deleted) store is rebuilt
    from the log's ``MemoryAccessed`` events; consolidation's fold is rebuilt from the
    log up to there first (``Consolidate.resume``). Its decisions go onto the memories
    stream; ``embedder`` (the one embed uses) finds near-duplicates. Every
    ``forget_interval_s`` it runs a forgetting pass."""
    consolidate = Consolidate(accesses, log, embedder, similarity=settings.consolidate_similarity,
                              policy=ForgetPolicy.from_settings(settings), forget_interval_s=settings.forget_interval_s)
    return Consumer(
        log,
        GROUP,
        STREAMS,
        consolidate.handle,
        resume_from=consolidate.resume,
        on_idle=consolidate.on_idle,
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
