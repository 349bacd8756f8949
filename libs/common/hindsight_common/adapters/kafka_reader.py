"""Reading the Kafka log outside any consumer group: one partition's records, and the
heads of a stream's partitions, through one group-less consumer.

Offsets are Kafka's own: 0-based, per partition. ``read`` returns the records with an
offset above ``after`` (``after=-1``: from the first record, as ``read(stream)`` means).
A head is the last offset of each partition that has any record.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition

from hindsight_common.adapters.kafka_connection import KafkaConnection, stop_consumer
from hindsight_common.adapters.kafka_records import KafkaRecord, RecentHeaders, decode_record
from hindsight_common.adapters.kafka_topics import KafkaTopics
from hindsight_common.ports.log import LogRecord, Position, position_key


class KafkaReader:
    """Reads and heads; also turns every fetched record into a KafkaRecord."""

    def __init__(self, conn: KafkaConnection, topics: KafkaTopics, recent_headers: RecentHeaders) -> None:
        self._conn = conn
        self._topics = topics
        self._recent_headers = recent_headers
        self._reader: AIOKafkaConsumer | None = None
        self._start_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    def to_record(self, r: Any) -> KafkaRecord:
        """A fetched aiokafka ConsumerRecord as a KafkaRecord (poison: event=None)."""
        record = decode_record(self._conn.stream(str(r.topic)), r)
        self._recent_headers.remember(record)  # for a dead letter of it (see append_raw)
        return record

    async def _started(self) -> AIOKafkaConsumer:
        await self._topics.admin()
        async with self._start_lock:
            self._conn.check_open()
            if self._reader is None:
                reader = self._conn.consumer(group_id=None)
                try:
                    async with self._conn.guard("start-up"):
                        await reader.start()
                except BaseException:
                    await stop_consumer(reader)
                    raise
                self._reader = reader
            return self._reader

    async def read(self, stream: str, *, after: int = -1, limit: int = 1000, partition: int = 0) -> list[LogRecord]:
        if limit <= 0 or partition not in await self._topics.partition_ids(stream):
            return []
        reader = await self._started()
        tp = TopicPartition(self._conn.topic(stream), partition)
        start = max(after + 1, 0)
        out: list[LogRecord] = []
        async with self._read_lock, self._conn.guard("read"):
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
        parts = await self._topics.partition_ids(stream)
        if not parts:
            return {}
        ends = await self.end_offsets([TopicPartition(self._conn.topic(stream), p) for p in parts])
        return {position_key(stream, tp.partition): end - 1 for tp, end in ends.items() if end > 0}

    async def end_offsets(
        self, tps: list[TopicPartition], timeout_s: float | None = None
    ) -> dict[TopicPartition, int]:
        """The next offset to be written on each partition. Raises PersistenceError."""
        reader = await self._started()
        async with self._conn.guard("head", timeout_s):
            ends = await reader.end_offsets(tps)
        return {tp: int(ends[tp]) for tp in tps}

    async def close(self) -> None:
        async with self._start_lock:
            reader, self._reader = self._reader, None
        if reader is not None:
            await stop_consumer(reader)
