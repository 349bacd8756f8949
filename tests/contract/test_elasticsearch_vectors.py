"""The vector contract against a real Elasticsearch 8 server (dense_vector kNN), plus what
is the adapter's own.

The server comes from ``deploy/local/infra.sh up`` (``HINDSIGHT_ELASTICSEARCH_URL``);
without one these tests fail with how to start it. Each test uses its own alias
(``hindsight_test_<uuid>``) and deletes its indices afterwards.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace

import numpy as np
import pytest
from elastic_transport import HttpxAsyncHttpNode
from elasticsearch import AsyncElasticsearch

from hindsight_common.adapters.elasticsearch_versions import ElasticsearchVersions
from hindsight_common.adapters.elasticsearch_vectors import (
    ElasticsearchVectorIndex,
    num_candidates,
)
from hindsight_common.ports.embedder import Embedder
from hindsight_common.errors import ConfigurationError, ProjectionError
from hindsight_common.factory import make_vector_index
from hindsight_common.ports.projection import Embedded, Scope
from hindsight_common.projection_versions import data_name, staging_alias
from hindsight_common.settings import Settings
from tests.contract.projection_contract import VectorContract, docs
from tests.servers import server_url

DIM = 384
# Fast refreshes keep refresh="wait_for" writes quick; the behaviour is the same.
FAST_REFRESH = "100ms"


@pytest.fixture
def es_url() -> str:
    return server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch")


@pytest.fixture
async def raw(es_url: str) -> AsyncIterator[AsyncElasticsearch]:
    """A plain client, to look at (and tamper with) what the adapter made."""
    client = AsyncElasticsearch(es_url, node_class=HttpxAsyncHttpNode, request_timeout=30)
    yield client
    await client.close()


@pytest.fixture
async def alias(raw: AsyncElasticsearch) -> AsyncIterator[str]:
    name = f"hindsight_test_{uuid.uuid4().hex[:12]}"
    yield name
    found = await raw.indices.get(index=f"{name}*", allow_no_indices=True)
    for index in found:  # deleting an index drops its aliases too
        await raw.indices.delete(index=index)


@pytest.fixture
async def opened() -> AsyncIterator[list[ElasticsearchVectorIndex]]:
    indexes: list[ElasticsearchVectorIndex] = []
    yield indexes
    for index in indexes:
        await index.close()


@pytest.fixture
def open_index(
    es_url: str, alias: str, opened: list[ElasticsearchVectorIndex]
) -> Callable[[], ElasticsearchVectorIndex]:
    """Another index object on the test's alias: what another process would have."""
    def make() -> ElasticsearchVectorIndex:
        opened.append(ElasticsearchVectorIndex(es_url, DIM, alias=alias, refresh_interval=FAST_REFRESH))
        return opened[-1]

    return make


def _unit(rng: np.random.Generator) -> list[float]:
    v = rng.standard_normal(DIM)
    return [float(x) for x in v / np.linalg.norm(v)]


class TestElasticsearchVectors(VectorContract):
    @pytest.fixture(autouse=True)
    def _embedder(self, embedder: Embedder) -> None:
        self.embedder = embedder

    @pytest.fixture
    def index(self, open_index: Callable[[], ElasticsearchVectorIndex]) -> ElasticsearchVectorIndex:
        return open_index()

    @pytest.fixture
    def reopen(
        self, open_index: Callable[[], ElasticsearchVectorIndex]
    ) -> Callable[[], Awaitable[ElasticsearchVectorIndex]]:
        async def again() -> ElasticsearchVectorIndex:
            return open_index()

        return again

    async def test_data_lives_in_a_versioned_index_behind_an_alias(
        self, index: ElasticsearchVectorIndex, alias: str, raw: AsyncElasticsearch
    ) -> None:
        await self.write(index, docs(), {"s#0": 4})
        aliases = await raw.indices.get_alias(name=alias)
        assert dict(aliases) == {f"{alias}_v1": {"aliases": {alias: {}}}}
        mapping = (await raw.indices.get_mapping(index=f"{alias}_v1"))[f"{alias}_v1"]["mappings"]
        vector = mapping["properties"]["vector"]
        assert (vector["type"], vector["dims"], vector["index"], vector["similarity"]) == (
            "dense_vector", DIM, True, "cosine")
        assert vector["index_options"]["type"] == "hnsw"  # raw floats: exact cosine scores
        assert mapping["properties"]["tenant"] == {"type": "keyword"}
        await raw.indices.refresh(index=alias)
        # 4 documents + 1 position document, all in the versioned index.
        assert (await raw.count(index=f"{alias}_v1"))["count"] == 5

    async def test_scores_are_the_cosine_similarity(self, index: ElasticsearchVectorIndex) -> None:
        documents = docs()
        vectors = await self.embedder.embed([d.search_text for d in documents])
        # Scaled, so that the server has to normalise (cosine, not a dot product).
        await index.upsert([Embedded(d, [3.0 * x for x in v]) for d, v in zip(documents, vectors, strict=True)],
                           {"s#0": 4})
        [query] = await self.embedder.embed(["which pet dog does she own?"])
        hits = await index.search(Scope(tenant="t1"), query, 10)
        assert len(hits) == 3
        q = np.asarray(query, dtype=np.float64)
        by_id = {d.id: np.asarray(v, dtype=np.float64) for d, v in zip(documents, vectors, strict=True)}
        for hit in hits:
            v = by_id[hit.document.id]
            cosine = float(q @ v / (np.linalg.norm(q) * np.linalg.norm(v)))
            assert hit.score == pytest.approx(cosine, abs=1e-3)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        # A vector against itself: 1; against its opposite: -1 (ES's own score is 0 there).
        [self_hit] = await index.search(Scope(tenant="t2"), vectors[3], 1)
        assert self_hit.score == pytest.approx(1.0, abs=1e-3)
        [opposite] = await index.search(Scope(tenant="t2"), [-x for x in vectors[3]], 1)
        assert opposite.score == pytest.approx(-1.0, abs=1e-3)

    async def test_another_tenant_is_never_returned_even_when_nearer(
        self, index: ElasticsearchVectorIndex
    ) -> None:
        rng = np.random.default_rng(7)
        query = _unit(rng)
        near = [0.999 * q + 0.001 * x for q, x in zip(query, _unit(rng), strict=True)]
        # More near neighbours in t1 than the search gathers candidates, and one far
        # document in t2: only a filter applied during the search (not after the top
        # candidates) finds it.
        crowd = num_candidates(1) + 20
        t1 = replace(docs()[0], tenant="t1")
        items = [Embedded(replace(t1, id=str(uuid.uuid4()), offset=n), near) for n in range(crowd)]
        lonely = replace(docs()[3], tenant="t2")
        items.append(Embedded(lonely, [-x for x in query]))
        await index.upsert([], {"s#0": 9})  # a position document: no tenant, no vector
        await index.upsert(items, {"s#0": crowd + 1})
        [hit] = await index.search(Scope(tenant="t2"), query, 10)
        assert hit.document == lonely and hit.score < 0
        assert len(await index.search(Scope(tenant="t1"), query, 5)) == 5
        for tenant in ("t3", "", "position"):
            assert await index.search(Scope(tenant=tenant), query, 10) == []
            assert await index.count(tenant) == 0
            assert await index.ids(tenant) == []
        assert await index.count("t1") == crowd
        assert len(await index.ids("t1")) == crowd

    async def test_two_processes_see_each_others_writes(
        self, open_index: Callable[[], ElasticsearchVectorIndex]
    ) -> None:
        embed, query = open_index(), open_index()  # the embed service and the gateway
        first, second = docs()[0], docs()[1]
        [v1, v2] = await self.embedder.embed([first.search_text, second.search_text])
        await embed.upsert([Embedded(first, v1)], {"s#0": 1})
        # Visible on return (refresh=wait_for), without any refresh by the reader.
        [hit] = await query.search(Scope(tenant="t1", user="ann"), v1, 1)
        assert hit.document == first
        assert await query.position() == {"s#0": 1}
        await query.upsert([Embedded(second, v2)], {"s#1": 7})
        assert await embed.ids("t1") == sorted([first.id, second.id])
        assert await embed.position() == {"s#0": 1, "s#1": 7}

    async def test_concurrent_first_use_makes_one_index(
        self, alias: str, raw: AsyncElasticsearch, open_index: Callable[[], ElasticsearchVectorIndex]
    ) -> None:
        indexes = [open_index() for _ in range(4)]
        await asyncio.gather(*(i.upsert([], {f"p#{n}": n}) for n, i in enumerate(indexes)))
        assert list(await raw.indices.get(index=f"{alias}*")) == [f"{alias}_v1"]
        assert await indexes[0].position() == {"p#0": 0, "p#1": 1, "p#2": 2, "p#3": 3}

    async def test_position_keeps_the_highest_offset_per_key(self, index: ElasticsearchVectorIndex) -> None:
        await self.write(index, docs()[:1], {"a#0": 5, "b#1": 2})
        await self.write(index, docs()[1:2], {"a#0": 3, "b#1": 7})
        await index.upsert([], {"c#0": 1})
        assert await index.position() == {"a#0": 5, "b#1": 7, "c#0": 1}

    async def test_a_dimension_mismatch_is_a_projection_error(
        self, es_url: str, alias: str, index: ElasticsearchVectorIndex,
        opened: list[ElasticsearchVectorIndex],
    ) -> None:
        await index.upsert([], {"s#0": 1})
        other = ElasticsearchVectorIndex(es_url, DIM + 1, alias=alias)
        opened.append(other)
        with pytest.raises(ProjectionError, match=rf"{DIM}-dimensional.*rebuild"):
            await other.count("t1")

    async def test_an_index_made_for_a_model_follows_its_alias_and_refuses_other_models(
        self, es_url: str, alias: str, raw: AsyncElasticsearch, opened: list[ElasticsearchVectorIndex],
    ) -> None:
        """What a re-embedding in the cluster rests on: the model is read through the
        alias now (not remembered), and the old model's vectors never land in the new
        model's version."""
        rng = np.random.default_rng(5)
        first, second = docs()[0], docs()[1]
        live = ElasticsearchVectorIndex(es_url, DIM, alias=alias, refresh_interval=FAST_REFRESH, model="model-a")
        opened.append(live)
        await live.upsert([Embedded(first, _unit(rng), "model-a")], {"s#0": 1})
        assert await live.live_model() == "model-a"
        with pytest.raises(ProjectionError, match=r"\['model-b'\].*'model-a'"):
            await live.upsert([Embedded(second, _unit(rng), "model-b")], {"s#0": 2})
        assert [d.id for d in await live.get("t1", [first.id, second.id])] == [first.id]
        assert await live.position() == {"s#0": 1}  # nothing recorded for the refused batch

        # A rebuild fills version 2 for model-b and moves the alias onto it.
        new = ElasticsearchVectorIndex(es_url, DIM, alias=staging_alias(alias, 2),
                                       refresh_interval=FAST_REFRESH, model="model-b")
        opened.append(new)
        await new.upsert([Embedded(d, _unit(rng), "model-b") for d in (first, second)], {"s#0": 2})
        versions = ElasticsearchVersions(es_url, alias)
        try:
            await versions.swap(2)
        finally:
            await versions.close()
        assert await live.live_model() == "model-b"  # the same object, read through the alias
        with pytest.raises(ProjectionError, match="re-embedding"):
            await live.upsert([Embedded(first, _unit(rng), "model-a")], {"s#0": 3})
        await live.upsert([Embedded(first, _unit(rng), "model-b")], {"s#0": 3})
        stored = await raw.search(index=data_name(alias, 2), query={"exists": {"field": "tenant"}},
                                  source_includes=["embedding_model"])
        assert {h["_source"]["embedding_model"] for h in stored["hits"]["hits"]} == {"model-b"}
        assert await new.other_models("model-b") == (0, [])

    async def test_an_index_made_without_a_model_records_none_and_takes_any(
        self, index: ElasticsearchVectorIndex,
    ) -> None:
        rng = np.random.default_rng(6)
        await index.upsert([Embedded(docs()[0], _unit(rng), "model-a")], {"s#0": 1})
        assert await index.live_model() is None
        await index.upsert([Embedded(docs()[1], _unit(rng), "model-b")], {"s#0": 2})
        assert await index.other_models("model-a") == (1, ["model-b"])

    async def test_bulk_errors_are_projection_errors(self, index: ElasticsearchVectorIndex) -> None:
        good, bad = docs()[0], docs()[1]
        with pytest.raises(ProjectionError, match=r"1 of 2 operations failed.*dimensions"):
            await index.upsert([Embedded(good, [0.1] * DIM), Embedded(bad, [0.1] * 3)], {"s#0": 2})
        assert await index.position() == {}  # nothing recorded for a failed write

    async def test_driver_errors_become_projection_errors(self, alias: str) -> None:
        unreachable = ElasticsearchVectorIndex("http://127.0.0.1:9", DIM, alias=alias, timeout_s=2)
        try:
            with pytest.raises(ProjectionError, match="127.0.0.1:9") as raised:
                await unreachable.search(Scope(tenant="t1"), [0.1] * DIM, 3)
            assert raised.value.__cause__ is not None
        finally:
            await unreachable.close()
        await unreachable.close()  # idempotent
        with pytest.raises(ProjectionError, match="closed"):
            await unreachable.count("t1")


def test_num_candidates() -> None:
    assert [num_candidates(k) for k in (1, 25, 26, 100, 5000)] == [100, 100, 104, 400, 10_000]


class TestFactory:
    async def test_builds_the_elasticsearch_vector_adapter_from_settings(
        self, es_url: str, alias: str, raw: AsyncElasticsearch
    ) -> None:
        settings = Settings(vector_backend="elasticsearch", elasticsearch_url=es_url,
                            elasticsearch_vector_index=alias)
        index = make_vector_index(settings, DIM)
        try:
            assert isinstance(index, ElasticsearchVectorIndex)
            await index.upsert([], {"s#0": 1})
            assert await index.position() == {"s#0": 1}
        finally:
            await index.close()
        assert await raw.indices.exists_alias(name=alias)
        assert Settings.model_fields["elasticsearch_vector_index"].default == "hindsight_vectors"

    def test_the_elasticsearch_vector_backend_needs_a_url(self) -> None:
        with pytest.raises(ConfigurationError, match="HINDSIGHT_ELASTICSEARCH_URL"):
            make_vector_index(Settings(vector_backend="elasticsearch", elasticsearch_url=None), DIM)
