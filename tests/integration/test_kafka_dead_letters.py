"""Dead letters on the real Kafka, driven through the Consumer loop every service runs.

A record that Kafka carries fine but that holds no valid event (another producer's bug,
a hand-written message) must go to ``hindsight.deadletter.<group>.v1`` with the error
and the original headers, and the valid events behind it must still be processed.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime

import asyncpg
import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient

from hindsight_common.adapters.kafka_log import KafkaLog
from hindsight_common.adapters.kafka_records import KafkaRecord
from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.consumer import Consumer
from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.log import LogRecord, Position, position_key
from hindsight_common.streams import INTERACTIONS, dead_letter_stream
from tests.servers import server_url

GROUP = "dlq-test"
POISON = b'{"type": "InteractionRecorded", "content": 7}'
ORIGINAL_HEADERS = [
    ("traceparent", b"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
    ("x-origin", b"a producer with a bug"),
]


def turn(content: str) -> InteractionRecorded:
    return InteractionRecorded(tenant="t", user="u", session="s", speaker="Ann", role="user",
                               content=content, occurred_at=datetime(2024, 1, 1, tzinfo=UTC))


class Recording:
    """A handler that records what it applied and the positions it was given; it
    cannot handle content ``bad`` (a bug-shaped failure)."""

    def __init__(self, bad: str = "") -> None:
        self.bad = bad
        self.applied: list[str] = []
        self.positions: list[Position] = []

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        contents = [r.event.content for r in records]  # type: ignore[union-attr]
        if self.bad and self.bad in contents:
            raise ValueError(f"cannot handle {self.bad!r}")
        self.applied += contents
        self.positions.append(dict(position))


@pytest.fixture
async def log() -> AsyncIterator[KafkaLog]:
    bootstrap = server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka")
    dsn = server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL")
    prefix, schema = f"test-{uuid.uuid4().hex[:12]}.", f"test_{uuid.uuid4().hex[:12]}"
    log = KafkaLog(bootstrap, PostgresState(dsn, schema=schema), topic_prefix=prefix, timeout_s=15)
    yield log
    await log.close()
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        topics = [t for t in await admin.list_topics() if t.startswith(prefix)]
        if topics:
            await admin.delete_topics(topics)
    finally:
        await admin.close()
    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


async def run_until(consumer: Consumer, records: int) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    try:
        for _ in range(300):
            if consumer.processed >= records or task.done():
                break
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


async def dead_letters(log: KafkaLog) -> list[KafkaRecord]:
    stream = dead_letter_stream(GROUP)
    out = []
    for p in await log.partition_ids(stream):
        out += [r for r in await log.read(stream, partition=p) if isinstance(r, KafkaRecord)]
    return out


async def test_an_invalid_event_goes_to_the_dead_letters_and_the_rest_flows(log: KafkaLog) -> None:
    [before] = await log.append(INTERACTIONS, [turn("before the poison")])
    producer = AIOKafkaProducer(bootstrap_servers=log.bootstrap, acks="all")
    await producer.start()
    try:  # same key, so the same partition as the user's events, right behind them
        poison = await producer.send_and_wait(
            log.topic(INTERACTIONS), POISON, key=b"t/u", headers=ORIGINAL_HEADERS
        )
    finally:
        await producer.stop()
    assert poison.partition == before.partition and poison.offset == before.offset + 1
    after = await log.append(INTERACTIONS, [turn("after the poison"), turn("and one more")])

    handler = Recording()
    consumer = Consumer(log, GROUP, [INTERACTIONS], handler.handle, poll_timeout_s=0.1)
    await run_until(consumer, 4)

    assert handler.applied == ["before the poison", "after the poison", "and one more"]
    assert consumer.dead_lettered == 1
    [dead] = await dead_letters(log)
    body = json.loads(dead.raw)
    assert body["consumer"] == GROUP and body["stream"] == INTERACTIONS
    assert (body["partition"], body["offset"]) == (poison.partition, poison.offset)
    assert "invalid InteractionRecorded" in body["error"] and '"content": 7' in body["payload"]
    headers = dict(dead.headers)
    for name, value in ORIGINAL_HEADERS:
        assert headers[name] == value
    assert b"invalid InteractionRecorded" in headers["hindsight-dead-letter-error"]
    assert headers["hindsight-dead-letter-consumer"] == GROUP.encode()
    assert headers["hindsight-dead-letter-source"] == (
        f"{INTERACTIONS}#{poison.partition}@{poison.offset}".encode()
    )
    # The group's position is past the poison: a restart does not see it again.
    key = position_key(INTERACTIONS, before.partition)
    assert handler.positions[-1] == {key: after[-1].offset}
    sub = await log.subscribe(GROUP, [INTERACTIONS])
    assert await sub.committed() == {key: after[-1].offset}
    assert await sub.fetch(10, 0.5) == []
    await sub.close()


async def test_an_event_the_handler_cannot_process_is_dead_lettered_with_its_headers(
    log: KafkaLog,
) -> None:
    appended = await log.append(INTERACTIONS, [turn("a"), turn("bad"), turn("c")])
    handler = Recording(bad="bad")
    consumer = Consumer(log, GROUP, [INTERACTIONS], handler.handle, poll_timeout_s=0.1)
    await run_until(consumer, 3)
    assert handler.applied == ["a", "c"]
    [dead] = await dead_letters(log)
    assert json.loads(dead.raw)["offset"] == appended[1].offset
    headers = dict(dead.headers)
    assert headers["hindsight-event-id"] == str(appended[1].event_id).encode()
    assert b"cannot handle 'bad'" in headers["hindsight-dead-letter-error"]
