"""reflect's wiring: consumer group ``reflect`` on interactions and control."""

from __future__ import annotations

from hindsight_common.consumer import Consumer
from hindsight_common.ports.log import EventLog
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, INTERACTIONS
from hindsight_services.reflect.handler import Reflect

GROUP = "reflect"
STREAMS = (INTERACTIONS, CONTROL)


def consumer(log: EventLog, settings: Settings) -> Consumer:
    return Consumer(
        log,
        GROUP,
        STREAMS,
        Reflect().handle,
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
