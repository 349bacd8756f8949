"""Appending to the Kafka log: one idempotent producer, one record batch per partition.

The producer runs with ``acks="all"`` and ``enable_idempotence=True`` (no duplicates or
reordering on its retries); an append returns once every record is acknowledged. Each
partition's share of an append is sent inside ONE record batch, which the broker writes
all or nothing, so an append for one user (the common case) is atomic; concurrent
appends to a partition share a batch (``kafka_group_commit``). One spanning several
partitions is not atomic (see ``kafka_log``). A partition's share over
``max_batch_bytes`` (~1 MB) is split into several batches, with the same limit. The key is
``partition_key(tenant, user)`` and the partition Kafka's murmur2 of it, so one user's
events stay in order on one partition.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from aiokafka import AIOKafkaProducer
from aiokafka.partitioner import DefaultPartitioner

from hindsight_common.adapters.kafka_connection import KAFKA_ERRORS, KafkaConnection, quietly
from hindsight_common.adapters.kafka_group_commit import PartitionWriter, Record
from hindsight_common.adapters.kafka_records import RecentHeaders, event_headers
from hindsight_common.adapters.kafka_topics import KafkaTopics
from hindsight_common.errors import PersistenceError
from hindsight_common.events import Event, serialize_event
from hindsight_common.ports.log import Appended
from hindsight_common.streams import partition_key

log = logging.getLogger(__name__)

_PARTITIONER = DefaultPartitioner()
_STOP_S = 10.0


async def _stop(producer: AIOKafkaProducer) -> None:
    """Stop a producer; one that cannot flush in time (brokers gone) is closed anyway.

    ``stop`` first waits for the pending batches; cancelled in that wait it would leave
    its sender task and its connections open, so those are closed here directly.
    """
    try:
        await asyncio.wait_for(producer.stop(), _STOP_S)
    except KAFKA_ERRORS:
        log.warning("a Kafka producer did not flush within %.0f s; closing it", _STOP_S)
        await quietly(producer._sender.close())  # aiokafka has no public abort
        await quietly(producer.client.close())


class KafkaAppender:
    """The producer side of the log (started on first append, replaced after a failure)."""

    def __init__(
        self, conn: KafkaConnection, topics: KafkaTopics, recent_headers: RecentHeaders,
        *, max_batch_bytes: int = 1_000_000, timeout_s: float | None = None,
    ) -> None:
        self._conn = conn
        self._topics = topics
        self._recent_headers = recent_headers
        self._max_batch = max_batch_bytes
        # Each step of an append (producer start, metadata, the send) has its own, usually
        # shorter, deadline: a caller waiting on a write should hear "unavailable" promptly.
        self._timeout_s = conn.timeout_s if timeout_s is None else timeout_s
        self._producer: AIOKafkaProducer | None = None
        self._lock = asyncio.Lock()
        self._stopping: set[asyncio.Task[None]] = set()
        self._writers: dict[tuple[str, int], PartitionWriter] = {}

    async def _started(self) -> AIOKafkaProducer:
        await self._topics.admin()
        async with self._lock:
            self._conn.check_open()
            if self._producer is None:
                producer = AIOKafkaProducer(
                    bootstrap_servers=self._conn.bootstrap, client_id=self._conn.client_id, acks="all",
                    enable_idempotence=True, max_batch_size=self._max_batch,
                    max_request_size=self._max_batch + 65_536,
                    request_timeout_ms=self._conn.request_timeout_ms(self._timeout_s),
                )
                try:
                    async with self._conn.guard("producer start-up", self._timeout_s):
                        await producer.start()
                except BaseException:
                    await _stop(producer)
                    raise
                self._producer = producer
            return self._producer

    async def _drop(self, producer: AIOKafkaProducer) -> None:
        # After a failed send an idempotent producer may be in a fatal state (e.g. an
        # out-of-order sequence); the next append starts a fresh one. It stops in the
        # background: with the brokers gone that takes seconds the caller, who is
        # waiting for its 503, should not wait for.
        async with self._lock:
            if self._producer is producer:
                self._producer = None
        stopping = asyncio.create_task(_stop(producer))
        self._stopping.add(stopping)
        stopping.add_done_callback(self._stopping.discard)

    async def produce(self, stream: str, events: Sequence[Event]) -> list[Appended]:
        """Append ``events``; returns where each landed once all are acknowledged.
        Concurrent appends to one partition share record batches (``kafka_group_commit``).
        Raises PersistenceError."""
        if not events:
            return []
        await self._topics.ensure_streams([stream])
        producer = await self._started()
        topic = self._conn.topic(stream)
        async with self._conn.guard("append", self._timeout_s):
            partitions = sorted(await producer.partitions_for(topic))
        shares = self._shares(partitions, events)  # may raise: nothing sent yet
        queued = [(indexes, self._writer(topic, p).submit(records)) for p, indexes, records in shares]
        try:
            async with self._conn.guard("append", self._timeout_s):
                results = await asyncio.gather(*(q.answer for _, q in queued), return_exceptions=True)
        except PersistenceError:
            for _, q in queued:  # not sent yet: never will be; in flight: may still land
                q.answer.cancel()
            raise
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            e = failed[0]
            if isinstance(e, PersistenceError):
                raise e
            raise PersistenceError(f"Kafka append failed: {type(e).__name__}: {e}") from e
        out: list[Appended | None] = [None] * len(events)
        for (p, indexes, _), offsets in zip(shares, results, strict=True):
            assert not isinstance(offsets, BaseException)
            for i, offset in zip(indexes, offsets, strict=True):
                out[i] = Appended(events[i].event_id, stream, p, offset)
        return [a for a in out if a is not None]

    def _writer(self, topic: str, partition: int) -> PartitionWriter:
        writer = self._writers.get((topic, partition))
        if writer is None:
            writer = self._writers[(topic, partition)] = PartitionWriter(
                self._conn, topic, partition, max_batch_bytes=self._max_batch, timeout_s=self._timeout_s,
                producer=self._started, drop=self._drop)
        return writer

    @property
    def sent_batches(self) -> int:
        """Record batches sent for appends so far (fewer than appends: shared sends)."""
        return sum(w.sent_batches for w in self._writers.values())

    def _shares(
        self, partitions: list[int], events: Sequence[Event]
    ) -> list[tuple[int, list[int], list[Record]]]:
        """Each partition's share of ``events``: their indexes and serialized records."""
        by_partition: dict[int, tuple[list[int], list[Record]]] = {}
        for i, event in enumerate(events):
            key = partition_key(event.tenant, event.user).encode()
            value = serialize_event(event)
            if len(value) + len(key) > self._max_batch:
                raise PersistenceError(
                    f"event {event.event_id} is {len(value)} bytes, over the"
                    f" {self._max_batch}-byte Kafka record limit"
                )
            indexes, records = by_partition.setdefault(_PARTITIONER(key, partitions, partitions), ([], []))
            indexes.append(i)
            records.append((key, value, event_headers(event)))
        return [(p, indexes, records) for p, (indexes, records) in by_partition.items()]

    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        """Append bytes as they are (dead letters carry their source's headers)."""
        await self._topics.ensure_streams([stream])
        producer = await self._started()
        topic = self._conn.topic(stream)
        headers = self._recent_headers.dead_letter_headers(stream, payload)
        try:
            async with self._conn.guard("append", self._timeout_s):
                partitions = sorted(await producer.partitions_for(topic))
                partition = _PARTITIONER(key.encode(), partitions, partitions)
                meta = await producer.send_and_wait(
                    topic, payload, key=key.encode(), partition=partition, headers=headers
                )
        except PersistenceError:
            await self._drop(producer)
            raise
        return Appended(UUID(int=0), stream, partition, int(meta.offset))

    async def close(self) -> None:
        await asyncio.gather(*(w.close() for w in self._writers.values()))
        async with self._lock:
            producer, self._producer = self._producer, None
        if producer is not None:
            await _stop(producer)
        if self._stopping:
            await asyncio.wait(set(self._stopping))
