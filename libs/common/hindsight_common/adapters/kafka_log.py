"""Cluster log: Apache Kafka topics and consumer groups, through aiokafka.

Topics are the stream names (``hindsight.interactions.v1`` ...) behind an optional
``topic_prefix``, which also prefixes consumer-group ids (environments or tests sharing
one cluster). The adapter creates them with the admin client, never through the broker's
auto-creation (which would apply its default 7-day retention): interactions, memories,
control and audit are kept forever (``retention.ms=-1``), embeddings are compacted,
dead-letter streams are created on demand and kept forever. Interactions get
``partitions`` partitions (default 6), other topics ``other_partitions`` (3). The key is
``partition_key(tenant, user)`` and the partition Kafka's murmur2 of it, so one user's
events stay in order on one partition.

Offsets are Kafka's own: 0-based, per partition. A Position maps ``stream#partition`` to
the last offset APPLIED, an absent entry meaning "from the beginning", as with the SQLite
log: a consumer that applied offset 0 holds position 0 and resumes at 1. Kafka commits
the NEXT offset to read, so ``commit`` stores ``offset + 1``, ``committed`` answers
``committed - 1``, and ``seek`` moves a partition to ``offset + 1`` (to 0 when absent;
below the log start, after retention or compaction, the consumer resets to the start).
``read`` defaults to ``after=-1``: from the first record, as ``read(stream)`` means.

Atomicity. The producer runs with ``acks="all"`` and ``enable_idempotence=True`` (no
duplicates or reordering on its retries); ``append`` returns once every record is
acknowledged. Each partition's share of an append is sent as ONE record batch, which the
broker writes all or nothing, so an append for one user (the common case) is atomic.
One spanning several partitions is not: when one partition's batch fails after another's
was written, those events stay, ``append`` raises PersistenceError and releases the
idempotency key, and a retry appends them again under new event ids. A partition's share
over ``max_batch_bytes`` (~1 MB) is split into several batches, with the same limit.
Kafka transactions would close that gap; they are deliberately NOT used: every committed
transaction writes a control marker that takes an offset, so "end offset - 1" names a
marker no consumer ever applies and every projection would look behind forever; a
producer that dies mid-transaction stalls read_committed consumers of its partitions
until the transaction times out (a minute) unless each replica has a stable, unique
``transactional_id``; and one open transaction per producer serialises a process's appends.

Idempotency keys live in PostgreSQL (``postgres.PostgresState``, required for
``idempotency=``): the key is claimed before producing and the answer stored after, so
a retried batch appends nothing and gets the first answer; another fingerprint raises
IdempotencyConflict. A crash between the produce and the store leaves a pending claim,
taken over after its lease (the SQLite log commits both in one transaction).

Why aiokafka and not FastStream: the port is a pull API (``fetch`` a batch, handle it,
``commit`` it, ``seek`` to a projection's own position, read ``committed``) and the
shared ``consumer.Consumer`` loop already acknowledges only after the handler's write
succeeded. FastStream is a push framework whose Kafka subscriber acknowledges on
receipt by default (a projection crashing mid-write would lose the event) and keeps
seeking and explicit commits behind its own loop; wrapping it would mean rebuilding this
port on top of it, while aiokafka offers exactly the calls the port needs.

Errors: aiokafka and socket errors and timeouts become PersistenceError; every network
call runs under ``timeout_s``. Records whose bytes are no valid event come back as
``LogRecord(event=None, error=...)``; record format and dead-letter headers: ``kafka_records``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from uuid import UUID

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError, for_code
from aiokafka.partitioner import DefaultPartitioner

from hindsight_common.adapters.kafka_records import (
    KafkaRecord,
    RecentHeaders,
    decode_record,
    decode_result,
    encode_result,
    event_headers,
)
from hindsight_common.adapters.kafka_subscription import KafkaSubscription
from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.errors import ConfigurationError, PersistenceError
from hindsight_common.events import Event, serialize_event
from hindsight_common.ports.log import (
    Appended,
    EventLog,
    IdempotencyKey,
    LogRecord,
    Position,
    Subscription,
    position_key,
)
from hindsight_common.streams import (
    AUDIT,
    CONTROL,
    EMBEDDINGS,
    INTERACTIONS,
    MEMORIES,
    partition_key,
)

log = logging.getLogger(__name__)

CORE_STREAMS = (INTERACTIONS, MEMORIES, CONTROL, EMBEDDINGS, AUDIT)
KAFKA_ERRORS = (KafkaError, OSError, TimeoutError)
_TOPIC_EXISTS = 36
_PARTITIONER = DefaultPartitioner()


class KafkaLog(EventLog):
    """The log on Kafka; idempotency keys in PostgreSQL (``state``, owned and closed here)."""

    def __init__(
        self,
        bootstrap: str,
        state: PostgresState | None,
        *,
        topic_prefix: str = "",
        partitions: int = 6,
        other_partitions: int = 3,
        replication: int = 1,
        timeout_s: float = 30.0,
        max_batch_bytes: int = 1_000_000,
        client_id: str = "hindsight",
    ) -> None:
        self.bootstrap = bootstrap
        self.topic_prefix = topic_prefix
        self.timeout_s = timeout_s
        self.client_id = client_id
        self._state = state
        self._partitions = partitions
        self._other_partitions = other_partitions
        self._replication = replication
        self._max_batch = max_batch_bytes
        self._admin: AIOKafkaAdminClient | None = None
        self._reader: AIOKafkaConsumer | None = None
        self._producer: AIOKafkaProducer | None = None
        self._start_lock = asyncio.Lock()
        self._reader_lock = asyncio.Lock()
        self._ready: set[str] = set()  # topics known to exist
        self._subscriptions: set[KafkaSubscription] = set()
        self._recent_headers = RecentHeaders()
        self._closed = False

    # -- names -----------------------------------------------------------------------

    def topic(self, stream: str) -> str:
        return self.topic_prefix + stream

    def stream(self, topic: str) -> str:
        return topic[len(self.topic_prefix):] if topic.startswith(self.topic_prefix) else topic

    def _plan(self, stream: str) -> tuple[int, dict[str, str]]:
        if stream == INTERACTIONS:
            return self._partitions, {"retention.ms": "-1"}
        if stream == EMBEDDINGS:
            return self._other_partitions, {"cleanup.policy": "compact"}
        return self._other_partitions, {"retention.ms": "-1"}

    # -- plumbing --------------------------------------------------------------------

    @asynccontextmanager
    async def guard(self, what: str, timeout_s: float | None = None) -> AsyncIterator[None]:
        """Run a block under a timeout, with Kafka errors as PersistenceError."""
        try:
            async with asyncio.timeout(self.timeout_s if timeout_s is None else timeout_s):
                yield
        except KAFKA_ERRORS as e:
            raise PersistenceError(f"Kafka {what} failed: {type(e).__name__}: {e}") from e

    async def _start(self) -> tuple[AIOKafkaAdminClient, AIOKafkaConsumer]:
        """Connect the admin client and the reader, and create the core topics (once)."""
        async with self._start_lock:
            if self._closed:
                raise PersistenceError("the Kafka log is closed")
            if self._admin is None or self._reader is None:
                ms = int(self.timeout_s * 1000)
                admin = AIOKafkaAdminClient(
                    bootstrap_servers=self.bootstrap, client_id=self.client_id, request_timeout_ms=ms
                )
                reader = AIOKafkaConsumer(
                    bootstrap_servers=self.bootstrap, client_id=self.client_id, group_id=None,
                    enable_auto_commit=False, auto_offset_reset="earliest", request_timeout_ms=ms,
                )
                try:
                    async with self.guard("start-up"):
                        await admin.start()
                        await reader.start()
                        await self._create_topics(admin, CORE_STREAMS)
                except BaseException:
                    await _quietly(reader.stop())
                    await _quietly(admin.close())
                    raise
                self._admin, self._reader = admin, reader
            return self._admin, self._reader

    async def _producer_started(self) -> AIOKafkaProducer:
        await self._start()
        async with self._start_lock:
            if self._producer is None:
                producer = AIOKafkaProducer(
                    bootstrap_servers=self.bootstrap, client_id=self.client_id, acks="all",
                    enable_idempotence=True, max_batch_size=self._max_batch,
                    max_request_size=self._max_batch + 65_536,
                    request_timeout_ms=int(self.timeout_s * 1000),
                )
                try:
                    async with self.guard("producer start-up"):
                        await producer.start()
                except BaseException:
                    await _quietly(producer.stop())
                    raise
                self._producer = producer
            return self._producer

    async def _drop_producer(self, producer: AIOKafkaProducer) -> None:
        # After a failed send an idempotent producer may be in a fatal state (e.g. an
        # out-of-order sequence); the next append starts a fresh one.
        async with self._start_lock:
            if self._producer is producer:
                self._producer = None
        await _quietly(producer.stop())

    async def _create_topics(self, admin: AIOKafkaAdminClient, streams: Iterable[str]) -> None:
        new = []
        for s in dict.fromkeys(streams):
            if self.topic(s) not in self._ready:
                count, configs = self._plan(s)
                new.append(NewTopic(self.topic(s), count, self._replication, topic_configs=configs))
        if not new:
            return
        response = (await admin.create_topics(new)).to_object()
        for item in response["topic_errors"]:
            code = int(item["error_code"])
            if code not in (0, _TOPIC_EXISTS):
                raise PersistenceError(
                    f"cannot create Kafka topic {item['topic']!r}: {for_code(code).__name__}"
                    f" {item.get('error_message') or ''}".rstrip()
                )
        topics = [t.name for t in new]
        await self._partitions_of(admin, topics)
        self._ready.update(topics)

    @staticmethod
    async def _partitions_of(admin: AIOKafkaAdminClient, topics: list[str]) -> dict[str, list[int]]:
        """Partition ids of existing topics, once the broker's metadata shows each with
        a leader (a topic just created reaches the brokers a moment after the
        controller acknowledged it). Callers bound the wait with ``guard``."""
        while True:
            ready = {
                str(d["topic"]): sorted(int(p["partition"]) for p in d["partitions"])
                for d in await admin.describe_topics(topics)
                if d["error_code"] == 0 and d["partitions"]
                and all(p["leader"] >= 0 for p in d["partitions"])
            }
            if len(ready) == len(topics):
                return ready
            await asyncio.sleep(0.05)

    async def ensure_streams(self, streams: Iterable[str]) -> None:
        """Create the topics of ``streams`` that do not exist yet. Raises PersistenceError."""
        admin, _ = await self._start()
        async with self.guard("topic creation"):
            await self._create_topics(admin, streams)

    async def partition_ids(self, stream: str) -> list[int]:
        """The partitions of ``stream``'s topic; [] when the topic does not exist."""
        admin, _ = await self._start()
        topic = self.topic(stream)
        async with self.guard("metadata"):
            # Only existing topics are described: a metadata request for an unknown
            # topic would make a broker with auto-creation create it.
            if topic not in self._ready:
                if topic not in await admin.list_topics():
                    return []
                self._ready.add(topic)
            return (await self._partitions_of(admin, [topic]))[topic]

    def require_state(self) -> PostgresState:
        if self._state is None:
            raise ConfigurationError("idempotency keys need PostgreSQL: set HINDSIGHT_POSTGRES_DSN")
        return self._state

    # -- appending -------------------------------------------------------------------

    async def append(
        self,
        stream: str,
        events: Sequence[Event],
        *,
        idempotency: IdempotencyKey | None = None,
    ) -> list[Appended]:
        if idempotency is None:
            return await self._produce(stream, events)
        state = self.require_state()
        prior = await state.claim(idempotency)
        if prior is not None:
            return decode_result(prior)
        try:
            appended = await self._produce(stream, events)
        except BaseException:
            await _quietly(state.release(idempotency))
            raise
        try:
            await state.store(idempotency, encode_result(appended))
        except PersistenceError:
            # The events are durable, so the caller gets its answer; only the dedup
            # of a later retry is lost (the claim is taken over after its lease).
            log.exception("appended, but could not store the idempotency result")
        return appended

    async def _produce(self, stream: str, events: Sequence[Event]) -> list[Appended]:
        if not events:
            return []
        await self.ensure_streams([stream])
        producer = await self._producer_started()
        topic = self.topic(stream)
        async with self.guard("append"):
            partitions = sorted(await producer.partitions_for(topic))
        batches = self._batches(producer, partitions, events)  # may raise: nothing sent yet
        try:
            async with self.guard("append"):
                futures = [await producer.send_batch(b, topic, partition=p) for p, _, b in batches]
                results: list[Any] = await asyncio.gather(*futures, return_exceptions=True)
        except PersistenceError:
            await self._drop_producer(producer)
            raise
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            await self._drop_producer(producer)
            e = failed[0]
            raise PersistenceError(f"Kafka append failed: {type(e).__name__}: {e}") from e
        out: list[Appended | None] = [None] * len(events)
        for (p, indexes, _), meta in zip(batches, results, strict=True):
            for j, i in enumerate(indexes):
                out[i] = Appended(events[i].event_id, stream, p, int(meta.offset) + j)
        return [a for a in out if a is not None]

    def _batches(
        self, producer: AIOKafkaProducer, partitions: list[int], events: Sequence[Event]
    ) -> list[tuple[int, list[int], Any]]:
        """One record batch per partition (split only past ``max_batch_bytes``)."""
        by_partition: dict[int, list[int]] = {}
        keys = [partition_key(e.tenant, e.user).encode() for e in events]
        for i, key in enumerate(keys):
            by_partition.setdefault(_PARTITIONER(key, partitions, partitions), []).append(i)
        out: list[tuple[int, list[int], Any]] = []
        for p, indexes in by_partition.items():
            batch, members = producer.create_batch(), list[int]()
            for i in indexes:
                value, headers = serialize_event(events[i]), event_headers(events[i])
                if len(value) + len(keys[i]) > self._max_batch:
                    raise PersistenceError(
                        f"event {events[i].event_id} is {len(value)} bytes, over the"
                        f" {self._max_batch}-byte Kafka record limit"
                    )
                if batch.append(key=keys[i], value=value, timestamp=None, headers=headers) is None:
                    out.append((p, members, batch))
                    batch, members = producer.create_batch(), list[int]()
                    batch.append(key=keys[i], value=value, timestamp=None, headers=headers)
                members.append(i)
            out.append((p, members, batch))
        return out

    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        await self.ensure_streams([stream])
        producer = await self._producer_started()
        topic = self.topic(stream)
        headers = self._recent_headers.dead_letter_headers(stream, payload)
        try:
            async with self.guard("append"):
                partitions = sorted(await producer.partitions_for(topic))
                partition = _PARTITIONER(key.encode(), partitions, partitions)
                meta = await producer.send_and_wait(
                    topic, payload, key=key.encode(), partition=partition, headers=headers
                )
        except PersistenceError:
            await self._drop_producer(producer)
            raise
        return Appended(UUID(int=0), stream, partition, int(meta.offset))

    # -- reading ---------------------------------------------------------------------

    def to_record(self, r: Any) -> KafkaRecord:
        """A fetched aiokafka ConsumerRecord as a KafkaRecord (poison: event=None)."""
        record = decode_record(self.stream(str(r.topic)), r)
        self._recent_headers.remember(record)  # for a dead letter of it (see append_raw)
        return record

    async def read(
        self, stream: str, *, after: int = -1, limit: int = 1000, partition: int = 0
    ) -> list[LogRecord]:
        if limit <= 0 or partition not in await self.partition_ids(stream):
            return []
        _, reader = await self._start()
        tp = TopicPartition(self.topic(stream), partition)
        start = max(after + 1, 0)
        out: list[LogRecord] = []
        async with self._reader_lock, self.guard("read"):
            reader.assign([tp])
            try:
                end = int((await reader.end_offsets([tp]))[tp])
                if start >= end:
                    return []
                reader.seek(tp, start)
                while len(out) < limit:
                    fetched = await reader.getmany(tp, timeout_ms=500, max_records=limit - len(out))
                    out += [self.to_record(r) for r in fetched.get(tp, []) if r.offset >= start]
                    if await reader.position(tp) >= end:
                        break
            finally:
                reader.unsubscribe()  # stop background fetching for this partition
        return out[:limit]

    async def head(self, stream: str) -> Position:
        parts = await self.partition_ids(stream)
        if not parts:
            return {}
        _, reader = await self._start()
        tps = [TopicPartition(self.topic(stream), p) for p in parts]
        async with self.guard("head"):
            ends = await reader.end_offsets(tps)
        return {position_key(stream, tp.partition): int(ends[tp]) - 1 for tp in tps if ends[tp] > 0}

    async def subscribe(self, group: str, streams: Sequence[str]) -> Subscription:
        await self.ensure_streams(streams)
        sub = KafkaSubscription(self, self.topic_prefix + group, list(streams))
        await sub.start()
        self._subscriptions.add(sub)
        return sub

    def forget(self, sub: KafkaSubscription) -> None:
        self._subscriptions.discard(sub)

    async def close(self) -> None:
        async with self._start_lock:
            if self._closed:
                return
            self._closed = True
            producer, reader, admin = self._producer, self._reader, self._admin
            self._producer = self._reader = self._admin = None
        for sub in list(self._subscriptions):
            await sub.close()
        if producer is not None:
            await _quietly(producer.stop())
        if reader is not None:
            await _quietly(reader.stop())
        if admin is not None:
            await _quietly(admin.close())
        if self._state is not None:
            await _quietly(self._state.close())


async def _quietly(aw: Any) -> None:
    """Await a clean-up step; a failure is logged, never raised over the real error."""
    try:
        await asyncio.wait_for(aw, 10.0)
    except (*KAFKA_ERRORS, PersistenceError):
        log.warning("Kafka/PostgreSQL clean-up step failed", exc_info=True)
