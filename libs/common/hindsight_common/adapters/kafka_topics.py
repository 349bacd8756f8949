"""Kafka topic administration for the log: creating topics with their retention, and
their partitions.

The adapter creates topics with the admin client, never through the broker's
auto-creation (which would apply its default 7-day retention): interactions, memories,
control and audit are kept forever (``retention.ms=-1``), embeddings are compacted,
dead-letter streams are created on demand and kept forever. Interactions get
``partitions`` partitions (default 6), other topics ``other_partitions`` (3).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import for_code

from hindsight_common.adapters.kafka_connection import KafkaConnection, quietly
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.log import Position, position_key
from hindsight_common.streams import AUDIT, CONTROL, EMBEDDINGS, INTERACTIONS, MEMORIES

CORE_STREAMS = (INTERACTIONS, MEMORIES, CONTROL, EMBEDDINGS, AUDIT)
_TOPIC_EXISTS = 36


class KafkaTopics:
    """The admin client (started on first use, when it also creates the core topics)."""

    def __init__(
        self, conn: KafkaConnection, *, partitions: int = 6, other_partitions: int = 3, replication: int = 1
    ) -> None:
        self._conn = conn
        self._partitions = partitions
        self._other_partitions = other_partitions
        self._replication = replication
        self._admin: AIOKafkaAdminClient | None = None
        self._lock = asyncio.Lock()
        self._ready: set[str] = set()  # topics known to exist

    def _plan(self, stream: str) -> tuple[int, dict[str, str]]:
        if stream == INTERACTIONS:
            return self._partitions, {"retention.ms": "-1"}
        if stream == EMBEDDINGS:
            return self._other_partitions, {"cleanup.policy": "compact"}
        return self._other_partitions, {"retention.ms": "-1"}

    async def admin(self) -> AIOKafkaAdminClient:
        """The started admin client; the core topics exist once it returns.
        Raises PersistenceError."""
        async with self._lock:
            self._conn.check_open()
            if self._admin is None:
                admin = AIOKafkaAdminClient(
                    bootstrap_servers=self._conn.bootstrap, client_id=self._conn.client_id,
                    request_timeout_ms=self._conn.request_timeout_ms(self._conn.timeout_s),
                )
                try:
                    async with self._conn.guard("start-up"):
                        await admin.start()
                        await self._create(admin, CORE_STREAMS)
                except BaseException:
                    await quietly(admin.close())
                    raise
                self._admin = admin
            return self._admin

    async def _create(self, admin: AIOKafkaAdminClient, streams: Iterable[str]) -> None:
        new = []
        for s in dict.fromkeys(streams):
            if self._conn.topic(s) not in self._ready:
                count, configs = self._plan(s)
                new.append(NewTopic(self._conn.topic(s), count, self._replication, topic_configs=configs))
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
        admin = await self.admin()
        async with self._conn.guard("topic creation"):
            await self._create(admin, streams)

    async def partition_ids(self, stream: str) -> list[int]:
        """The partitions of ``stream``'s topic; [] when the topic does not exist."""
        admin = await self.admin()
        topic = self._conn.topic(stream)
        async with self._conn.guard("metadata"):
            # Only existing topics are described: a metadata request for an unknown
            # topic would make a broker with auto-creation create it.
            if topic not in self._ready:
                if topic not in await admin.list_topics():
                    return []
                self._ready.add(topic)
            return (await self._partitions_of(admin, [topic]))[topic]

    async def group_position(self, group_id: str, streams: Iterable[str]) -> Position:
        """Consumer group ``group_id``'s committed position on ``streams`` (the last offset
        applied per partition: Kafka stores the next one to read), without joining it; a
        group that never committed has none. Raises PersistenceError."""
        admin = await self.admin()
        topics = {self._conn.topic(s): s for s in streams}
        async with self._conn.guard("consumer group offsets"):
            offsets = await admin.list_consumer_group_offsets(group_id)
        return {position_key(topics[tp.topic], tp.partition): int(meta.offset) - 1
                for tp, meta in offsets.items() if tp.topic in topics and meta.offset > 0}

    async def close(self) -> None:
        async with self._lock:
            admin, self._admin = self._admin, None
        if admin is not None:
            await quietly(admin.close())
