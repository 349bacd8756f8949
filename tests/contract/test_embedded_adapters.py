"""The contract suites against the embedded adapters (SQLite log, Qdrant Edge, FTS5)."""

from __future__ import annotations

import asyncio
import threading

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
import qdrant_edge as qe

from hindsight_common.ports.embedder import Embedder
from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex, by_ids_sql
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.documents import vector_payload
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import Browse, Scope
from tests.contract.log_contract import LogContract
from tests.contract.projection_contract import TextContract, VectorContract, docs


class TestSqliteLog(LogContract):
    @pytest.fixture
    async def log(self, tmp_path: Path) -> AsyncIterator[SqliteLog]:
        log = SqliteLog(tmp_path / "log.sqlite3")
        yield log
        await log.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[EventLog]]:
        async def again() -> EventLog:
            return SqliteLog(tmp_path / "log.sqlite3")

        return again


class TestQdrantEdge(VectorContract):
    @pytest.fixture(autouse=True)
    def _embedder(self, embedder: Embedder) -> None:
        self.embedder = embedder

    @pytest.fixture
    async def index(self, tmp_path: Path) -> AsyncIterator[QdrantEdgeIndex]:
        index = QdrantEdgeIndex(tmp_path / "vectors", 384)
        yield index
        await index.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[QdrantEdgeIndex]]:
        async def again() -> QdrantEdgeIndex:
            return QdrantEdgeIndex(tmp_path / "vectors", 384)

        return again

    async def test_a_point_written_before_the_json_payload_still_reads(self, index: QdrantEdgeIndex) -> None:
        # Points stored every document key top-level before ``point_payload``; data
        # directories made then are read as they are (no rebuild needed).
        [doc] = docs()[:1]
        [vector] = await self.embedder.embed([doc.search_text])
        index._shard.update(qe.UpdateOperation.upsert_points(
            [qe.Point(id=doc.id, vector=list(vector), payload=vector_payload(doc, self.embedder.model_id))]))
        assert await index.get(doc.tenant, [doc.id]) == [doc]
        [hit] = await index.search(Scope(tenant=doc.tenant), vector, 1)
        assert hit.document == doc
        assert await index.ids(doc.tenant) == [doc.id]
        assert await index.other_models(self.embedder.model_id) == (0, [])


class TestSqliteFts(TextContract):
    @pytest.fixture
    async def index(self, tmp_path: Path) -> AsyncIterator[SqliteFtsIndex]:
        index = SqliteFtsIndex(tmp_path / "text.sqlite3")
        yield index
        await index.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[SqliteFtsIndex]]:
        async def again() -> SqliteFtsIndex:
            return SqliteFtsIndex(tmp_path / "text.sqlite3")

        return again

    async def test_a_user_scoped_search_ranks_inside_fts5_with_the_same_result(self, index: SqliteFtsIndex) -> None:
        # A tenant, tenant+user or tenant+user+types scope is ranked and cut inside FTS5
        # (only the top k documents are read); any other filter joins first. Both give
        # the same hits in the same order, ties included (many turns repeat the same words).
        [base] = docs()[:1]
        many = [replace(base, id=f"d{i}", session=f"s{i % 3}", content=f"{word} greyhound walk number {i % 4}",
                        type=["episodic", "episodic", "semantic", "superseded"][i % 4])
                for i, word in enumerate(["Pixel", "the", "a long long", "Pixel"] * 6)]
        other = [replace(d, id=f"o{d.id}", user="bob") for d in many]
        await index.upsert(many + other, {"s#0": 1})
        long_ago = datetime(1990, 1, 1, tzinfo=UTC)  # a filter that selects everything, and joins
        for query in ("greyhound", "Pixel greyhound walk", "number 3 walk"):
            for k in (3, 10, 50):
                for types in ((), ("episodic",), ("episodic", "semantic")):
                    token = await index.search(Scope(tenant="t1", user="ann", types=types), query, k)
                    joined = await index.search(Scope(tenant="t1", user="ann", types=types, since=long_ago),
                                                query, k)
                    assert [(h.document.id, h.score) for h in token] == [(h.document.id, h.score) for h in joined]
                    assert token and all(h.document.user == "ann" for h in token)
                    assert all(h.document.type in (types or ("episodic", "semantic", "superseded")) for h in token)
        # A document whose type changes (a memory superseded) leaves the types it had.
        await index.upsert([replace(many[2], type="superseded")], {"s#0": 2})
        found = await index.search(Scope(tenant="t1", user="ann", types=("semantic",)), "greyhound", 50)
        assert many[2].id not in {h.document.id for h in found} and found

    async def test_documents_by_id_are_found_through_the_id_index_not_the_tenants_rows(
            self, index: SqliteFtsIndex) -> None:
        # The cross-encoder's neighbourhoods: up to 40 ids out of a user's 100,000
        # documents. With `tenant=? AND id IN (40 ids)` SQLite chose a tenant-led index
        # and read every document of the tenant (145 ms at 100,000). Without statistics
        # the plan depends on the number of ids, not on the data.
        await index.upsert(docs(), {"s#0": 4})
        for n in (1, 10, 40, 100):
            ids = [f"id-{i}" for i in range(n)]
            plan = await index._sqlite.read(lambda db, ids=ids: db.execute(
                "EXPLAIN QUERY PLAN " + by_ids_sql(len(ids)), (*ids, "t1")).fetchall())
            detail = " ".join(str(row[-1]) for row in plan)
            assert "(id=?)" in detail and "tenant" not in detail, (n, detail)
        wanted = [d.id for d in docs()] + [f"id-{i}" for i in range(40)]
        assert {d.id for d in await index.get("t1", wanted)} == {d.id for d in docs() if d.tenant == "t1"}

    async def test_recall_reads_answer_while_a_projection_batch_holds_the_writer(self, index: SqliteFtsIndex) -> None:
        # search, get (the cross-encoder's neighbourhoods) and browse (the recency path)
        # read on their own connections: a long write transaction does not delay them.
        [doc] = docs()[:1]
        await index.upsert([doc], {"s#0": 1})
        inside, release = threading.Event(), threading.Event()

        def long_batch(db: object) -> None:
            db.execute("BEGIN IMMEDIATE")  # type: ignore[attr-defined]
            inside.set()
            release.wait(10)
            db.execute("COMMIT")  # type: ignore[attr-defined]

        writing = asyncio.ensure_future(index._sqlite.run(long_batch))
        try:
            assert await asyncio.to_thread(inside.wait, 5)
            assert await asyncio.wait_for(index.get(doc.tenant, [doc.id]), 3) == [doc]
            assert [d.id for d in await asyncio.wait_for(index.browse(Browse(Scope(tenant=doc.tenant))), 3)] == [doc.id]
            assert await asyncio.wait_for(index.search(Scope(tenant=doc.tenant), doc.content, 5), 3)
            assert not writing.done()
        finally:
            release.set()
            await writing
