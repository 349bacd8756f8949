"""Group commit for the Kafka appender: concurrent appends to one partition share a send.

aiokafka's idempotent producer keeps one record batch per partition in its queue; a
second ``send_batch`` for the partition waits until the first is drained, and its wait
budget shrinks by the time elapsed since it began at every wake-up (aiokafka 0.14's
``MessageAccumulator.add_batch`` subtracts the total each time round), so a handful of
concurrent single-turn appends for one user ended in ``KafkaTimeoutError`` (a 503) long
before their deadline, and the rest went one round trip each.

So each partition has ONE writer here. Appends queue for it; while one record batch is
in flight the next ones wait, and the writer then sends every waiting append that fits
as ONE record batch. An append's records stay contiguous and in order inside one batch,
which the broker writes all or nothing, so each append is still atomic on its partition
(see ``kafka_append``); an append too big for one batch is sent alone, batch after batch,
as before. A caller that gives up (its deadline passed, or it was cancelled) before the
writer took its append never has it sent; one that gives up later may still see it land,
as with any timeout. Every append is answered only after the broker acknowledged it
(``acks="all"``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiokafka import AIOKafkaProducer

from hindsight_common.adapters.kafka_connection import KafkaConnection
from hindsight_common.errors import PersistenceError

log = logging.getLogger(__name__)

#: (key, value, headers) of one record.
Record = tuple[bytes, bytes, list[tuple[str, bytes]]]
#: Bytes a record may take in a batch beyond its key, value and headers (aiokafka's v2
#: record: length, attributes, deltas and the header varints are at most ~25 bytes).
_RECORD_OVERHEAD = 32
#: Room kept free in each batch for its own header (61 bytes in format v2).
_BATCH_OVERHEAD = 128


def record_size(record: Record) -> int:
    key, value, headers = record
    return len(key) + len(value) + sum(len(k) + len(v) + 8 for k, v in headers) + _RECORD_OVERHEAD


@dataclass
class Pending:
    """One caller's records for one partition and the answer it waits for: the offset of
    each record."""

    records: Sequence[Record]
    size: int
    answer: asyncio.Future[list[int]] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class PartitionWriter:
    """The only sender for one topic partition (see the module docstring)."""

    def __init__(
        self, conn: KafkaConnection, topic: str, partition: int, *, max_batch_bytes: int, timeout_s: float,
        producer: Callable[[], Awaitable[AIOKafkaProducer]],
        drop: Callable[[AIOKafkaProducer], Awaitable[None]],
    ) -> None:
        self._conn = conn
        self._topic = topic
        self._partition = partition
        self._max_batch = max_batch_bytes
        self._timeout_s = timeout_s
        self._producer = producer
        self._drop = drop
        self._queue: deque[Pending] = deque()
        self._task: asyncio.Task[None] | None = None
        self.sent_batches = 0  # record batches sent (more appends than batches = shared sends)

    def submit(self, records: Sequence[Record]) -> Pending:
        pending = Pending(records, sum(record_size(r) for r in records))
        self._queue.append(pending)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"kafka writer {self._topic}/{self._partition}")
        return pending

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def close(self) -> None:
        """Stop the writer; what is queued or in flight is answered with a PersistenceError."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._fail(list(self._queue), PersistenceError("the Kafka log is closed"))
        self._queue.clear()

    async def _run(self) -> None:
        group: list[Pending] = []
        try:
            while self._queue:
                group = self._take()
                if not group:
                    continue
                await self._send(group)
                group = []
        except asyncio.CancelledError:
            self._fail(group, PersistenceError("the Kafka log is closed"))
            raise
        except BaseException as e:  # never leave a caller waiting on a dead writer
            log.exception("the Kafka writer of %s/%d failed", self._topic, self._partition)
            self._fail([*group, *self._queue], PersistenceError(f"Kafka append failed: {type(e).__name__}: {e}"))
            self._queue.clear()

    def _take(self) -> list[Pending]:
        """The appends at the head of the queue that fit one batch together (at least
        one); those whose callers gave up are dropped unsent."""
        group: list[Pending] = []
        total = _BATCH_OVERHEAD
        while self._queue:
            head = self._queue[0]
            if head.answer.done():  # cancelled: the caller gave up before it was sent
                self._queue.popleft()
                continue
            if group and total + head.size > self._max_batch:
                break
            group.append(self._queue.popleft())
            total += head.size
        return group

    async def _send(self, group: list[Pending]) -> None:
        try:
            producer = await self._producer()
        except PersistenceError as e:  # no producer (the brokers are gone): these fail, the next may not
            self._fail(group, e)
            return
        batch, members = self._build(producer, group)
        for late in reversed(group[len(members) or 1:]):  # did not fit: the next batch takes them
            self._queue.appendleft(late)
        sent = members or group[:1]
        try:
            if not members:  # one append bigger than a batch: alone, batch after batch
                self._answer(group[0], await self._send_alone(producer, group[0].records))
                return
            base = await self._send_batch(producer, batch)
        except PersistenceError as e:
            await self._drop(producer)
            self._fail(sent, e)
            return
        for pending in members:
            self._answer(pending, list(range(base, base + len(pending.records))))
            base += len(pending.records)

    def _build(self, producer: AIOKafkaProducer, group: list[Pending]) -> tuple[Any, list[Pending]]:
        """One batch holding the longest prefix of ``group`` whose records all fit (an
        append is never split here); no members when the first alone does not fit."""
        for n in range(len(group), 0, -1):
            batch = producer.create_batch()
            if all(batch.append(key=k, value=v, timestamp=None, headers=h) is not None
                   for pending in group[:n] for k, v, h in pending.records):
                return batch, group[:n]
        return None, []

    async def _send_alone(self, producer: AIOKafkaProducer, records: Sequence[Record]) -> list[int]:
        """An append bigger than one batch: its records in as many batches as they need,
        one after the other (atomic per batch, not as a whole)."""
        offsets: list[int] = []
        batch, count = producer.create_batch(), 0
        for k, v, h in records:
            if batch.append(key=k, value=v, timestamp=None, headers=h) is None:
                base = await self._send_batch(producer, batch)
                offsets += range(base, base + count)
                batch, count = producer.create_batch(), 0
                if batch.append(key=k, value=v, timestamp=None, headers=h) is None:
                    raise PersistenceError(f"a {len(k) + len(v)}-byte record is over the Kafka batch limit")
            count += 1
        base = await self._send_batch(producer, batch)
        return offsets + list(range(base, base + count))

    async def _send_batch(self, producer: AIOKafkaProducer, batch: Any) -> int:
        async with self._conn.guard("append", self._timeout_s):
            delivered = await producer.send_batch(batch, self._topic, partition=self._partition)
            meta = await delivered
        self.sent_batches += 1
        return int(meta.offset)

    @staticmethod
    def _answer(pending: Pending, offsets: list[int]) -> None:
        if not pending.answer.done():
            pending.answer.set_result(offsets)

    @staticmethod
    def _fail(group: Sequence[Pending], error: BaseException) -> None:
        for pending in group:
            if not pending.answer.done():
                pending.answer.set_exception(error)
                # A caller that already gave up never reads it: no "never retrieved" noise.
                pending.answer.exception()
