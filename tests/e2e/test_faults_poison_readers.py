"""Poison on the two topics no consumer group reads, on the real Kafka: the audit stream
(read only by ``AuditTrail.page``, for ``GET /v1/admin/audit`` and ``hindsight audit``)
and the compacted embeddings topic (read by embed's cache, ``KafkaEmbeddingCache``, when
it starts). Neither has a consumer loop that could dead-letter, so each reader must pass
a poison record over and keep serving the valid ones: the audit page lists the tenant's
events around it, and a cache entry that is not a vector of the model is a miss, embedded
again and overwritten (tests/e2e/test_faults_poison.py covers the streams that consumer
groups read)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from aiokafka import AIOKafkaProducer

from hindsight_common.adapters.kafka_embedding_cache import KafkaEmbeddingCache, record_key
from hindsight_common.adapters.kafka_log import KafkaLog
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.events.audit import AuditRecorded
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import content_hash
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.streams import AUDIT, EMBEDDINGS
from tests.integration.test_kafka_dead_letters import log

__all__ = ["log"]  # the fixture: a KafkaLog on the shared broker, topics of its own

AUDIT_POISON = [b"\xff\xfe not even UTF-8", b"[1, 2, 3]", b'{"type": "NoSuchEvent", "schema_version": 1}',
                b'{"type": "AuditRecorded", "action": 7}']


def audited(tenant: str, action: str) -> AuditRecorded:
    return AuditRecorded(tenant=tenant, user=tenant, occurred_at=datetime.now(UTC), action=action,
                         outcome="ok", interface="cli")


async def test_poison_on_the_audit_stream_is_passed_over(log: KafkaLog) -> None:
    tenant = f"audit-{uuid.uuid4().hex[:8]}"
    await log.append(AUDIT, [audited(tenant, "key.create")])
    producer = AIOKafkaProducer(bootstrap_servers=log.bootstrap, acks="all")
    await producer.start()
    try:
        for payload in AUDIT_POISON:
            await producer.send_and_wait(log.topic(AUDIT), payload, key=tenant.encode())
    finally:
        await producer.stop()
    await log.append(AUDIT, [audited(tenant, "key.revoke")])
    page = await AuditTrail(lambda: log).page(tenant)
    assert [e.action for e in page.events] == ["key.create", "key.revoke"]


async def test_a_poison_entry_in_the_embedding_cache_is_embedded_again(log: KafkaLog, embedder: Embedder) -> None:
    text = "Ann booked a table in Lisbon."
    digest = content_hash(text)
    producer = AIOKafkaProducer(bootstrap_servers=log.bootstrap, acks="all")
    cache = KafkaEmbeddingCache(log.bootstrap, topic_prefix=log.topic_prefix, timeout_s=20)
    await cache.count(embedder.model_id)  # creates the topic
    await cache.close()
    await producer.start()
    try:
        # Not float32 bytes at all; then a float32 vector of the wrong length.
        for poison in (b"\x01\x02\x03", b"\x00\x00\x80\x3f" * 3):
            await producer.send_and_wait(log.topic(EMBEDDINGS), poison, key=record_key(embedder.model_id, digest))
            cache = KafkaEmbeddingCache(log.bootstrap, topic_prefix=log.topic_prefix, timeout_s=20)
            cached = CachedEmbedder(embedder, cache)
            try:
                [vector] = await cached.embed([text])
                assert (cached.misses, cached.hits) == (1, 0)
                [model] = await embedder.embed([text])
                assert len(vector) == embedder.dim
                assert sum(a * b for a, b in zip(vector, model, strict=True)) > 0.999  # unit vectors
            finally:
                await cache.close()
    finally:
        await producer.stop()
    cache = KafkaEmbeddingCache(log.bootstrap, topic_prefix=log.topic_prefix, timeout_s=20)
    cached = CachedEmbedder(embedder, cache)
    try:  # the entry was overwritten with the model's vector
        await cached.embed([text])
        assert (cached.misses, cached.hits) == (0, 1)
    finally:
        await cache.close()
