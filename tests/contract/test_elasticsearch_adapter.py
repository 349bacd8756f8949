"""The text contract against a real Elasticsearch 8 server, plus what is the adapter's own.

The server comes from ``deploy/local/infra.sh up`` (``HINDSIGHT_ELASTICSEARCH_URL``);
without one these tests fail with how to start it. Each test uses its own alias
(``hindsight_test_<uuid>``) and deletes its indices afterwards.
"""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from elastic_transport import HttpxAsyncHttpNode
from elasticsearch import AsyncElasticsearch

from hindsight_common.adapters.elasticsearch import ElasticsearchIndex
from hindsight_common.adapters.elasticsearch_analysis import analyze, porter_stem, search_terms
from hindsight_common.errors import ConfigurationError, ProjectionError
from hindsight_common.factory import make_text_index
from hindsight_common.ports.projection import Browse, Document, Scope
from hindsight_common.settings import Settings
from tests.contract.projection_contract import TextContract, docs
from tests.servers import server_url

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
async def opened() -> AsyncIterator[list[ElasticsearchIndex]]:
    indexes: list[ElasticsearchIndex] = []
    yield indexes
    for index in indexes:
        await index.close()


class TestElasticsearch(TextContract):
    @pytest.fixture
    async def index(self, es_url: str, alias: str, opened: list[ElasticsearchIndex]) -> ElasticsearchIndex:
        opened.append(ElasticsearchIndex(es_url, alias=alias, refresh_interval=FAST_REFRESH))
        return opened[-1]

    @pytest.fixture
    def reopen(
        self, es_url: str, alias: str, opened: list[ElasticsearchIndex]
    ) -> Callable[[], Awaitable[ElasticsearchIndex]]:
        async def again() -> ElasticsearchIndex:
            opened.append(ElasticsearchIndex(es_url, alias=alias, refresh_interval=FAST_REFRESH))
            return opened[-1]

        return again

    async def test_data_lives_in_a_versioned_index_behind_an_alias(
        self, index: ElasticsearchIndex, alias: str, raw: AsyncElasticsearch
    ) -> None:
        await self.write(index, docs(), {"s#0": 4})
        aliases = await raw.indices.get_alias(name=alias)
        assert dict(aliases) == {f"{alias}_v1": {"aliases": {alias: {}}}}
        settings = (await raw.indices.get_settings(index=f"{alias}_v1"))[f"{alias}_v1"]["settings"]
        assert settings["index"]["number_of_shards"] == "1"
        assert settings["index"]["number_of_replicas"] == "0"
        await raw.indices.refresh(index=alias)
        # 4 documents + 1 position document, all in the versioned index.
        assert (await raw.count(index=f"{alias}_v1"))["count"] == 5

    async def test_concurrent_first_use_makes_one_index(
        self, es_url: str, alias: str, raw: AsyncElasticsearch, opened: list[ElasticsearchIndex]
    ) -> None:
        # Several processes starting at once: one creates the index, the others use it.
        opened += [ElasticsearchIndex(es_url, alias=alias) for _ in range(4)]
        await asyncio.gather(*(i.upsert([], {f"p#{n}": n}) for n, i in enumerate(opened)))
        assert list(await raw.indices.get(index=f"{alias}*")) == [f"{alias}_v1"]
        assert await opened[0].position() == {"p#0": 0, "p#1": 1, "p#2": 2, "p#3": 3}

    async def test_position_keeps_the_highest_offset_per_key(self, index: ElasticsearchIndex) -> None:
        await self.write(index, docs()[:1], {"a#0": 5, "b#1": 2})
        await self.write(index, docs()[1:2], {"a#0": 3, "b#1": 7})
        await index.upsert([], {"c#0": 1})
        assert await index.position() == {"a#0": 5, "b#1": 7, "c#0": 1}

    async def test_another_tenant_is_never_returned(self, index: ElasticsearchIndex) -> None:
        await index.upsert([], {"s#0": 9})  # a position document: no tenant, no body
        await self.write(index, docs(), {"s#0": 4})
        t1_only = "bicycle ramen commuting spicy"
        assert await index.search(Scope(tenant="t2"), t1_only, 10) == []
        for tenant in ("t3", "", "position"):
            assert await index.search(Scope(tenant=tenant), f"greyhound Pixel {t1_only}", 10) == []
            assert await index.count(tenant) == 0
            assert await index.ids(tenant) == []
            assert await index.session_documents(tenant, "ann", "s1", 10) == []
        hits = await index.search(Scope(tenant="t2"), f"greyhound tenant {t1_only}", 10)
        assert [h.document.tenant for h in hits] == ["t2"]

    async def test_session_documents_newest_first(self, index: ElasticsearchIndex) -> None:
        base = docs()[0]

        def at(n: int, day: int, **changes: Any) -> Document:
            return replace(base, id=str(uuid.uuid4()), content=f"turn {n}", offset=n,
                           occurred_at=datetime(2024, 1, day, tzinfo=UTC), **changes)

        session = [at(1, 1), at(2, 3), at(3, 3), at(4, 2), at(5, 4, type="summary")]
        others = [at(6, 9, type="semantic"), at(7, 9, session="s2"), at(8, 9, user="bob"),
                  at(9, 9, tenant="t2")]
        await index.upsert([*session, *others], {"s#0": 9})
        newest = await index.session_documents("t1", "ann", "s1", 10)
        # By time, newest first; the two turns of Jan 3 in log order, the later first.
        assert [d.content for d in newest] == ["turn 5", "turn 3", "turn 2", "turn 4", "turn 1"]
        assert newest[0].type == "summary"
        assert [d.content for d in await index.session_documents("t1", "ann", "s1", 2)] == [
            "turn 5", "turn 3"]
        assert await index.session_documents("t1", "ann", "s1", 0) == []

    async def test_browse_filters_and_pages_newest_first(self, index: ElasticsearchIndex) -> None:
        base = replace(docs()[0], type="semantic", role="memory")
        memories = [
            replace(base, id=str(uuid.uuid4()), content=f"memory {n}", kind=kind, key=key, tags=tags,
                    offset=n, occurred_at=datetime(2024, 1, n, tzinfo=UTC))
            for n, kind, key, tags in [(1, "preference", "food", ("diet", "likes")),
                                       (2, "fact", "pet", ("animals",)),
                                       (3, "preference", "pet", ("animals", "likes")),
                                       (4, "preference", "music", ())]
        ]
        await index.upsert([*memories, replace(memories[0], id=str(uuid.uuid4()), tenant="t2")], {})
        scope = Scope(tenant="t1", types=("semantic",))

        async def contents(**filters: Any) -> list[str]:
            return [d.content for d in await index.browse(Browse(scope=scope, **filters))]

        assert await contents() == ["memory 4", "memory 3", "memory 2", "memory 1"]
        assert await contents(kinds=("preference",)) == ["memory 4", "memory 3", "memory 1"]
        assert await contents(keys=("pet", "food")) == ["memory 3", "memory 2", "memory 1"]
        assert await contents(tags=("animals", "likes")) == ["memory 3"]  # every tag
        assert await contents(limit=2, offset=1) == ["memory 3", "memory 2"]
        assert (await index.browse(Browse(scope=scope, limit=1)))[0] == memories[3]
        assert await index.browse(Browse(scope=Scope(tenant="t3"))) == []

    async def test_get_in_the_order_asked_and_only_the_tenants(self, index: ElasticsearchIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        t1 = [d for d in docs() if d.tenant == "t1"]
        [t2] = [d for d in docs() if d.tenant == "t2"]
        asked = [t1[2].id, "missing", t2.id, t1[0].id, t1[2].id, "position:s#0"]
        assert await index.get("t1", asked) == [t1[2], t1[0]]
        assert await index.get("t2", asked) == [t2]
        assert await index.get("t1", []) == []

    async def test_bulk_errors_are_projection_errors(
        self, es_url: str, alias: str, raw: AsyncElasticsearch, opened: list[ElasticsearchIndex]
    ) -> None:
        # A mapping conflict: someone made the index with tenant as a number.
        await raw.indices.create(index=f"{alias}_v1", aliases={alias: {}},
                                 settings={"number_of_replicas": 0},
                                 mappings={"properties": {"tenant": {"type": "long"}}})
        index = ElasticsearchIndex(es_url, alias=alias)
        opened.append(index)
        with pytest.raises(ProjectionError, match=r"4 of 4 operations failed.*tenant"):
            await index.upsert(docs(), {"s#0": 4})
        assert await index.position() == {}  # nothing recorded for a failed write

    async def test_driver_errors_become_projection_errors(self, alias: str) -> None:
        unreachable = ElasticsearchIndex("http://127.0.0.1:9", alias=alias, timeout_s=2)
        try:
            with pytest.raises(ProjectionError, match="127.0.0.1:9") as raised:
                await unreachable.count("t1")
            assert raised.value.__cause__ is not None
        finally:
            await unreachable.close()
        await unreachable.close()  # idempotent
        with pytest.raises(ProjectionError, match="closed"):
            await unreachable.count("t1")

    async def test_scores_are_bm25_and_the_best_match_first(self, index: ElasticsearchIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        hits = await index.search(Scope(tenant="t1"), "Pixel the greyhound, or a bicycle?", 10)
        assert [h.document.content for h in hits][:1] == ["I adopted a greyhound called Pixel"]
        assert len(hits) == 2 and all(h.score > 0 for h in hits)
        assert hits[0].score > hits[1].score


# Words whose Porter stems exercise every step; compared with SQLite FTS5's tokenizer.
WORDS = """caresses ponies caress cats feed agreed plastered bled motoring sing conflated
troubled sized hopping tanned falling hissing fizzed failing filing happy sky relational
conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli
analogousli vietnamization predication operator feudalism decisiveness hopefulness
callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti
electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable
defensible irritant replacement adjustment dependent adoption homologou communism activate
angulariti homologous effective bowdlerize probate rate cease controll roll generalizations
oscillators archaeology analogies yelling dying eyed syzygy toyed adopts adopted greyhounds
commuting commute""".split()


class TestAnalysis:
    def test_stems_like_the_embedded_adapter(self) -> None:
        db = sqlite3.connect(":memory:")
        try:
            db.execute("CREATE VIRTUAL TABLE f USING fts5(b, tokenize='porter unicode61')")
            db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')")
            db.executemany("INSERT INTO f (rowid, b) VALUES (?, ?)",
                           [(i, w) for i, w in enumerate(WORDS, 1)])
            fts5 = dict(db.execute("SELECT doc, term FROM v").fetchall())
        finally:
            db.close()
        assert [porter_stem(w) for w in WORDS] == [fts5[i] for i in range(1, len(WORDS) + 1)]

    def test_analysis_folds_drops_possessives_and_stop_words(self) -> None:
        assert analyze("Ann: I adopted Pixel’s brother, a naïve café-loving greyhound!") == [
            "ann", "adopt", "pixel", "brother", "naiv", "cafe", "love", "greyhound"]

    def test_queries_keep_only_stemmed_content_words(self) -> None:
        assert search_terms("Who adopts greyhounds? Ann's greyhound!") == ["adopt", "greyhound", "ann"]
        assert search_terms("what is it?") == []


class TestFactory:
    async def test_builds_the_elasticsearch_adapter_from_settings(
        self, es_url: str, alias: str, raw: AsyncElasticsearch
    ) -> None:
        settings = Settings(text_backend="elasticsearch", elasticsearch_url=es_url,
                            elasticsearch_index=alias)
        index = make_text_index(settings)
        try:
            assert isinstance(index, ElasticsearchIndex)
            await index.upsert([], {"s#0": 1})
            assert await index.position() == {"s#0": 1}
        finally:
            await index.close()
        assert await raw.indices.exists_alias(name=alias)

    def test_the_elasticsearch_backend_needs_a_url(self) -> None:
        with pytest.raises(ConfigurationError, match="HINDSIGHT_ELASTICSEARCH_URL"):
            make_text_index(Settings(text_backend="elasticsearch", elasticsearch_url=None))
