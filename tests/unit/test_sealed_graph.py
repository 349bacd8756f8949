"""The cluster graph's sealing wrapper (``security/sealed_graph``), over the SQLite graph:
the store receives no words of the users (documents sealed, entities as keyed tokens),
searches by name still work and give the documents back whole, a destroyed key hides its
documents, and a sealed document altered in the store is an error."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_graph import SqliteGraph
from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.graph import GraphItem
from hindsight_common.ports.projection import Document, Scope
from hindsight_common.security.data_keys import DataKeys
from hindsight_common.security.sealed_graph import PREFIX, SealedGraph

MASTER = bytes(range(32))


def doc(doc_id: str, user: str, content: str, minute: int = 0) -> Document:
    return Document(id=doc_id, tenant="t1", user=user, session="s1", type="episodic", speaker=user.title(),
                    role="user", content=content, occurred_at=datetime(2024, 5, 1, 10, minute, tzinfo=UTC),
                    event_ids=(doc_id,), stream="hindsight.interactions.v1", offset=minute, tags=("x",))


def sealed(tmp_path: Path, master: bytes = MASTER) -> SealedGraph:
    return SealedGraph(SqliteGraph(tmp_path / "graph.sqlite3"),
                       DataKeys(SqliteKeyVault(tmp_path / "keys.sqlite3"), master), lambda: master)


@pytest.fixture
async def graph(tmp_path: Path) -> AsyncIterator[SealedGraph]:
    g = sealed(tmp_path)
    yield g
    await g.close()


ANN = doc("d1", "ann", "I adopted Zorblax from Quimbrook Shelter", 1)
BOB = doc("d2", "bob", "Zorblax is my neighbour's cat", 2)


async def test_the_store_gets_no_words_and_searches_give_the_documents_back(graph: SealedGraph, tmp_path: Path) -> None:
    await graph.upsert([GraphItem(ANN, ("Zorblax", "Quimbrook Shelter")), GraphItem(BOB, ("Zorblax",))], {"s#0": 2})
    hits = await graph.search(Scope(tenant="t1"), ["zorblax"], 10, hops=0)
    assert {h.document for h in hits} == {ANN, BOB}
    assert [h.document for h in await graph.search(Scope(tenant="t1", user="ann"), ["Quimbrook Shelter"], 10)] == [ANN]
    stored = await graph.inner.search(Scope(tenant="t1"), graph.stored_keys("t1", ["Zorblax"]), 10, hops=0)
    assert stored and all(h.document.content.startswith(PREFIX) and h.document.speaker == "" for h in stored)
    assert await graph.entities_of("t1", "d1") == tuple(sorted(graph.stored_keys("t1", ["Zorblax", "Quimbrook Shelter"])))
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("graph.sqlite3*")).lower()
    assert b"zorblax" not in raw and b"quimbrook" not in raw and b"d1" in raw


async def test_tokens_differ_per_tenant_and_per_master_key(graph: SealedGraph, tmp_path: Path) -> None:
    [t1] = graph.stored_keys("t1", ["Zorblax"])
    assert graph.stored_keys("t1", ["  ZORBLAX "]) == (t1,)  # normalised first, like entity keys
    assert graph.stored_keys("t2", ["Zorblax"]) != (t1,)
    other = sealed(tmp_path / "other", bytes(32))
    try:
        assert other.stored_keys("t1", ["Zorblax"]) != (t1,)
    finally:
        await other.close()


async def test_a_destroyed_key_hides_that_users_documents_only(graph: SealedGraph, tmp_path: Path) -> None:
    await graph.upsert([GraphItem(ANN, ("Zorblax",)), GraphItem(BOB, ("Zorblax",))], {})
    keys = DataKeys(SqliteKeyVault(tmp_path / "keys.sqlite3"), MASTER)
    try:
        assert await keys.destroy("t1", "ann") == 1
    finally:
        await keys.close()
    fresh = sealed(tmp_path)  # a process whose key cache never saw ann's key
    try:
        assert [h.document for h in await fresh.search(Scope(tenant="t1"), ["Zorblax"], 10)] == [BOB]
    finally:
        await fresh.close()


async def test_a_sealed_document_altered_in_the_store_is_an_error(graph: SealedGraph, tmp_path: Path) -> None:
    await graph.upsert([GraphItem(ANN, ("Zorblax",)), GraphItem(BOB, ("Zorblax",))], {})
    db = sqlite3.connect(tmp_path / "graph.sqlite3")
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    [(table, column)] = [(t, c) for t in tables for (_, c, *_rest) in db.execute(f"PRAGMA table_info({t})")
                         if c == "payload"]
    rows = dict(db.execute(f"SELECT id, {column} FROM {table}").fetchall())
    db.execute(f"UPDATE {table} SET {column} = ? WHERE id = 'd1'", (rows["d2"].replace('"d2"', '"d1"'),))
    db.commit()
    db.close()
    with pytest.raises(ProjectionError, match="does not open"):
        await graph.search(Scope(tenant="t1"), ["Zorblax"], 10)
