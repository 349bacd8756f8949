"""Cluster log: Apache Kafka topics and consumer groups, through aiokafka.

This module is the ``EventLog``; the work is split by responsibility into modules that
import in one direction (docs/architecture.md, "The Kafka log"):

- ``kafka_connection``: addresses, topic names (``topic_prefix``), deadlines, errors;
- ``kafka_topics``: topic creation with retention and partitions (admin client);
- ``kafka_append``: the idempotent producer, one record batch per partition;
- ``kafka_reader``: reads and heads outside any group, and record decoding;
- ``kafka_subscription`` (+ ``kafka_watchdog``): consumer groups, seeks, rebalances, and
  recovery of a consumer that stopped making progress;
- ``kafka_records``: what a record looks like (key, value, headers, dead-letter headers).

Offsets are Kafka's own: 0-based, per partition. A Position maps ``stream#partition`` to
the last offset APPLIED, an absent entry meaning "from the beginning", as with the SQLite
log: a consumer that applied offset 0 holds position 0 and resumes at 1. Kafka commits
the NEXT offset to read, so ``commit`` stores ``offset + 1``, ``committed`` answers
``committed - 1``, and ``seek`` moves a partition to ``offset + 1`` (to 0 when absent;
below the log start, after retention or compaction, the consumer resets to the start).
``read`` defaults to ``after=-1``: from the first record, as ``read(stream)`` means.

Atomicity. An append for one user (one partition, the common case) is atomic: it is sent
as one record batch (``kafka_append``). One spanning several partitions is not: when one
partition's batch fails after another's was written, those events stay, ``append``
raises PersistenceError and releases the idempotency key, and a retry appends them again
under new event ids. Kafka transactions would close that gap; they are deliberately NOT
used: every committed transaction writes a control marker that takes an offset, so "end
offset - 1" names a marker no consumer ever applies and every projection would look
behind forever; a producer that dies mid-transaction stalls read_committed consumers of
its partitions until the transaction times out (a minute) unless each replica has a
stable, unique ``transactional_id``; and one open transaction per producer serialises a
process's appends.

Idempotency keys live in an ``IdempotencyStore`` (``ports/idempotency.py``; PostgreSQL in
the cluster, wired by ``factory.make_log``), required for ``idempotency=``: the key is
claimed before producing and the answer stored after, so a retried batch appends nothing
and gets the first answer; another fingerprint raises IdempotencyConflict. A crash
between the produce and the store leaves a pending claim, taken over after its lease
(the SQLite log commits both in one transaction).

Why aiokafka and not FastStream: the port is a pull API (``fetch`` a batch, handle it,
``commit`` it, ``seek`` to a projection's own position, read ``committed``) and the
shared ``consumer.Consumer`` loop already acknowledges only after the handler's write
succeeded. FastStream is a push framework whose Kafka subscriber acknowledges on
receipt by default (a projection crashing mid-write would lose the event) and keeps
seeking and explicit commits behind its own loop; wrapping it would mean rebuilding this
port on top of it, while aiokafka offers exactly the calls the port needs.

Errors: aiokafka and socket errors and timeouts become PersistenceError; every network
call runs under ``timeout_s``, each step of an append under ``append_timeout_s`` (default
the same), so that a write during an outage fails promptly (the API answers 503). Records whose bytes are no valid event come back as
``LogRecord(event=None, error=...)``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence

from hindsight_common.adapters.kafka_append import KafkaAppender
from hindsight_common.adapters.kafka_connection import KafkaConnection, quietly
from hindsight_common.adapters.kafka_records import RecentHeaders, decode_result, encode_result
from hindsight_common.adapters.kafka_reader import KafkaReader
from hindsight_common.adapters.kafka_subscription import KafkaSubscription
from hindsight_common.adapters.kafka_topics import KafkaTopics
from hindsight_common.errors import ConfigurationError, PersistenceError
from hindsight_common.events import Event
from hindsight_common.ports.idempotency import IdempotencyStore
from hindsight_common.ports.log import Appended, EventLog, IdempotencyKey, LogRecord, Position, Subscription

log = logging.getLogger(__name__)


class KafkaLog(EventLog):
    """The log on Kafka; idempotency keys in ``idempotency`` (owned and closed here)."""

    def __init__(
        self,
        bootstrap: str,
        idempotency: IdempotencyStore | None,
        *,
        topic_prefix: str = "",
        partitions: int = 6,
        other_partitions: int = 3,
        replication: int = 1,
        timeout_s: float = 30.0,
        max_batch_bytes: int = 1_000_000,
        client_id: str = "hindsight",
        stall_after_s: float = 30.0,
        append_timeout_s: float | None = None,
    ) -> None:
        self._conn = KafkaConnection(bootstrap, topic_prefix=topic_prefix, timeout_s=timeout_s, client_id=client_id)
        self._idempotency = idempotency
        self._topics = KafkaTopics(
            self._conn, partitions=partitions, other_partitions=other_partitions, replication=replication
        )
        recent_headers = RecentHeaders()
        self._appender = KafkaAppender(
            self._conn, self._topics, recent_headers, max_batch_bytes=max_batch_bytes, timeout_s=append_timeout_s
        )
        self._reader = KafkaReader(self._conn, self._topics, recent_headers)
        self._stall_after_s = stall_after_s
        self._subscriptions: set[KafkaSubscription] = set()
        self._close_lock = asyncio.Lock()

    @property
    def bootstrap(self) -> str:
        return self._conn.bootstrap

    @property
    def topic_prefix(self) -> str:
        return self._conn.topic_prefix

    @property
    def timeout_s(self) -> float:
        return self._conn.timeout_s

    def topic(self, stream: str) -> str:
        return self._conn.topic(stream)

    def stream(self, topic: str) -> str:
        return self._conn.stream(topic)

    async def ensure_streams(self, streams: Iterable[str]) -> None:
        """Create the topics of ``streams`` that do not exist yet. Raises PersistenceError."""
        await self._topics.ensure_streams(streams)

    async def partition_ids(self, stream: str) -> list[int]:
        """The partitions of ``stream``'s topic; [] when the topic does not exist."""
        return await self._topics.partition_ids(stream)

    def require_idempotency(self) -> IdempotencyStore:
        if self._idempotency is None:
            raise ConfigurationError("idempotency keys need PostgreSQL: set HINDSIGHT_POSTGRES_DSN")
        return self._idempotency

    async def append(
        self,
        stream: str,
        events: Sequence[Event],
        *,
        idempotency: IdempotencyKey | None = None,
    ) -> list[Appended]:
        if idempotency is None:
            return await self._appender.produce(stream, events)
        store = self.require_idempotency()
        prior = await store.claim(idempotency)
        if prior is not None:
            return decode_result(prior)
        try:
            appended = await self._appender.produce(stream, events)
        except BaseException:
            await quietly(store.release(idempotency))
            raise
        try:
            await store.store(idempotency, encode_result(appended))
        except PersistenceError:
            # The events are durable, so the caller gets its answer; only the dedup
            # of a later retry is lost (the claim is taken over after its lease).
            log.exception("appended, but could not store the idempotency result")
        return appended

    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        return await self._appender.append_raw(stream, key, payload)

    async def read(
        self, stream: str, *, after: int = -1, limit: int = 1000, partition: int = 0
    ) -> list[LogRecord]:
        return await self._reader.read(stream, after=after, limit=limit, partition=partition)

    async def head(self, stream: str) -> Position:
        return await self._reader.head(stream)

    async def group_position(self, group: str, streams: Sequence[str]) -> Position:
        return await self._topics.group_position(self._conn.topic_prefix + group, streams)

    async def subscribe(self, group: str, streams: Sequence[str]) -> Subscription:
        await self._topics.ensure_streams(streams)
        sub = KafkaSubscription(
            self._conn, self._topics, self._conn.topic_prefix + group, list(streams),
            to_record=self._reader.to_record, end_offsets=self._reader.end_offsets,
            on_close=self._subscriptions.discard, stall_after_s=self._stall_after_s,
        )
        await sub.start()
        self._subscriptions.add(sub)
        return sub

    async def close(self) -> None:
        async with self._close_lock:
            if self._conn.closed:
                return
            self._conn.closed = True
        for sub in list(self._subscriptions):
            await sub.close()
        await self._appender.close()
        await self._reader.close()
        await self._topics.close()
        if self._idempotency is not None:
            await quietly(self._idempotency.close())
