"""The embedding cache on the compacted Kafka topic ``hindsight.embeddings.v1`` (cluster).

One record per vector: key ``<model>\\n<content hash>``, value the little-endian float32
vector. The topic is compacted (``cleanup.policy=compact``), so Kafka keeps the latest
record of every key forever and the topic never grows past one record per (text, model).
It is created here if missing, with the same settings as the log's own topic plan
(``adapters/kafka_log.py`` creates it too, among its core streams).

Kafka has no lookup by key, so the adapter reads the whole topic once, on first use, into
memory (only the vectors of the models asked for, as bytes: about 1.5 KiB per 384-dim
vector) and then answers from there; ``put`` produces (``acks=all``, returning once the
brokers have it) and adds to memory. What other replicas put after this one started is
not seen until it restarts: a miss, embedded again, never a wrong vector.

Errors: aiokafka and socket errors and timeouts become PersistenceError.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError, for_code

from hindsight_common.errors import PersistenceError
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.streams import EMBEDDINGS
from hindsight_common.vector_bytes import from_bytes, to_bytes

log = logging.getLogger(__name__)

_ERRORS = (KafkaError, OSError, TimeoutError)
_TOPIC_EXISTS = 36


def record_key(model: str, digest: str) -> bytes:
    return f"{model}\n{digest}".encode()


class KafkaEmbeddingCache(EmbeddingCache):
    def __init__(
        self, bootstrap: str, *, topic_prefix: str = "", partitions: int = 3, replication: int = 1,
        timeout_s: float = 30.0, load_timeout_s: float = 600.0,
    ) -> None:
        self.topic = topic_prefix + EMBEDDINGS
        self._bootstrap = bootstrap
        self._partitions = partitions
        self._replication = replication
        self._timeout_s = timeout_s
        self._load_timeout_s = load_timeout_s
        self._lock = asyncio.Lock()
        self._producer: AIOKafkaProducer | None = None
        self._partition_ids: list[int] = []
        self._loaded: dict[str, dict[str, bytes]] = {}  # model -> content hash -> vector
        self._closed = False

    @asynccontextmanager
    async def _guard(self, what: str, timeout_s: float | None = None) -> AsyncIterator[None]:
        try:
            async with asyncio.timeout(timeout_s or self._timeout_s):
                yield
        except _ERRORS as e:
            raise PersistenceError(f"Kafka embedding cache {what} failed: {type(e).__name__}: {e}") from e

    async def _ensure_topic(self) -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=self._bootstrap,
                                    request_timeout_ms=int(self._timeout_s * 1000))
        try:
            async with self._guard("topic creation"):
                await admin.start()
                topic = NewTopic(self.topic, self._partitions, self._replication,
                                 topic_configs={"cleanup.policy": "compact"})
                response = (await admin.create_topics([topic])).to_object()
                for item in response["topic_errors"]:
                    code = int(item["error_code"])
                    if code not in (0, _TOPIC_EXISTS):
                        raise PersistenceError(
                            f"cannot create Kafka topic {self.topic!r}: {for_code(code).__name__}")
                # A topic just created reaches the brokers a moment after the controller
                # acknowledged it: wait until every partition has a leader.
                while True:
                    found = [d for d in await admin.describe_topics([self.topic])
                             if d["error_code"] == 0 and d["partitions"]
                             and all(p["leader"] >= 0 for p in d["partitions"])]
                    if found:
                        self._partition_ids = sorted(int(p["partition"]) for p in found[0]["partitions"])
                        return
                    await asyncio.sleep(0.05)
        finally:
            await admin.close()

    async def _started(self, model: str) -> tuple[AIOKafkaProducer, dict[str, bytes]]:
        async with self._lock:
            if self._closed:
                raise PersistenceError("the Kafka embedding cache is closed")
            if self._producer is None:
                await self._ensure_topic()
                producer = AIOKafkaProducer(bootstrap_servers=self._bootstrap, acks="all",
                                            enable_idempotence=True,
                                            request_timeout_ms=int(self._timeout_s * 1000))
                async with self._guard("producer start-up"):
                    await producer.start()
                self._producer = producer
            if model not in self._loaded:
                self._loaded[model] = await self._load(model)
            return self._producer, self._loaded[model]

    async def _load(self, model: str) -> dict[str, bytes]:
        """Every vector of ``model`` on the topic, read from the start to the current end."""
        prefix = record_key(model, "")
        out: dict[str, bytes] = {}
        reader = AIOKafkaConsumer(bootstrap_servers=self._bootstrap, group_id=None,
                                  enable_auto_commit=False, auto_offset_reset="earliest",
                                  request_timeout_ms=int(self._timeout_s * 1000))
        try:
            async with self._guard("read", self._load_timeout_s):
                await reader.start()
                tps = [TopicPartition(self.topic, p) for p in self._partition_ids]
                reader.assign(tps)
                await reader.seek_to_beginning(*tps)
                ends = await reader.end_offsets(tps)
                left = {tp for tp in tps if ends[tp] > 0}
                while left:
                    batches = await reader.getmany(*left, timeout_ms=1000, max_records=5000)
                    for tp, records in batches.items():
                        for r in records:
                            if r.key is not None and r.key.startswith(prefix):
                                if r.value is None:  # a tombstone: the entry was deleted
                                    out.pop(r.key[len(prefix):].decode(), None)
                                else:
                                    out[r.key[len(prefix):].decode()] = r.value
                    for tp in list(left):
                        if await reader.position(tp) >= ends[tp]:
                            left.discard(tp)
        finally:
            await reader.stop()
        return out

    async def get(self, model: str, hashes: Sequence[str]) -> dict[str, list[float]]:
        """A value on the topic that is not a float32 vector (a poison record: anyone
        who can write the topic can put one there) is a miss, not an error: the caller
        embeds the text again and its ``put`` overwrites the entry."""
        _, known = await self._started(model)
        out: dict[str, list[float]] = {}
        for h in dict.fromkeys(hashes):
            if h in known:
                try:
                    out[h] = from_bytes(known[h])
                except ValueError:
                    log.warning("embedding cache %s: the entry of %s is not a vector; embedding again", self.topic, h)
        return out

    async def put(self, model: str, vectors: Mapping[str, Sequence[float]]) -> None:
        producer, known = await self._started(model)
        encoded = {h: to_bytes(v) for h, v in vectors.items()}
        async with self._guard("produce"):
            sent = [await producer.send(self.topic, key=record_key(model, h), value=b)
                    for h, b in encoded.items()]
            await asyncio.gather(*sent)
        known.update(encoded)

    async def delete(self, model: str, hashes: Sequence[str]) -> None:
        """Tombstones (a null value): compaction then drops the entries from the topic,
        and every reader's load already leaves them out."""
        producer, known = await self._started(model)
        gone = list(dict.fromkeys(hashes))
        async with self._guard("produce"):
            sent = [await producer.send(self.topic, key=record_key(model, h), value=None) for h in gone]
            await asyncio.gather(*sent)
        for h in gone:
            known.pop(h, None)

    async def count(self, model: str) -> int:
        _, known = await self._started(model)
        return len(known)

    async def close(self) -> None:
        async with self._lock:
            self._closed = True
            producer, self._producer = self._producer, None
            self._loaded.clear()
        if producer is not None:
            await producer.stop()
