"""``verify`` over the cluster's stores: real Kafka (the log) and PostgreSQL,
Elasticsearch (text and kNN vectors) and Neo4j (graph), fed by the real embed and
project handlers; equal when fresh, a deleted Elasticsearch document named after."""

from __future__ import annotations

import base64
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.events import InteractionRecorded
from hindsight_common.factory import (
    make_embedding_cache, make_graph_store, make_log, make_text_index, make_vector_index,
)
from hindsight_common.ports.embedder import Embedder
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.embed.handler import Embed
from hindsight_services.project.handler import Project
from hindsight_services.verify import verify
from tests.servers import server_url

TENANT = "verify-cluster"


def _settings(tmp_path: Path) -> Settings:
    run = uuid.uuid4().hex[:10]
    return Settings(
        data_dir=tmp_path / "data", log_backend="kafka",
        kafka_bootstrap=server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka"),
        kafka_topic_prefix=f"verify-{run}.", kafka_partitions=2,
        postgres_dsn=server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        text_backend="elasticsearch", vector_backend="elasticsearch",
        elasticsearch_url=server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch"),
        elasticsearch_index=f"verify_{run}_text", elasticsearch_vector_index=f"verify_{run}_vectors",
        graph_backend="neo4j", neo4j_uri=server_url("HINDSIGHT_NEO4J_URI", "Neo4j"),
        neo4j_namespace=f"verify_{run}", master_key=base64.b64encode(bytes(range(32))).decode(),
    )


async def test_verify_over_elasticsearch_and_neo4j(tmp_path: Path, embedder: Embedder) -> None:
    settings = _settings(tmp_path)
    log = make_log(settings)
    cache = make_embedding_cache(settings)
    assert cache is not None
    cached = CachedEmbedder(embedder, cache)
    vectors = make_vector_index(settings, embedder.dim)
    text = make_text_index(settings)
    graph = make_graph_store(settings)
    start = datetime(2024, 5, 1, 10, tzinfo=UTC)
    said = [("ann", "I adopted a greyhound called Pixel"), ("ann", "Pixel loves Brighton beach"),
            ("bob", "Bob visited Lisbon with Carla"), ("bob", "Carla prefers green tea")]
    try:
        await log.append(INTERACTIONS, [
            InteractionRecorded(tenant=TENANT, user=user, session=f"{user}-s1", speaker=user.title(),
                                role="user", content=content, occurred_at=start + timedelta(minutes=n),
                                recorded_at=start + timedelta(minutes=n))
            for n, (user, content) in enumerate(said)])
        heads = await log.head(INTERACTIONS)
        for key, last in heads.items():  # what the embed and project consumers would apply
            records = await log.read(INTERACTIONS, after=-1, limit=100, partition=int(key.split("#")[1]))
            await Embed(cached, vectors).handle(records, {key: last})
            await Project(text, graph).handle(records, {key: last})

        reports = await verify(log, cached, vectors, text, graph)
        assert [(r.projection, r.equal, r.expected, r.actual) for r in reports] == [
            ("vector", True, 4, 4), ("text", True, 4, 4), ("graph", True, 4, 4)]

        # The embed handler ran the model once per text and stored the vectors on the
        # compacted topic; verify took the vectors the log implies from there.
        assert (cached.misses, cached.hits) == (4, 4)
        assert await cache.count(embedder.model_id) == 4

        [gone] = (await text.ids(TENANT))[:1]
        async with httpx.AsyncClient(base_url=str(settings.elasticsearch_url), timeout=30) as es:
            r = await es.delete(f"/{settings.elasticsearch_index}/_doc/{gone}", params={"refresh": "true"})
            assert r.status_code == 200, r.text
        by_name = {r.projection: r for r in await verify(log, cached, vectors, text, graph)}
        assert by_name["text"].missing == [(TENANT, gone)]
        assert by_name["vector"].equal and by_name["graph"].equal
    finally:
        for store in (vectors, text, graph, cache, log):
            await store.close()
