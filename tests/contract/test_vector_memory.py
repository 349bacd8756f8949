"""The embedded vector index's in-memory vectors (``vector_memory``): the shard's
results and scores for one user's searches, kept in step with every write, read from
the shard on first search for a user it already held, dropped on erasure, and the
whole vector contract with it switched on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Document, Embedded, Scope, VectorSearch
from tests.contract.projection_contract import VectorContract, docs

DIM = 384
BUDGET = 64 * 2**20
START = datetime(2024, 1, 1, tzinfo=UTC)


class TestQdrantEdgeInMemory(VectorContract):
    @pytest.fixture(autouse=True)
    def _embedder(self, embedder: Embedder) -> None:
        type(self).embedder = embedder

    @pytest.fixture
    async def index(self, tmp_path: Path) -> AsyncIterator[QdrantEdgeIndex]:
        index = QdrantEdgeIndex(tmp_path / "vectors", DIM, memory_bytes=BUDGET)
        yield index
        await index.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[QdrantEdgeIndex]]:
        async def again() -> QdrantEdgeIndex:
            return QdrantEdgeIndex(tmp_path / "vectors", DIM, memory_bytes=BUDGET)

        return again


def points(n: int, user: str = "ann", seed: int = 3) -> list[Embedded]:
    """``n`` documents of one user with random vectors near a few directions (close
    scores), two types, three speakers, an hour apart."""
    [base] = docs()[:1]
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(8, DIM))
    out = []
    for i in range(n):
        v = centres[i % 8] + 0.8 * rng.normal(size=DIM)
        doc = replace(base, id=f"00000000-0000-4000-8000-{seed:04d}{i:08d}", user=user,
                      type="semantic" if i % 5 == 0 else "episodic", speaker=("ann", "bob", "cy")[i % 3],
                      occurred_at=START + timedelta(hours=i), content=f"turn {i}")
        out.append(Embedded(doc, [float(x) for x in v], "test-model"))
    return out


SCOPES = (
    Scope(tenant="t1", user="ann"),
    Scope(tenant="t1", user="ann", types=("episodic",)),
    Scope(tenant="t1", user="ann", types=("semantic", "episodic"), speakers=("bob",)),
    Scope(tenant="t1", user="ann", since=START + timedelta(hours=40), until=START + timedelta(hours=90)),
    Scope(tenant="t1", user="ann", speakers=("cy", "nobody")),
    Scope(tenant="t1", user="bob"),
)


async def results(index: QdrantEdgeIndex, scope: Scope, query: list[float], k: int) -> list[tuple[str, float]]:
    return [(h.document.id, round(h.score, 4)) for h in await index.search(scope, query, k)]


def queries(n: int) -> list[list[float]]:
    rng = np.random.default_rng(11)
    return [[float(x) for x in rng.normal(size=DIM)] for _ in range(n)]


async def test_a_users_results_and_scores_are_the_shards(tmp_path: Path) -> None:
    memory = QdrantEdgeIndex(tmp_path / "memory", DIM, memory_bytes=BUDGET)
    shard = QdrantEdgeIndex(tmp_path / "shard", DIM)
    try:
        corpus = points(400) + points(30, user="bob", seed=4)
        changed = [replace(corpus[7], document=replace(corpus[7].document, type="superseded")),
                   replace(corpus[8], vector=[x + 0.01 for x in corpus[300].vector])]
        for index in (memory, shard):
            for first in range(0, len(corpus), 50):
                await index.upsert(corpus[first:first + 50], {"s#0": first + 50})
            await index.upsert(changed, {"s#0": 500})  # a replaced type and a replaced vector
        assert memory.memory_stats() == {"users": 2, "building": 0, "listing": 0, "points": 430,
                                         "bytes": memory.memory_stats()["bytes"]}  # type: ignore[index]
        compared = 0
        for query in [*queries(6), corpus[300].vector]:
            for scope in SCOPES:
                for k in (1, 10, 60):
                    got, expected = await results(memory, scope, query, k), await results(shard, scope, query, k)
                    assert [i for i, _ in got] == [i for i, _ in expected], (scope, k)
                    assert [s for _, s in got] == pytest.approx([s for _, s in expected], abs=2e-4)
                    compared += len(expected)
        assert compared > 2000
        session = Scope(tenant="t1", user="ann", session=corpus[0].document.session)
        assert await results(memory, session, queries(1)[0], 5) == await results(shard, session, queries(1)[0], 5)
    finally:
        await memory.close()
        await shard.close()


async def wait_ready(index: QdrantEdgeIndex) -> dict[str, int]:
    for _ in range(500):
        stats = index.memory_stats()
        assert stats is not None
        if not stats["building"] and not stats["listing"]:
            return stats
        await asyncio.sleep(0.01)
    raise AssertionError("the in-memory vectors were never read")


async def test_a_user_the_shard_already_held_is_read_on_first_search(tmp_path: Path) -> None:
    corpus = points(300)
    first = QdrantEdgeIndex(tmp_path / "v", DIM)
    await first.upsert(corpus, {"s#0": 300})
    await first.close()
    index = QdrantEdgeIndex(tmp_path / "v", DIM, memory_bytes=BUDGET)
    try:
        query = queries(1)[0]
        from_shard = await results(index, SCOPES[2], query, 20)  # the shard answers, the read starts
        assert (await wait_ready(index))["points"] == 300
        assert await results(index, SCOPES[2], query, 20) == from_shard
        later = points(1, seed=9)[0]
        await index.upsert([Embedded(replace(later.document, speaker="bob"), query, "test-model")], {"s#0": 301})
        [best] = await index.search(SCOPES[2], query, 1)
        assert best.document.id == later.document.id and best.score == pytest.approx(1.0, abs=1e-5)
        assert index.memory_stats()["points"] == 301  # type: ignore[index]
    finally:
        await index.close()


async def test_deferred_writes_of_a_new_user_are_read_on_first_search(tmp_path: Path) -> None:
    """A rebuild's new version (``defer_caches``): its writes fill no in-memory copy;
    the first search after it reads the user from the shard, and answers as before."""
    corpus = points(200)
    index = QdrantEdgeIndex(tmp_path / "v", DIM, memory_bytes=BUDGET)
    shard = QdrantEdgeIndex(tmp_path / "plain", DIM)
    try:
        index.defer_caches()
        for first in range(0, 200, 50):
            await index.upsert(corpus[first:first + 50], {"s#0": first + 50})
            await shard.upsert(corpus[first:first + 50], {"s#0": first + 50})
        assert index.memory_stats()["points"] == 0  # type: ignore[index]
        query = queries(1)[0]
        assert await results(index, SCOPES[0], query, 10) == await results(shard, SCOPES[0], query, 10)
        assert (await wait_ready(index))["points"] == 200
        for scope in SCOPES[:4]:
            assert await results(index, scope, query, 10) == await results(shard, scope, query, 10)
    finally:
        await index.close()
        await shard.close()


async def test_an_erased_user_leaves_memory_and_results(tmp_path: Path) -> None:
    index = QdrantEdgeIndex(tmp_path / "v", DIM, memory_bytes=BUDGET)
    try:
        await index.upsert(points(50) + points(20, user="bob", seed=4), {"s#0": 70})
        query = queries(1)[0]
        assert len(await index.search(SCOPES[0], query, 100)) == 50
        assert await index.purge_user("t1", "ann") == 50
        assert await index.search(SCOPES[0], query, 100) == []
        assert index.memory_stats()["points"] == 20  # type: ignore[index]
        assert len(await index.search(SCOPES[-1], query, 100)) == 20
        await index.upsert(points(3), {"s#0": 80})  # written again after the erasure: fresh, in memory
        assert len(await index.search(SCOPES[0], query, 100)) == 3
        assert index.memory_stats()["points"] == 23  # type: ignore[index]
    finally:
        await index.close()


async def test_a_point_gone_from_the_shard_behind_the_cache_is_never_shown(tmp_path: Path) -> None:
    index = QdrantEdgeIndex(tmp_path / "v", DIM, memory_bytes=BUDGET)
    try:
        corpus = points(20)
        await index.upsert(corpus, {"s#0": 20})
        moved = replace(corpus[0].document, user="zed")  # rewritten as another user's
        await index.upsert([Embedded(moved, corpus[0].vector, "test-model")], {"s#0": 21})
        found = await index.search(SCOPES[0], corpus[0].vector, 20)
        assert corpus[0].document.id not in {h.document.id for h in found}
        assert all(h.document.user == "ann" for h in found) and len(found) == 19
        assert index.memory_stats()["points"] == 20  # type: ignore[index]  # ann's 19, zed's 1
    finally:
        await index.close()



async def test_searches_asked_at_once_give_each_searchs_hits_from_one_read(tmp_path: Path) -> None:
    # Recall asks its vector paths (the query, its speakers, its time window) at once:
    # one hop, one lock, one read of the documents they found, the same hits as asked
    # one by one, and a document found by two searches read once.
    index = QdrantEdgeIndex(tmp_path / "v", DIM, memory_bytes=BUDGET)
    try:
        await index.upsert(points(300), {"s#0": 300})
        query, other = queries(2)
        await index.search(SCOPES[0], query, 1)
        await wait_ready(index)
        asked = [VectorSearch(SCOPES[0], query, 30), VectorSearch(SCOPES[2], query, 20),
                 VectorSearch(SCOPES[3], other, 10)]
        reads: list[int] = []
        documents = index._documents

        def counted(tenant: str, ids: Sequence[str]) -> list[Document]:
            reads.append(len(ids))
            return documents(tenant, ids)

        index._documents = counted  # type: ignore[method-assign]
        together = await index.search_many(asked)
        assert len(reads) == 1 and reads[0] < 60  # the first two searches share documents
        one_by_one = [await index.search(s.scope, s.vector, s.k) for s in asked]
        assert [[(h.document, h.score) for h in hits] for hits in together] == \
               [[(h.document, h.score) for h in hits] for hits in one_by_one]
        assert [len(hits) for hits in together] == [30, 20, 10]
        assert await index.search_many([]) == []
        # Ids only (recall reads the few it returns afterwards): the same answers, no read.
        reads.clear()
        found = await index.find_many(asked)
        assert reads == [] and all(f.document is None for fs in found for f in fs)
        assert [[(f.id, f.score) for f in fs] for fs in found] == \
               [[(h.document.id, h.score) for h in hits] for hits in together]
    finally:
        await index.close()
