"""The embedded text index's in-memory BM25 (``bm25_memory``): FTS5's scores over one
user's documents, kept in step with every write, built on first search for a user the
table already held, and the whole text contract with it switched on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex, memory_terms
from hindsight_common.context_windows import neighbourhood
from hindsight_common.ports.projection import Document, Scope, TextSearch
from tests.contract.projection_contract import TextContract, docs

WORDS = ("greyhound Pixel walk park lake ramen spicy bicycle red commute painting pottery adopted "
         "running runs ran hiking friends support group caroline melanie yesterday weekend").split()
QUERIES = ("greyhound", "Pixel walk in the park", "running runs", "spicy ramen with friends",
           "what did Caroline paint last weekend", "support group", "nothing matches zzz")
BUDGET = 64 * 2**20


def corpus(n: int, user: str = "ann") -> list[Document]:
    """``n`` turns of one user with neighbourhoods, words repeated (ties), a few memories."""
    [base] = docs()[:1]
    turns = [replace(base, id=f"{user}-{i}", user=user, session=f"s{i // 10}", offset=i,
                     type="semantic" if i % 9 == 0 else "episodic",
                     content=" ".join(WORDS[(i * j + i // 3) % len(WORDS)] for j in range(1, 2 + i % 7)))
             for i in range(n)]
    return [replace(d, context=neighbourhood(turns, i)) if d.type == "episodic" else d for i, d in enumerate(turns)]


async def both(memory: SqliteFtsIndex, fts: SqliteFtsIndex, scope: Scope, query: str, k: int,
               field: str) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    a = await memory.search(scope, query, k, field=field)  # type: ignore[arg-type]
    b = await fts.search(scope, query, k, field=field)  # type: ignore[arg-type]
    return ([(h.document.id, round(h.score, 9)) for h in a], [(h.document.id, round(h.score, 9)) for h in b])


class TestSqliteFtsInMemory(TextContract):
    @pytest.fixture
    async def index(self, tmp_path: Path) -> AsyncIterator[SqliteFtsIndex]:
        index = SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=BUDGET)
        yield index
        await index.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[SqliteFtsIndex]]:
        async def again() -> SqliteFtsIndex:
            return SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=BUDGET)

        return again


async def test_a_users_scores_are_fts5s_to_the_ninth_decimal(tmp_path: Path) -> None:
    path = tmp_path / "text.sqlite3"
    memory = SqliteFtsIndex(path, memory_bytes=BUDGET)
    fts = SqliteFtsIndex(path)  # the same file, scored inside FTS5
    try:
        turns = corpus(300)
        for first in range(0, len(turns), 40):  # batches: neighbourhoods written again later
            await memory.upsert(turns[first:first + 40], {"s#0": first + 40})
        await memory.upsert([replace(turns[4], content="hiking hiking hiking lake"),
                             replace(turns[5], type="superseded")], {"s#0": 400})
        assert memory.memory_stats() == {**memory.memory_stats(), "users": 1, "building": 0, "documents": 300}
        compared = 0
        for query in QUERIES:
            for field in ("content", "context"):
                for types in ((), ("episodic",), ("episodic", "semantic"), ("superseded",)):
                    for k in (1, 5, 50):
                        got, expected = await both(memory, fts, Scope(tenant="t1", user="ann", types=types),
                                                   query, k, field)
                        assert got == expected, (query, field, types, k)
                        compared += bool(expected)
        assert compared > 100
    finally:
        await memory.close()
        await fts.close()


async def test_a_user_already_in_the_table_is_read_into_memory_on_first_search(tmp_path: Path) -> None:
    path = tmp_path / "text.sqlite3"
    before = SqliteFtsIndex(path)
    await before.upsert(corpus(120) + corpus(30, user="bob"), {"s#0": 1})
    await before.close()
    # The reference: ann's documents alone in a table of their own, scored by FTS5.
    fts = SqliteFtsIndex(tmp_path / "ann-alone.sqlite3")
    await fts.upsert(corpus(120), {"s#0": 1})
    index = SqliteFtsIndex(path, memory_bytes=BUDGET)
    try:
        scope = Scope(tenant="t1", user="ann", types=("episodic", "semantic"))
        first = await index.search(scope, "greyhound walk", 10, field="context")  # FTS5 answers, the build starts
        stats = index.memory_stats() or {}
        # The read may already be done (it ran while FTS5 answered): one user, one way or the other.
        assert first and stats["users"] + stats["building"] == 1
        await asyncio.gather(*index._builds)
        assert index.memory_stats()["users"] == 1  # type: ignore[index]
        assert index.memory_stats()["documents"] == 120  # type: ignore[index]
        # Written after the build: applied to the ready index.
        late = replace(corpus(121)[120], content="greyhound greyhound walk")
        await index.upsert([late], {"s#0": 2})
        await fts.upsert([late], {"s#0": 2})
        for query in QUERIES:
            got, expected = await both(index, fts, scope, query, 20, "context")
            assert got == expected and (expected or query == QUERIES[-1])
        # bob had rows before and was never searched: his writes are not held.
        await index.upsert([replace(corpus(1, user="bob")[0], id="bob-late")], {"s#0": 3})
        assert index.memory_stats()["documents"] == 121  # type: ignore[index]
        # Erasing the user forgets its index too.
        assert await index.purge_user("t1", "ann") == 121
        assert index.memory_stats()["users"] == 0  # type: ignore[index]
        assert await index.search(scope, "greyhound", 10) == []
        await asyncio.gather(*index._builds)  # that search read her (now empty) rows again
        assert index.memory_stats()["documents"] == 0  # type: ignore[index]
    finally:
        await index.close()
        await fts.close()


async def test_deferred_writes_of_a_new_user_are_read_on_first_search(tmp_path: Path) -> None:
    """A rebuild's new version (``defer_caches``): its writes fill no in-memory postings;
    the first search reads the user from the table, and the scores are FTS5's."""
    index = SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=BUDGET)
    fts = SqliteFtsIndex(tmp_path / "text.sqlite3")
    try:
        index.defer_caches()
        turns = corpus(160)
        for first in range(0, len(turns), 40):
            await index.upsert(turns[first:first + 40], {"s#0": first + 40})
        assert index.memory_stats()["documents"] == 0  # type: ignore[index]
        scope = Scope(tenant="t1", user="ann")
        got, expected = await both(index, fts, scope, "greyhound walk", 10, "content")
        assert got == expected and expected
        await asyncio.gather(*index._builds)
        assert index.memory_stats()["documents"] == 160  # type: ignore[index]
        for query in QUERIES:
            got, expected = await both(index, fts, scope, query, 20, "context")
            assert got == expected
    finally:
        await index.close()
        await fts.close()


async def test_a_query_term_of_several_tokens_is_left_to_fts5_as_a_phrase(tmp_path: Path) -> None:
    assert memory_terms("Did O'Brien call about snake_case?") is None
    assert memory_terms("Running with Pixel runs") == ["run", "pixel", "run"]  # repeats count, as in FTS5
    index = SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=BUDGET)
    try:
        [base] = docs()[:1]
        await index.upsert([replace(base, id="a", content="O'Brien called"), replace(base, id="b", content="brien o")],
                           {"s#0": 1})
        assert [h.document.id for h in await index.search(Scope(tenant="t1", user="ann"), "O'Brien", 5)] == ["a"]
    finally:
        await index.close()


async def test_a_row_that_left_the_user_behind_the_caches_back_is_never_shown(tmp_path: Path) -> None:
    index = SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=BUDGET)
    try:
        await index.upsert(corpus(20), {"s#0": 1})
        scope = Scope(tenant="t1", user="ann")
        [top, *_] = await index.search(scope, "greyhound", 5)
        # Moved to another user by a writer that bypassed the cache (another process).
        await index._sqlite.run(lambda db: db.execute("UPDATE docs SET user='bob' WHERE id=?", (top.document.id,)))
        again = await index.search(scope, "greyhound", 5)
        assert top.document.id not in {h.document.id for h in again} and again
        assert index.memory_stats()["documents"] == 19  # type: ignore[index]
    finally:
        await index.close()


async def test_the_turn_and_neighbourhood_searches_asked_at_once_are_fts5s(tmp_path: Path) -> None:
    # Recall asks its two BM25 paths at once: one hop and one read of the documents
    # they found, each search's hits and scores as FTS5 gives them asked one by one.
    index = SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=BUDGET)
    fts = SqliteFtsIndex(tmp_path / "fts.sqlite3")
    try:
        for store in (index, fts):
            await store.upsert(corpus(150), {"s#0": 1})
        scope = Scope(tenant="t1", user="ann")
        await index.search(scope, "greyhound", 1)
        await asyncio.gather(*index._builds)
        assert index.memory_stats()["users"] == 1  # type: ignore[index]
        for query in QUERIES:
            asked = [TextSearch(scope, query, 20), TextSearch(scope, query, 15, "context")]
            together = await index.search_many(asked)
            expected = [await fts.search(s.scope, s.query, s.k, field=s.field) for s in asked]
            assert [[(h.document.id, round(h.score, 9)) for h in hits] for hits in together] == \
                   [[(h.document.id, round(h.score, 9)) for h in hits] for hits in expected]
            assert (together[0] and together[1]) or query == QUERIES[-1]
            found = await index.find_many(asked)  # ids only: no document decoded
            assert all(f.document is None for fs in found for f in fs)
            assert [[(f.id, f.score) for f in fs] for fs in found] == \
                   [[(h.document.id, h.score) for h in hits] for hits in together]
        # A query without a keyword, or a phrase term, is answered as ``search`` answers it.
        assert await index.search_many([TextSearch(scope, "what is it?", 5)]) == [[]]
        phrase = [TextSearch(scope, "Pixel's walk", 5)]
        assert [[h.document.id for h in hits] for hits in await index.search_many(phrase)] == \
               [[h.document.id for h in await fts.search(scope, "Pixel's walk", 5)]]
    finally:
        await index.close()
        await fts.close()
