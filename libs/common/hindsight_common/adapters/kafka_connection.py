"""What every part of the Kafka log shares: where the brokers are, how streams are named,
and the deadline and error translation around each network call.

The modules of the Kafka adapter import in one direction (docs/architecture.md, "The Kafka
log"): ``kafka_log`` (the ``EventLog``) builds ``kafka_topics`` (admin), ``kafka_append``
(producer), ``kafka_reader`` (reads, heads) and ``kafka_subscription`` (consumer groups),
which all use this module and ``kafka_records`` (the record format).

Names: topics are the stream names behind an optional ``topic_prefix``, which also
prefixes consumer-group ids (environments or tests sharing one cluster).

Errors: aiokafka and socket errors and timeouts become PersistenceError; every network
call runs under ``timeout_s`` (:meth:`KafkaConnection.guard`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiokafka import AIOKafkaConsumer
from aiokafka.errors import KafkaError

from hindsight_common.errors import PersistenceError

log = logging.getLogger(__name__)

KAFKA_ERRORS = (KafkaError, OSError, TimeoutError)


class KafkaConnection:
    """The brokers' address, the client id, the topic prefix and the per-call deadline,
    and whether the log that owns them was closed."""

    def __init__(
        self, bootstrap: str, *, topic_prefix: str = "", timeout_s: float = 30.0, client_id: str = "hindsight"
    ) -> None:
        self.bootstrap = bootstrap
        self.topic_prefix = topic_prefix
        self.timeout_s = timeout_s
        self.client_id = client_id
        self.closed = False

    def topic(self, stream: str) -> str:
        return self.topic_prefix + stream

    def stream(self, topic: str) -> str:
        return topic[len(self.topic_prefix):] if topic.startswith(self.topic_prefix) else topic

    def check_open(self) -> None:
        """Raises PersistenceError once the log is closed."""
        if self.closed:
            raise PersistenceError("the Kafka log is closed")

    @asynccontextmanager
    async def guard(self, what: str, timeout_s: float | None = None) -> AsyncIterator[None]:
        """Run a block under a timeout, with Kafka errors as PersistenceError."""
        try:
            async with asyncio.timeout(self.timeout_s if timeout_s is None else timeout_s):
                yield
        except KAFKA_ERRORS as e:
            raise PersistenceError(f"Kafka {what} failed: {type(e).__name__}: {e}") from e

    @staticmethod
    def request_timeout_ms(deadline_s: float) -> int:
        """aiokafka's own request timeout for calls made under ``deadline_s``: shorter, so
        that aiokafka gives up first and closes what it opened (cancelled from outside in
        the middle of its bootstrap, it leaves the connection open)."""
        return max(1, int(deadline_s * 800))

    def consumer(self, group_id: str | None) -> AIOKafkaConsumer:
        """A (not yet started) consumer that never auto-commits and starts a new group
        at the beginning of each partition."""
        return AIOKafkaConsumer(
            bootstrap_servers=self.bootstrap, client_id=self.client_id, group_id=group_id,
            enable_auto_commit=False, auto_offset_reset="earliest",
            request_timeout_ms=self.request_timeout_ms(self.timeout_s),
        )


async def quietly(aw: Any) -> None:
    """Await a clean-up step; a failure is logged, never raised over the real error."""
    try:
        await asyncio.wait_for(aw, 10.0)
    except (*KAFKA_ERRORS, PersistenceError):
        log.warning("Kafka/idempotency-store clean-up step failed", exc_info=True)


async def stop_consumer(consumer: AIOKafkaConsumer, timeout_s: float = 10.0) -> None:
    """Stop a consumer (leaving its group); one that cannot within ``timeout_s`` (its
    brokers gone) gets its connections closed anyway, which ``stop`` cancelled half-way
    would leave open. Never raises a Kafka error."""
    try:
        await asyncio.wait_for(consumer.stop(), timeout_s)
    except (*KAFKA_ERRORS, PersistenceError):
        log.warning("a Kafka consumer did not stop within %.0f s; closing its connections", timeout_s)
        await quietly(consumer._client.close())  # aiokafka has no public abort
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise  # our own task is being cancelled
        # aiokafka's Fetcher.close() awaits the fetch tasks it has just cancelled, so a
        # fetch that was retrying (brokers gone) leaks its CancelledError out of stop().
        # That is what ended the consumers' tasks in silence in issue 14's outage.
        log.warning("a Kafka consumer's stop was cut short by its own fetcher; closing its connections")
        await quietly(consumer._client.close())
