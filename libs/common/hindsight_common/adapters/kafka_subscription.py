"""A consumer-group subscription on Kafka (the ``Subscription`` port), used by ``kafka_log``.

One :class:`aiokafka.AIOKafkaConsumer` per subscription, ``group_id`` = the group,
auto-commit off (commits happen only in :meth:`KafkaSubscription.commit`, which the
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
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.abc import ConsumerRebalanceListener
from aiokafka.errors import CommitFailedError

from hindsight_common.errors import PersistenceError
from hindsight_common.ports.log import LogRecord, Position, Subscription, position_key

if TYPE_CHECKING:
    from hindsight_common.adapters.kafka_log import KafkaLog

log = logging.getLogger(__name__)


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]  # aiokafka is untyped
    def __init__(self, sub: KafkaSubscription) -> None:
        self._sub = sub

    async def on_partitions_revoked(self, revoked: Any) -> None:
        return None  # nothing buffered to flush: commits follow each handled batch

    async def on_partitions_assigned(self, assigned: Any) -> None:
        self._sub.on_assigned(set(assigned))


class KafkaSubscription(Subscription):
    def __init__(self, owner: KafkaLog, group: str, streams: list[str]) -> None:
        self._log = owner
        self.group = group
        self._streams = streams
        self._consumer = AIOKafkaConsumer(
            bootstrap_servers=owner.bootstrap,
            client_id=owner.client_id,
            group_id=group,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            request_timeout_ms=int(owner.timeout_s * 1000),
        )
        self._seek: dict[str, int] | None = None
        self._committed_since_seek: set[TopicPartition] = set()
        self._closed = False

    async def start(self) -> None:
        """Join the group; returns once this member has its first assignment."""
        self._consumer.subscribe(
            topics=[self._log.topic(s) for s in self._streams], listener=_Rebalance(self)
        )
        try:
            async with self._log.guard("subscribe"):
                await self._consumer.start()
        except BaseException:
            self._closed = True
            await self._consumer.stop()
            raise

    def on_assigned(self, assigned: set[TopicPartition]) -> None:
        if self._seek is None:
            return
        for tp in assigned:
            if tp not in self._committed_since_seek:
                self._seek_partition(tp)

    def _seek_partition(self, tp: TopicPartition) -> None:
        assert self._seek is not None
        applied = self._seek.get(position_key(self._log.stream(tp.topic), tp.partition))
        # Kafka positions name the NEXT offset. 0 below the log start (retention,
        # compaction) is out of range, and auto_offset_reset moves it to the start.
        self._consumer.seek(tp, 0 if applied is None else applied + 1)

    def assignment(self) -> set[str]:
        """The position keys (``stream#partition``) this member owns right now."""
        owned = self._consumer.assignment()
        return {position_key(self._log.stream(tp.topic), tp.partition) for tp in owned}

    async def fetch(self, max_records: int, timeout_s: float) -> list[LogRecord]:
        async with self._log.guard("fetch", timeout_s + self._log.timeout_s):
            fetched = await self._consumer.getmany(
                timeout_ms=int(timeout_s * 1000), max_records=max_records
            )
        out: list[LogRecord] = []
        for tp in sorted(fetched, key=lambda t: (t.topic, t.partition)):
            out += [self._log.to_record(r) for r in fetched[tp]]
        return out

    async def commit(self, records: Sequence[LogRecord]) -> None:
        last: dict[TopicPartition, int] = {}
        for r in records:
            tp = TopicPartition(self._log.topic(r.stream), r.partition)
            last[tp] = max(last.get(tp, -1), r.offset)
        assigned = self._consumer.assignment()
        offsets = {tp: offset + 1 for tp, offset in last.items() if tp in assigned}
        if len(offsets) < len(last):
            log.info("%s: not committing partitions revoked by a rebalance", self.group)
        if not offsets:
            return
        async with self._log.guard("commit"):
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
        async with self._log.guard("seek"):
            for tp in self._consumer.assignment():
                self._seek_partition(tp)

    async def committed(self) -> Position:
        out: dict[str, int] = {}
        for stream in self._streams:
            for p in await self._log.partition_ids(stream):
                async with self._log.guard("committed offsets"):
                    offset = await self._consumer.committed(TopicPartition(self._log.topic(stream), p))
                if offset:  # None: never committed; 0: nothing applied
                    out[position_key(stream, p)] = int(offset) - 1
        return out

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._log.forget(self)
        try:
            async with self._log.guard("leaving the group"):
                await self._consumer.stop()
        except PersistenceError:  # the member times out of the group anyway
            log.warning("%s: consumer did not stop cleanly", self.group, exc_info=True)
