"""The log contract against the real Kafka (idempotency keys in the real PostgreSQL),
plus what only a partitioned log has: keys, partitions, offset 0, rebalances, topics.

Every test gets its own topic prefix (topics ``<prefix>hindsight.*``, groups
``<prefix><group>``), deleted afterwards, and its own PostgreSQL schema.
"""

from __future__ import annotations

import base64
import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from hindsight_common.adapters.kafka_log import KafkaLog
from hindsight_common.security.sealed_log import SealedLog
from hindsight_common.security.sealed_reflect_state import SealedReflectState
from hindsight_common.adapters.kafka_records import KafkaRecord
from hindsight_common.adapters.kafka_subscription import KafkaSubscription
from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.adapters.postgres_reflect_state import PostgresReflectState
from hindsight_common.errors import ConfigurationError, PersistenceError
from hindsight_common.events import InteractionRecorded
from hindsight_common.factory import make_log, make_reflect_state
from hindsight_common.ports.log import EventLog, IdempotencyKey, position_key
from hindsight_common.settings import Settings
from hindsight_common.streams import EMBEDDINGS, INTERACTIONS, MEMORIES
from tests.contract.log_contract import LogContract, turn
from tests.servers import server_url

MakeLog = Callable[..., KafkaLog]


@pytest.fixture
def bootstrap() -> str:
    return server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka")


@pytest.fixture
def dsn() -> str:
    return server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL")


@pytest.fixture
async def schema(dsn: str) -> AsyncIterator[str]:
    name = f"test_{uuid.uuid4().hex[:12]}"
    yield name
    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()


@pytest.fixture
async def admin(bootstrap: str) -> AsyncIterator[AIOKafkaAdminClient]:
    client = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    await client.start()
    yield client
    await client.close()


@pytest.fixture
async def prefix(admin: AIOKafkaAdminClient) -> AsyncIterator[str]:
    """A fresh topic prefix; its topics are deleted after the test."""
    name = f"test-{uuid.uuid4().hex[:12]}."
    yield name
    topics = [t for t in await admin.list_topics() if t.startswith(name)]
    if topics:
        await admin.delete_topics(topics)


@pytest.fixture
async def make(bootstrap: str, dsn: str, schema: str, prefix: str) -> AsyncIterator[MakeLog]:
    """Builds KafkaLogs on this test's prefix and schema; closes them all afterwards."""
    opened: list[KafkaLog] = []

    def build(**options: object) -> KafkaLog:
        settings: dict[str, object] = {"topic_prefix": prefix, "timeout_s": 15.0, **options}
        log = KafkaLog(bootstrap, PostgresState(dsn, schema=schema), **settings)  # type: ignore[arg-type]
        opened.append(log)
        return log

    yield build
    for log in opened:
        await log.close()


class TestKafkaLog(LogContract):
    """One partition per topic: the contract reads partition 0 and expects one head."""

    @pytest.fixture
    def log(self, make: MakeLog) -> KafkaLog:
        return make(partitions=1, other_partitions=1)

    @pytest.fixture
    def reopen(self, make: MakeLog) -> Callable[[], Awaitable[EventLog]]:
        async def again() -> EventLog:
            return make(partitions=1, other_partitions=1)

        return again


async def test_a_users_events_stay_in_order_on_one_partition(make: MakeLog) -> None:
    log = make(partitions=6)
    users = [f"user-{i}" for i in range(8)]
    events = [turn(u, f"{u} says {n}") for n in range(3) for u in users]
    appended = await log.append(INTERACTIONS, events)
    where = {a.event_id: a for a in appended}
    assert [a.event_id for a in appended] == [e.event_id for e in events]
    partitions = {u: {where[e.event_id].partition for e in events if e.user == u} for u in users}
    assert all(len(p) == 1 for p in partitions.values())
    assert len(set().union(*partitions.values())) > 1  # the users are spread out
    head = await log.head(INTERACTIONS)
    for p in set().union(*partitions.values()):
        records = await log.read(INTERACTIONS, partition=p)
        assert [r.offset for r in records] == list(range(len(records)))  # Kafka's 0-based offsets
        assert head[position_key(INTERACTIONS, p)] == records[-1].offset
        for u in [u for u in users if partitions[u] == {p}]:
            mine = [r.event.content for r in records if r.event is not None and r.event.user == u]
            assert mine == [f"{u} says {n}" for n in range(3)]
            assert {r.key for r in records if r.event is not None and r.event.user == u} == {f"t1/{u}"}


async def test_offset_zero_is_a_position_like_any_other(make: MakeLog) -> None:
    log = make(partitions=1)
    [first] = await log.append(INTERACTIONS, [turn("u", "first")])
    assert first.offset == 0
    assert await log.head(INTERACTIONS) == {position_key(INTERACTIONS): 0}
    assert len(await log.read(INTERACTIONS)) == 1  # the default reads from the start
    assert await log.read(INTERACTIONS, after=0) == []  # after offset 0
    sub = await log.subscribe("g", [INTERACTIONS])
    assert await sub.committed() == {}
    batch = await sub.fetch(10, 2.0)
    assert [r.offset for r in batch] == [0]
    await sub.commit(batch)
    assert await sub.committed() == {position_key(INTERACTIONS): 0}  # applied offset 0
    await sub.close()
    raw = AIOKafkaConsumer(bootstrap_servers=log.bootstrap, group_id=log.topic_prefix + "g")
    try:
        await raw.start()
        assert await raw.committed(TopicPartition(log.topic(INTERACTIONS), 0)) == 1  # Kafka's "next"
    finally:
        await raw.stop()
    again = await log.subscribe("g", [INTERACTIONS])
    assert await again.fetch(10, 0.5) == []  # resumes at 1
    await again.seek({position_key(INTERACTIONS): 0})
    await log.append(INTERACTIONS, [turn("u", "second")])
    assert [r.offset for r in await again.fetch(10, 2.0)] == [1]
    await again.seek({})
    assert [r.offset for r in await again.fetch(10, 2.0)] == [0, 1]


async def test_a_seek_survives_a_rebalance_until_committed(make: MakeLog) -> None:
    log = make(partitions=2)
    events = [turn(f"user-{i}", f"m{i}") for i in range(12)]
    appended = await log.append(INTERACTIONS, events)
    by_partition = {p: [a.offset for a in appended if a.partition == p] for p in (0, 1)}
    assert all(by_partition.values())
    first = await log.subscribe("g", [INTERACTIONS])
    seen = []
    while len(seen) < 12:
        batch = await first.fetch(100, 2.0)
        await first.commit(batch)
        seen += batch
    await first.seek({})  # rebuild from the beginning (e.g. the projection was deleted)
    second = await log.subscribe("g", [INTERACTIONS])  # the group rebalances
    assert isinstance(first, KafkaSubscription) and isinstance(second, KafkaSubscription)
    for _ in range(100):  # the first member learns its new share a moment later
        if len(first.assignment()) == 1 and len(second.assignment()) == 1:
            break
        await asyncio.sleep(0.05)
    [kept] = first.assignment()
    p = int(kept.rsplit("#", 1)[1])
    replayed: list[int] = []
    for _ in range(20):
        replayed += [r.offset for r in await first.fetch(100, 0.5) if r.partition == p]
        if len(replayed) >= len(by_partition[p]):
            break
    assert replayed == by_partition[p]  # not the committed offset: the seek was re-applied
    assert await second.fetch(100, 0.5) == []  # its partition resumes at the committed offset


async def test_topics_are_created_with_their_retention_and_partitions(
    make: MakeLog, admin: AIOKafkaAdminClient
) -> None:
    log = make(partitions=4, other_partitions=2)
    assert await log.head(INTERACTIONS) == {}
    assert await log.partition_ids(INTERACTIONS) == [0, 1, 2, 3]
    assert await log.partition_ids(MEMORIES) == [0, 1]

    async def config(stream: str) -> dict[str, str]:
        [response] = await admin.describe_configs(
            [ConfigResource(ConfigResourceType.TOPIC, log.topic(stream))]
        )
        [resource] = response.to_object()["resources"]
        return {c["config_names"]: c["config_value"] for c in resource["config_entries"]}

    assert (await config(INTERACTIONS))["retention.ms"] == "-1"
    assert (await config(MEMORIES))["retention.ms"] == "-1"
    assert (await config(EMBEDDINGS))["cleanup.policy"] == "compact"


async def test_a_missing_stream_reads_empty_and_is_not_created(
    make: MakeLog, admin: AIOKafkaAdminClient
) -> None:
    log = make()
    assert await log.read("hindsight.deadletter.nobody.v1") == []
    assert await log.head("hindsight.deadletter.nobody.v1") == {}
    assert log.topic("hindsight.deadletter.nobody.v1") not in await admin.list_topics()


async def test_records_carry_event_and_trace_headers(make: MakeLog) -> None:
    log = make(partitions=1)
    event = InteractionRecorded(
        tenant="t1", user="u", session="s", speaker="Ann", role="user", content="hi",
        occurred_at=datetime(2024, 1, 1, tzinfo=UTC),
        trace={"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
    )
    await log.append(INTERACTIONS, [event])
    [record] = await log.read(INTERACTIONS)
    assert isinstance(record, KafkaRecord)
    headers = dict(record.headers)
    assert headers["hindsight-event-id"] == str(event.event_id).encode()
    assert headers["hindsight-event-type"] == b"InteractionRecorded"
    assert headers["traceparent"] == event.trace["traceparent"].encode()


async def test_idempotency_keys_are_shared_by_every_log_instance(make: MakeLog) -> None:
    one, two = make(partitions=1), make(partitions=1)
    key = IdempotencyKey("t1", "retry-me", "fp")
    # Three tries of one request race on two replicas: one appends, all get its answer.
    answers = await asyncio.gather(
        one.append(INTERACTIONS, [turn("u", "once")], idempotency=key),
        two.append(INTERACTIONS, [turn("u", "once")], idempotency=key),
        one.append(INTERACTIONS, [turn("u", "once")], idempotency=key),
    )
    assert answers[0] == answers[1] == answers[2]
    assert len(await two.read(INTERACTIONS)) == 1
    assert await two.append(INTERACTIONS, [turn("u", "once")], idempotency=key) == answers[0]


async def test_a_failed_append_releases_its_idempotency_key(make: MakeLog) -> None:
    log = make(partitions=1)
    key = IdempotencyKey("t1", "k", "fp")
    with pytest.raises(PersistenceError, match="topic"):
        await log.append("not a valid topic name!", [turn("u", "lost")], idempotency=key)
    [appended] = await log.append(INTERACTIONS, [turn("u", "kept")], idempotency=key)
    assert appended.offset == 0


async def test_an_unreachable_broker_is_a_persistence_error(dsn: str, schema: str) -> None:
    log = KafkaLog("127.0.0.1:1", PostgresState(dsn, schema=schema), timeout_s=5.0)
    try:
        with pytest.raises(PersistenceError):
            await log.append(INTERACTIONS, [turn("u", "nowhere")])
        with pytest.raises(PersistenceError):
            await log.head(INTERACTIONS)
    finally:
        await log.close()


async def test_the_factory_builds_the_cluster_adapters_and_names_missing_urls(
    bootstrap: str, dsn: str, tmp_path: Path
) -> None:
    cluster = Settings(data_dir=tmp_path, log_backend="kafka", kafka_bootstrap=bootstrap,
                       postgres_dsn=dsn, kafka_partitions=2, master_key=base64.b64encode(bytes(32)).decode())
    log, state = make_log(cluster), make_reflect_state(cluster)
    assert isinstance(log, SealedLog) and isinstance(log.inner, KafkaLog)
    assert isinstance(state, SealedReflectState) and isinstance(state.inner, PostgresReflectState)
    unsealed = make_reflect_state(cluster.model_copy(update={"seal_log": False}))
    assert isinstance(unsealed, PostgresReflectState)
    await unsealed.close()
    await log.close()  # nothing was started: no I/O until first use
    await state.close()
    with pytest.raises(ConfigurationError, match="HINDSIGHT_KAFKA_BOOTSTRAP"):
        make_log(cluster.model_copy(update={"kafka_bootstrap": None}))
    with pytest.raises(ConfigurationError, match="HINDSIGHT_POSTGRES_DSN"):
        make_log(cluster.model_copy(update={"postgres_dsn": None}))
    unkeyed = make_log(cluster.model_copy(update={"master_key": None}))  # read on first use
    with pytest.raises(ConfigurationError, match="HINDSIGHT_MASTER_KEY"):
        await unkeyed.append(INTERACTIONS, [InteractionRecorded(
            tenant="acme", user="ann", session="s1", speaker="Ann", role="user", content="hi",
            occurred_at=datetime(2024, 5, 1, tzinfo=UTC))])
    await unkeyed.close()
    with pytest.raises(ConfigurationError, match="HINDSIGHT_POSTGRES_DSN"):
        make_reflect_state(cluster.model_copy(update={"postgres_dsn": None}))


async def test_concurrent_appends_share_record_batches_and_stay_whole(make: MakeLog) -> None:
    # One user, one partition: 200 single-turn appends at once (aiokafka alone timed
    # them out, each waiting for the previous batch), and two 30-turn appends among them.
    log = make(partitions=1)
    singles = [[turn("u", f"single {i}")] for i in range(200)]
    blocks = [[turn("u", f"block {b} turn {j}") for j in range(30)] for b in range(2)]
    calls = [*singles[:100], blocks[0], *singles[100:], blocks[1]]
    answers = await asyncio.gather(*(log.append(INTERACTIONS, events) for events in calls))
    offsets = [a.offset for answer in answers for a in answer]
    assert sorted(offsets) == list(range(260))  # every event once, nothing else
    records = {r.offset: r.event for r in await log.read(INTERACTIONS, limit=1000)}
    for events, answer in zip(calls, answers, strict=True):
        assert [records[a.offset] for a in answer] == events  # each at the offset it was told
    for block in (answers[100], answers[-1]):  # an append is contiguous, in order
        assert [a.offset for a in block] == list(range(block[0].offset, block[0].offset + 30))
    assert log._appender.sent_batches < len(calls) // 2  # sends were shared


async def test_an_append_bigger_than_a_batch_still_lands_whole_beside_others(make: MakeLog) -> None:
    log = make(partitions=1, max_batch_bytes=4_000)
    big = [turn("u", f"big {j} " + "x" * 300) for j in range(40)]  # about 16 kB: several batches
    small = [[turn("u", f"small {i}")] for i in range(20)]
    answers = await asyncio.gather(log.append(INTERACTIONS, big),
                                   *(log.append(INTERACTIONS, events) for events in small))
    offsets = [a.offset for a in answers[0]]
    assert offsets == sorted(offsets)
    records = {r.offset: r.event for r in await log.read(INTERACTIONS, limit=1000)}
    assert len(records) == 60 and [records[o] for o in offsets] == big
    assert sorted(a.offset for answer in answers for a in answer) == list(range(60))


async def test_an_append_given_up_before_it_was_sent_never_lands(make: MakeLog) -> None:
    log = make(partitions=1)
    await log.append(INTERACTIONS, [turn("u", "first")])  # topic, producer and writer exist
    [writer] = log._appender._writers.values()
    in_flight = asyncio.create_task(log.append(INTERACTIONS, [turn("u", f"big {j}") for j in range(2000)]))
    given_up = asyncio.create_task(log.append(INTERACTIONS, [turn("u", "given up")]))
    for _ in range(10_000):  # until the big one is being sent and the small one waits behind it
        if writer._queue and writer.busy:
            break
        await asyncio.sleep(0)
    assert writer._queue, "the second append never queued behind the first"
    given_up.cancel()
    with pytest.raises(asyncio.CancelledError):
        await given_up
    assert len(await in_flight) == 2000
    [after] = await log.append(INTERACTIONS, [turn("u", "after")])
    contents = [r.event.content for r in await log.read(INTERACTIONS, limit=5000) if r.event is not None]
    assert "given up" not in contents and contents[-1] == "after" and after.offset == 2001
