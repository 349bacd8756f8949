"""A consumer-group subscription on Kafka (the ``Subscription`` port), built by ``kafka_log``.

One :class:`aiokafka.AIOKafkaConsumer` at a time per subscription, ``group_id`` = the
group, auto-commit off (commits happen only in :meth:`KafkaSubscription.commit`, which the
Consumer loop calls after its handler's write succeeded), ``auto_offset_reset=
"earliest"`` (a new group starts at the beginning). Offsets: see ``kafka_log``.

Seeking and rebalances. ``seek(position)`` moves every partition assigned now, and
remembers the position: a partition assigned later by a rebalance (another replica
joined or left, or this one rejoined) is moved there too, as long as this
subscription has not committed that partition since the seek. Otherwise Kafka's
committed offset would win, and a projection that is being rebuilt (behind the
group's committed offset) would skip records. A partition this subscription already
committed resumes from its committed offset. Re-applying a position that another
replica has since moved past only replays records, which projections absorb.

Recovering from a broker outage (``kafka_watchdog``). When fetches bring nothing while
the partitions this member owns have records it has not read, for longer than
``stall_after_s``, the aiokafka consumer is replaced by a new one, which rejoins the
group and resumes from the committed offsets (and a pending seek). :meth:`health` says
why the subscription cannot make progress, for the process's liveness check.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.abc import ConsumerRebalanceListener
from aiokafka.errors import CommitFailedError

from hindsight_common.adapters.kafka_connection import KAFKA_ERRORS, KafkaConnection, stop_consumer
from hindsight_common.adapters.kafka_topics import KafkaTopics
from hindsight_common.adapters.kafka_watchdog import EndOffsets, Watchdog
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.log import LogRecord, Position, Subscription, position_key

log = logging.getLogger(__name__)


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]  # aiokafka is untyped
    def __init__(self, sub: KafkaSubscription) -> None:
        self._sub = sub

    async def on_partitions_revoked(self, revoked: Any) -> None:
        return None  # nothing buffered to flush: commits follow each handled batch

    async def on_partitions_assigned(self, assigned: Any) -> None:
        self._sub.on_assigned(set(assigned))


class KafkaSubscription(Subscription):
    def __init__(
        self,
        conn: KafkaConnection,
        topics: KafkaTopics,
        group: str,
        streams: list[str],
        *,
        to_record: Callable[[Any], LogRecord],
        end_offsets: EndOffsets,
        on_close: Callable[[KafkaSubscription], None],
        stall_after_s: float = 30.0,
    ) -> None:
        self._conn = conn
        self._topics = topics
        self.group = group
        self._streams = streams
        self._to_record = to_record
        self._on_close = on_close
        self._consumer = conn.consumer(group)
        self._seek: dict[str, int] | None = None
        self._committed_since_seek: set[TopicPartition] = set()
        self._watchdog = Watchdog(group, end_offsets, self._known_next, stall_after_s=stall_after_s)
        self.rebuilds = 0  # how often the aiokafka consumer was replaced after a stall
        self._closed = False

    async def start(self) -> None:
        """Join the group; returns once this member has its first assignment."""
        try:
            await self._join(self._consumer)
        except BaseException:
            self._closed = True
            raise

    async def _join(self, consumer: AIOKafkaConsumer) -> None:
        consumer.subscribe(topics=[self._conn.topic(s) for s in self._streams], listener=_Rebalance(self))
        try:
            async with self._conn.guard("subscribe"):
                await consumer.start()
        except BaseException:
            await stop_consumer(consumer)
            raise

    def on_assigned(self, assigned: set[TopicPartition]) -> None:
        self._watchdog.assigned(assigned)
        if self._seek is None:
            return
        for tp in assigned:
            if tp not in self._committed_since_seek:
                self._seek_partition(tp)

    def _seek_partition(self, tp: TopicPartition) -> None:
        assert self._seek is not None
        applied = self._seek.get(position_key(self._conn.stream(tp.topic), tp.partition))
        # Kafka positions name the NEXT offset. 0 below the log start (retention,
        # compaction) is out of range, and auto_offset_reset moves it to the start.
        self._consumer.seek(tp, 0 if applied is None else applied + 1)
        self._watchdog.moved(tp, 0 if applied is None else applied + 1)

    async def _known_next(self, tp: TopicPartition) -> int:
        """Where this member resumes ``tp`` when the watchdog has not seen it fetched:
        the group's committed offset (0 when none). Raises PersistenceError."""
        async with self._conn.guard("committed offsets", min(self._conn.timeout_s, 10.0)):
            offset = await self._consumer.committed(tp)
        return int(offset or 0)

    def assignment(self) -> set[str]:
        """The position keys (``stream#partition``) this member owns right now."""
        owned = self._consumer.assignment()
        return {position_key(self._conn.stream(tp.topic), tp.partition) for tp in owned}

    async def fetch(self, max_records: int, timeout_s: float) -> list[LogRecord]:
        fetched = await self._getmany(max_records, timeout_s)
        out: list[LogRecord] = []
        for tp in sorted(fetched, key=lambda t: (t.topic, t.partition)):
            records = fetched[tp]
            if records:
                self._watchdog.fetched(tp, int(records[-1].offset) + 1)
            out += [self._to_record(r) for r in records]
        if not out and await self._watchdog.stalled(set(self._consumer.assignment())):
            await self._rebuild()
        return out

    async def _getmany(self, max_records: int, timeout_s: float) -> dict[TopicPartition, list[Any]]:
        # aiokafka's getmany waits WITHOUT a limit while the group hands out partitions
        # again, e.g. all through a broker outage once the coordinator was lost. So the
        # wait is bounded here: the loop keeps polling (its liveness stays known) and an
        # empty answer lets the watchdog look at the partitions.
        task = asyncio.ensure_future(
            self._consumer.getmany(timeout_ms=int(timeout_s * 1000), max_records=max_records)
        )
        try:
            done, _ = await asyncio.wait({task}, timeout=timeout_s + 1.0)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not done:
            task.cancel()
            await asyncio.wait({task})
            if not task.cancelled():
                task.exception()  # retrieved: a late error is as good as no answer
            return {}
        try:
            fetched: dict[TopicPartition, list[Any]] = task.result()
        except KAFKA_ERRORS as e:
            raise PersistenceError(f"Kafka fetch failed: {type(e).__name__}: {e}") from e
        return fetched

    async def _rebuild(self) -> None:
        """Replace the aiokafka consumer: the new one rejoins the group and resumes from
        the committed offsets, or from a seek not yet committed. Raises PersistenceError
        when it cannot join (the Consumer loop's supervisor then starts over)."""
        self.rebuilds += 1
        log.warning("%s: no progress while its partitions have unread records; rebuilding the"
                    " Kafka consumer (rebuild %d)", self.group, self.rebuilds)
        old, self._consumer = self._consumer, self._conn.consumer(self.group)
        await stop_consumer(old)
        await self._join(self._consumer)

    def health(self) -> str | None:
        return self._watchdog.problem()

    async def commit(self, records: Sequence[LogRecord]) -> None:
        last: dict[TopicPartition, int] = {}
        for r in records:
            tp = TopicPartition(self._conn.topic(r.stream), r.partition)
            last[tp] = max(last.get(tp, -1), r.offset)
        assigned = self._consumer.assignment()
        offsets = {tp: offset + 1 for tp, offset in last.items() if tp in assigned}
        if len(offsets) < len(last):
            log.info("%s: not committing partitions revoked by a rebalance", self.group)
        if not offsets:
            return
        async with self._conn.guard("commit"):
            try:
                await self._consumer.commit(offsets)
            except CommitFailedError as e:
                # The group rebalanced since the fetch: the partitions' new owner
                # resumes from the last commit and replays these (idempotent) records.
                log.warning("%s: commit after a rebalance was rejected: %s", self.group, e)
                return
        self._committed_since_seek.update(offsets)

    async def seek(self, position: Position) -> None:
        self._seek = dict(position)
        self._committed_since_seek = set()
        async with self._conn.guard("seek"):
            for tp in self._consumer.assignment():
                self._seek_partition(tp)

    async def committed(self) -> Position:
        out: dict[str, int] = {}
        for stream in self._streams:
            for p in await self._topics.partition_ids(stream):
                async with self._conn.guard("committed offsets"):
                    offset = await self._consumer.committed(TopicPartition(self._conn.topic(stream), p))
                if offset:  # None: never committed; 0: nothing applied
                    out[position_key(stream, p)] = int(offset) - 1
        return out

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._on_close(self)
        # A member that cannot leave cleanly times out of the group anyway.
        await stop_consumer(self._consumer, self._conn.timeout_s)
