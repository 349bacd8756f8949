"""The embedding cache contract against SQLite (embedded) and the real Kafka broker
(a compacted topic of the test's own, deleted afterwards)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from hindsight_common.adapters.kafka_embedding_cache import KafkaEmbeddingCache
from hindsight_common.adapters.sqlite_embedding_cache import SqliteEmbeddingCache
from hindsight_common.factory import make_embedding_cache
from hindsight_common.ports.embedding_cache import EmbeddingCache, content_hash
from hindsight_common.settings import Settings
from hindsight_common.streams import EMBEDDINGS
from tests.contract.embedding_cache_contract import BGE, EmbeddingCacheContract, vec
from tests.servers import server_url


class TestSqliteEmbeddingCache(EmbeddingCacheContract):
    @pytest.fixture
    def make(self, tmp_path: Path) -> Callable[[], EmbeddingCache]:
        return lambda: SqliteEmbeddingCache(tmp_path / "state" / "embeddings.sqlite3")


@pytest.fixture
def bootstrap() -> str:
    return server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka")


@pytest.fixture
async def prefix(bootstrap: str) -> AsyncIterator[str]:
    name = f"test-{uuid.uuid4().hex[:10]}."
    yield name
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.delete_topics([name + EMBEDDINGS])
    finally:
        await admin.close()


class TestKafkaEmbeddingCache(EmbeddingCacheContract):
    @pytest.fixture
    def make(self, bootstrap: str, prefix: str) -> Callable[[], EmbeddingCache]:
        return lambda: KafkaEmbeddingCache(bootstrap, topic_prefix=prefix, timeout_s=20)

    async def test_the_topic_is_compacted(self, bootstrap: str, prefix: str,
                                          make: Callable[[], EmbeddingCache]) -> None:
        cache = make()
        await cache.put(BGE, {content_hash("x"): vec(1)})
        await cache.close()
        admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        await admin.start()
        try:
            described = await admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, prefix + EMBEDDINGS)])
        finally:
            await admin.close()
        configs = {c[0]: c[1] for c in described[0].resources[0][4]}
        assert configs["cleanup.policy"] == "compact"


def test_the_factory_picks_the_cache_of_the_log_backend(tmp_path: Path) -> None:
    assert isinstance(make_embedding_cache(Settings(data_dir=tmp_path)), SqliteEmbeddingCache)
    kafka = make_embedding_cache(Settings(log_backend="kafka", kafka_bootstrap="127.0.0.1:1"))
    assert isinstance(kafka, KafkaEmbeddingCache)
    assert make_embedding_cache(Settings(data_dir=tmp_path, embedding_cache=False)) is None
