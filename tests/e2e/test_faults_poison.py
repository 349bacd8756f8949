"""A poison record on every stream each service consumes, on the real Kafka: each goes to
the consumer group's dead-letter stream with the reason, and the valid events behind it
still flow. The groups and their streams are the services' own (``GROUP`` and ``STREAMS``
in each ``services/hindsight_services/<service>/wiring.py``), driven through the Consumer
loop every service runs (tests/integration/test_kafka_dead_letters.py checks one stream in
depth: headers, positions, a handler's own failure).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from aiokafka import AIOKafkaProducer

from hindsight_common.adapters.kafka_log import KafkaLog
from hindsight_common.adapters.kafka_records import KafkaRecord
from hindsight_common.consumer import Consumer
from hindsight_common.events import InteractionRecorded
from hindsight_common.events.base import Event
from hindsight_common.events.memories import MemoryForgotten, ReflectionRequested
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.streams import CONTROL, INTERACTIONS, MEMORIES, dead_letter_stream
from hindsight_services.consolidate import wiring as consolidate
from hindsight_services.embed import wiring as embed
from hindsight_services.project import wiring as project
from hindsight_services.reflect import wiring as reflect
from tests.integration.test_kafka_dead_letters import log, run_until

__all__ = ["log"]  # the fixture: a KafkaLog on the shared broker, topics of its own

SERVICES = {w.GROUP: tuple(w.STREAMS) for w in (embed, project, reflect, consolidate)}
# Kinds of poison, with what the dead letter's error says about each.
POISONS = [
    (b"\xff\xfe not even UTF-8", "not valid JSON"),
    (b"[1, 2, 3]", "must be a JSON object"),
    (b'{"type": "NoSuchEvent", "schema_version": 1}', "unknown event type"),
    (b'{"type": "InteractionRecorded", "content": 7}', "invalid InteractionRecorded"),
    (b'{"type": "MemoryForgotten", "memory_id": "not-a-uuid"}', "invalid MemoryForgotten"),
]
WHEN = datetime(2024, 1, 1, tzinfo=UTC)


def valid(stream: str) -> Event:
    """One valid event of the kind ``stream`` carries."""
    if stream == INTERACTIONS:
        return InteractionRecorded(tenant="t", user="u", session="s", speaker="Ann", role="user",
                                   content="fine", occurred_at=WHEN)
    if stream == MEMORIES:
        return MemoryForgotten(tenant="t", user="u", memory_id=uuid.uuid4(), occurred_at=WHEN)
    assert stream == CONTROL, stream
    return ReflectionRequested(tenant="t", user="u", session="s", occurred_at=WHEN)


class Seen:
    def __init__(self) -> None:
        self.ids: list[str] = []

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        self.ids += [str(r.event.event_id) for r in records if r.event is not None]


@pytest.mark.parametrize("group", sorted(SERVICES))
async def test_poison_on_every_consumed_stream_is_dead_lettered_and_the_rest_flows(
    log: KafkaLog, group: str
) -> None:
    streams = SERVICES[group]
    expected: list[str] = []
    poisoned: dict[tuple[str, int, int], str] = {}  # (stream, partition, offset) -> reason
    producer = AIOKafkaProducer(bootstrap_servers=log.bootstrap, acks="all")
    await producer.start()
    try:
        for i, stream in enumerate(streams):
            for j, (payload, reason) in enumerate(POISONS[i % 2 :: 2] if len(streams) > 1 else POISONS):
                [before] = await log.append(stream, [valid(stream)])
                sent = await producer.send_and_wait(log.topic(stream), payload, key=b"t/u")
                poisoned[(stream, sent.partition, sent.offset)] = reason
                [after] = await log.append(stream, [valid(stream)])
                expected += [str(before.event_id), str(after.event_id)]
    finally:
        await producer.stop()

    seen = Seen()
    consumer = Consumer(log, group, list(streams), seen.handle, poll_timeout_s=0.1)
    await run_until(consumer, len(expected) + len(poisoned))

    assert sorted(seen.ids) == sorted(expected)  # every valid event, none twice
    assert consumer.dead_lettered == len(poisoned)
    letters = []
    dead = dead_letter_stream(group)
    for p in await log.partition_ids(dead):
        letters += [r for r in await log.read(dead, partition=p) if isinstance(r, KafkaRecord)]
    found = {}
    for letter in letters:
        body = json.loads(letter.raw)
        assert body["consumer"] == group
        found[(body["stream"], body["partition"], body["offset"])] = body["error"]
    assert set(found) == set(poisoned)
    for where, reason in poisoned.items():
        assert reason in found[where], (where, found[where])
