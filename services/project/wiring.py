"""project's wiring: consumer group ``project`` on the interactions (and memories) streams."""

from __future__ import annotations

from hindsight_common.consumer import Consumer
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import TextIndex
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_services.project.handler import Project

GROUP = "project"
STREAMS = (INTERACTIONS, MEMORIES)


def consumer(log: EventLog, text: TextIndex, settings: Settings) -> Consumer:
    return Consumer(
        log,
        GROUP,
        STREAMS,
        Project(text).handle,
        resume_from=text.position,
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
