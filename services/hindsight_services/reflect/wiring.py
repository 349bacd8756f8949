"""reflect's wiring: consumer group ``reflect`` on interactions and control."""

from __future__ import annotations

from hindsight_common.consumer import Consumer
from hindsight_common.erasure import erasing
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.reflect_state import ReflectState
from hindsight_common.ports.reflector import Reflector
from hindsight_common.security.signing_keys import keyring_from_settings
from hindsight_common.security.screening import Screener
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, INTERACTIONS
from hindsight_services.reflect.handler import Reflect, ReflectPolicy

GROUP = "reflect"
STREAMS = (INTERACTIONS, CONTROL)


def policy(settings: Settings) -> ReflectPolicy:
    return ReflectPolicy(
        every_n_turns=settings.reflect_every_n_turns,
        idle_s=settings.reflect_idle_s,
        batch_episodes=settings.reflect_batch_episodes,
        summary_after=settings.summary_after_turns,
        keep_recent=settings.summary_keep_recent,
    )


def consumer(log: EventLog, state: ReflectState, reflector: Reflector, settings: Settings) -> Consumer:
    screener = Screener(settings.screening_trust) if settings.screening else None
    reflect = Reflect(log, state, reflector, policy(settings), screener=screener,
                      keyring=keyring_from_settings(settings))
    return Consumer(
        log,
        GROUP,
        STREAMS,
        erasing(reflect.handle, reflect.purge, what=GROUP),
        on_idle=reflect.tick,
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
