"""Embedded text projection: BM25 over SQLite FTS5 (porter stemming).

Chosen over tantivy for the embedded mode: it is in the standard library
(nothing to install), transactional with the position it records, and fast
enough at the sizes a single process serves (see README, "Text index").
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hindsight_common.adapters.bm25_memory import IndexedDoc, MemoryBm25, UserIndex
from hindsight_common.adapters.user_cache import UserKey
from hindsight_common.documents import from_payload, to_payload
from hindsight_common.adapters.sqlite_db import SqliteDb, SqliteProjectionTables, record_position
from hindsight_common.adapters.sqlite_purge import purge_text
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import (
    MAX_SESSION_TURNS, Browse, Document, Found, Hit, Scope, TextField, TextIndex, TextSearch, as_hits,
)
from hindsight_common.text.fts_tokens import tokens
from hindsight_common.text.terms import keyword_terms

log = logging.getLogger(__name__)
# Rows an in-memory search found, by rowid: each document's id and, when read, the document.
_ReadRows = dict[int, tuple[str, Document | None]]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    rowid   INTEGER PRIMARY KEY,
    id      TEXT NOT NULL UNIQUE,
    tenant  TEXT NOT NULL,
    user    TEXT NOT NULL,
    session TEXT NOT NULL,
    agent   TEXT NOT NULL,
    type    TEXT NOT NULL,
    ts      REAL NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_scope ON docs (tenant, user, session);
-- Newest first inside a user (recall's recency path, browsing): no sort of every doc.
CREATE INDEX IF NOT EXISTS docs_recent ON docs (tenant, user, ts);
-- A session's turns in log order (turn neighbourhoods, ``session_turns``).
CREATE INDEX IF NOT EXISTS docs_turns ON docs (tenant, user, session, type, json_extract(payload, '$.offset'));
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(body, ctx, scope, tokenize = 'porter unicode61');
CREATE TABLE IF NOT EXISTS position (pkey TEXT PRIMARY KEY, offset INTEGER NOT NULL);
"""


def fts_query(query: str) -> str | None:
    """An FTS5 MATCH expression: any of the query's keyword terms (quoted)."""
    terms = keyword_terms(query)
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def scope_tokens(tenant: str, user: str, doc_type: str) -> str:
    """Index-time tokens naming a document's tenant, tenant/user and tenant/user/type.

    Matching them inside the full-text query lets FTS5 intersect posting lists, so a
    query only scores the user's documents instead of every document that shares a
    word with it and is filtered out afterwards (at 178,000 documents: p50 19 ms). The
    type token does the same for recall's default scope (episodic and semantic): a
    user's merged and superseded memories are short and rank high, so ranking first and
    filtering after would keep few; joining first read every matching row's document
    (one user's 100,000 turns: 104 ms a neighbourhood search against 56 ranked inside
    FTS5). A document's type changes only through ``upsert``, which writes its tokens again.
    """
    return f"{_token('t', tenant)} {_token('u', tenant + chr(0) + user)} {_type_token(tenant, user, doc_type)}"


def _type_token(tenant: str, user: str, doc_type: str) -> str:
    return _token("y", f"{tenant}\0{user}\0{doc_type}")


def _token(prefix: str, value: str) -> str:
    return prefix + hashlib.sha256(value.encode()).hexdigest()[:24]


def _scoped_match(match: str, scope: Scope, column: str) -> str:
    if scope.user and scope.types:
        types = " OR ".join(_type_token(scope.tenant, scope.user, t) for t in scope.types)
        return f"scope : ({types}) AND {column} : ({match})"
    token = _token("u", scope.tenant + chr(0) + scope.user) if scope.user else _token("t", scope.tenant)
    return f"scope : {token} AND {column} : ({match})"


def _token_scoped(scope: Scope) -> bool:
    """Whether the scope tokens alone select the scope: tenant, tenant and user, or
    tenant, user and types."""
    return not (scope.session or scope.agent or scope.speakers or (scope.types and not scope.user)
                or scope.since is not None or scope.until is not None)


# bm25() weights per column (body, ctx, scope): only the searched column counts.
_WEIGHTS = {"content": ("body", "1.0, 0.0, 0.0"), "context": ("ctx", "0.0, 1.0, 0.0")}


def _scope_sql(scope: Scope) -> tuple[list[str], list[Any]]:
    """WHERE clauses over ``docs d`` for a scope; the tenant clause is always first."""
    where = ["d.tenant = ?"]
    params: list[Any] = [scope.tenant]
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            where.append(f"d.{name} = ?")
            params.append(value)
    if scope.types:
        where.append(f"d.type IN ({','.join('?' * len(scope.types))})")
        params += list(scope.types)
    if scope.speakers:
        where.append(f"json_extract(d.payload, '$.speaker') IN ({','.join('?' * len(scope.speakers))})")
        params += list(scope.speakers)
    if scope.since is not None:
        where.append("d.ts >= ?")
        params.append(scope.since.timestamp())
    if scope.until is not None:
        where.append("d.ts < ?")
        params.append(scope.until.timestamp())
    return where, params


_TURN = "SELECT payload, json_extract(payload, '$.offset') AS o, rowid AS r FROM docs " \
    "WHERE tenant=? AND user=? AND session=? AND type='episodic' AND "
# Before, between, after: each part served by the docs_turns index.
_SESSION_TURNS = (
    f"SELECT * FROM ({_TURN} json_extract(payload, '$.offset') < ? ORDER BY o DESC, r DESC LIMIT ?) "
    f"UNION ALL SELECT * FROM ({_TURN} json_extract(payload, '$.offset') BETWEEN ? AND ? ORDER BY o, r LIMIT ?) "
    f"UNION ALL SELECT * FROM ({_TURN} json_extract(payload, '$.offset') > ? ORDER BY o, r LIMIT ?)"
)


def by_ids_sql(n: int) -> str:
    """The documents with ``n`` ids (parameters: the ids, then the tenant). The ids are
    unique, so their index finds each row at once; the unary plus keeps the tenant's
    equality out of index choice (without it SQLite searched a tenant-led index and
    read every document of the tenant: 145 ms for the cross-encoder's 40 neighbourhoods
    at 100,000 turns of one user, against 0.5 ms)."""
    return f"SELECT id, payload FROM docs WHERE id IN ({','.join('?' * n)}) AND +tenant=?"


def memory_terms(query: str) -> list[str] | None:
    """The query's terms as the in-memory index holds them (one stemmed token per
    keyword term, repeats kept: FTS5 scores each quoted term of ``fts_query`` once);
    None when a term is not one token (FTS5 would match it as a phrase)."""
    out = []
    for term in keyword_terms(query):
        cut = tokens(term)
        if len(cut) != 1:
            return None
        out.append(cut[0])
    return out


def _indexed(rowid: int, doc_type: str, body: str, ctx: str) -> IndexedDoc:
    return IndexedDoc(rowid, doc_type, tokens(body), tokens(ctx))


class SqliteFtsIndex(SqliteProjectionTables, TextIndex):
    def __init__(self, path: Path, *, memory_bytes: int = 0) -> None:
        """``memory_bytes``: budget of the in-memory BM25 postings (``bm25_memory``) of the
        users searched; 0 scores every query inside FTS5."""
        self._sqlite = SqliteDb(path, _SCHEMA, what="text index", error=ProjectionError, synchronous="NORMAL")
        self._db = self._sqlite.connection
        self._memory = MemoryBm25(memory_bytes) if memory_bytes > 0 else None
        self._with_rows: set[UserKey] = set()  # users found to have rows before their first write here
        self._builds: set[asyncio.Task[None]] = set()

    def defer_caches(self) -> None:
        if self._memory is not None:
            self._memory.follow_new_users = False

    async def upsert(self, documents: Sequence[Document], position: Position) -> None:
        rows = [
            (d.id, d.tenant, d.user, d.session, d.agent or "", d.type,
             d.occurred_at.timestamp(), json.dumps(to_payload(d)), d.search_text, d.context,
             scope_tokens(d.tenant, d.user, d.type))
            for d in documents
        ]
        memory = self._memory

        def tx(db: sqlite3.Connection) -> None:
            written: list[tuple[UserKey, int, str, str, str]] = []
            db.execute("BEGIN IMMEDIATE")
            try:
                fresh = memory.fresh({(r[1], r[2]) for r in rows}, self._with_rows, lambda key: bool(db.execute(
                    "SELECT 1 FROM docs WHERE tenant=? AND user=? LIMIT 1", key).fetchone())) if memory else set()
                for *doc, body, ctx, scope in rows:
                    rowid = db.execute(
                        "INSERT INTO docs (id, tenant, user, session, agent, type, ts, payload) "
                        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET "
                        "tenant=excluded.tenant, user=excluded.user, session=excluded.session, "
                        "agent=excluded.agent, type=excluded.type, ts=excluded.ts, "
                        "payload=excluded.payload RETURNING rowid",
                        doc,
                    ).fetchone()[0]
                    db.execute("DELETE FROM fts WHERE rowid=?", (rowid,))
                    db.execute(
                        "INSERT INTO fts (rowid, body, ctx, scope) VALUES (?,?,?,?)",
                        (rowid, body, ctx, scope),
                    )
                    written.append(((str(doc[1]), str(doc[2])), int(rowid), str(doc[5]), body, ctx))
                record_position(db, position)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            if memory is not None:
                self._remember(memory, fresh, written)

        await self._run(tx)

    @staticmethod
    def _remember(memory: MemoryBm25, fresh: set[UserKey],
                  written: list[tuple[UserKey, int, str, str, str]]) -> None:
        """After the commit: the written rows into the in-memory indexes that hold their users."""
        for key in fresh:
            memory.start_empty(key)
        per_user: dict[UserKey, list[IndexedDoc]] = {}
        for key, rowid, doc_type, body, ctx in written:
            if key in per_user or memory.known(key):
                per_user.setdefault(key, []).append(_indexed(rowid, doc_type, body, ctx))
        for key, docs in per_user.items():
            memory.apply(key, docs)

    async def purge_user(self, tenant: str, user: str) -> int:
        gone = await self._run(lambda db: purge_text(db, tenant, user))
        if self._memory is not None:
            self._memory.drop((tenant, user))
        self._with_rows.discard((tenant, user))
        return gone

    async def close(self) -> None:
        for task in list(self._builds):
            task.cancel()
        await asyncio.gather(*self._builds, return_exceptions=True)
        if self._memory is not None:
            self._memory.drop_all()
        await super().close()

    def memory_stats(self) -> dict[str, int] | None:
        """The in-memory BM25 cache: users ready and building, documents, bytes (None: off)."""
        return self._memory.stats() if self._memory is not None else None

    async def _memory_searches(self, searches: Sequence[TextSearch], *,
                               read: bool = True) -> list[list[Found]] | None:
        """The searches served from their user's in-memory index, all in one worker
        thread (one hop, one lock, one read of the documents they found, or of only
        their ids unless ``read``); None when they cannot be (not all of one user, a
        filter the index lacks, a phrase term, the index not built yet: the first such
        search starts its build)."""
        memory = self._memory
        keys = {(s.scope.tenant, str(s.scope.user)) for s in searches}
        if memory is None or len(keys) != 1 or not all(s.scope.user and _token_scoped(s.scope) for s in searches):
            return None
        asked = [(memory_terms(s.query), s) for s in searches]
        if any(terms is None for terms, _ in asked):
            return None
        key = keys.pop()
        column = "payload" if read else "id"

        def find(index: UserIndex) -> list[list[tuple[int, float]]]:
            return [index.search(s.field, terms, s.scope.types, s.k) for terms, s in asked if terms is not None]

        def found_and_read(db: sqlite3.Connection) -> tuple[list[list[tuple[int, float]]] | None, _ReadRows]:
            # Searched, read and decoded in one worker thread: one hop to a thread and
            # back for all the searches, each document decoded once, none on the loop.
            founds = memory.read(key, find)
            rowids = [] if founds is None else list(dict.fromkeys(r for found in founds for r, _ in found))
            if not rowids:
                return founds, {}
            rows = db.execute(
                f"SELECT rowid, tenant, user, {column} FROM docs WHERE rowid IN ({','.join('?' * len(rowids))})",
                rowids).fetchall()
            if not read:
                return founds, {int(r): (str(i), None) for r, t, u, i in rows if (t, u) == key}
            return founds, {int(r): (d.id, d) for r, t, u, p in rows if (t, u) == key
                            for d in [from_payload(json.loads(p))]}

        founds, docs = await self._sqlite.read(found_and_read)
        if founds is None:
            if memory.claim_build(key):
                task = asyncio.get_running_loop().create_task(self._build(key))
                self._builds.add(task)
                task.add_done_callback(self._builds.discard)
            return None
        if stale := [r for r in dict.fromkeys(r for found in founds for r, _ in found) if r not in docs]:
            # A row gone from the table or now another user's (neither happens through
            # ``upsert`` or ``purge_user``, which keep the cache in step): never shown,
            # and dropped from the cache so it stops counting in the user's statistics.
            memory.remove(key, stale)
        return [[Found(docs[r][0], score, docs[r][1]) for r, score in found if r in docs] for found in founds]

    async def _build(self, key: UserKey) -> None:
        """Read one user's rows from the table into a new in-memory index."""
        assert self._memory is not None

        def read(db: sqlite3.Connection) -> UserIndex:
            index = UserIndex()
            rows = db.execute(
                "SELECT d.rowid, d.type, f.body, f.ctx FROM docs d JOIN fts f ON f.rowid = d.rowid "
                "WHERE d.tenant=? AND d.user=?", key)
            index.apply(_indexed(*row) for row in rows)
            return index

        await self._memory.build(key, self._sqlite.read(read), "BM25 postings")

    async def search_many(self, searches: Sequence[TextSearch]) -> list[list[Hit]]:
        if searches and all(fts_query(s.query) is not None for s in searches):
            served = await self._memory_searches(searches)
            if served is not None:
                return [as_hits(f) for f in served]
        return await super().search_many(searches)

    async def find_many(self, searches: Sequence[TextSearch]) -> list[list[Found]]:
        if searches and all(fts_query(s.query) is not None for s in searches):
            served = await self._memory_searches(searches, read=False)
            if served is not None:
                return served
        return await super().find_many(searches)

    async def search(self, scope: Scope, query: str, k: int, *, field: TextField = "content") -> list[Hit]:
        match = fts_query(query)
        if match is None:
            return []
        served = await self._memory_searches([TextSearch(scope, query, k, field)])
        if served is not None:
            return as_hits(served[0])
        column, weights = _WEIGHTS[field]
        scope_where, scope_params = _scope_sql(scope)
        scoped = _scoped_match(match, scope, column)
        if _token_scoped(scope):
            # The scope tokens inside the match already keep to the tenant (user, types):
            # rank and cut inside FTS5, then read only the top k documents. Joining first
            # looked up every matching row in ``docs`` (at one user's 10,000 turns about
            # 1,500 rows a query, half its time). Same rows, same order (the same scan
            # feeds the sort); the tenant and user are checked again on what is read.
            sql = (
                f"SELECT d.payload, m.rank FROM (SELECT rowid, bm25(fts, {weights}) AS rank FROM fts "
                f"WHERE fts MATCH ? ORDER BY rank LIMIT ?) m JOIN docs d ON d.rowid = m.rowid "
                f"WHERE {' AND '.join(scope_where)} ORDER BY m.rank"
            )
            params: list[Any] = [scoped, k, *scope_params]
        else:
            sql = (
                f"SELECT d.payload, bm25(fts, {weights}) AS rank FROM fts JOIN docs d ON d.rowid = fts.rowid "
                f"WHERE {' AND '.join(['fts MATCH ?', *scope_where])} ORDER BY rank LIMIT ?"
            )
            params = [scoped, *scope_params, k]
        # A search reads beside the writer and beside the other paths' searches.
        rows = await self._sqlite.read(lambda db: db.execute(sql, params).fetchall())
        # FTS5's bm25() is negative (lower is better); expose the usual positive score.
        return [Hit(from_payload(json.loads(p)), -float(r)) for p, r in rows]

    async def session_documents(
        self, tenant: str, user: str, session: str, limit: int
    ) -> list[Document]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT payload FROM docs WHERE tenant=? AND user=? AND session=? "
                "AND type IN ('episodic', 'summary') ORDER BY ts DESC, rowid DESC LIMIT ?",
                (tenant, user, session, limit),
            ).fetchall()
        )
        return [from_payload(json.loads(r[0])) for r in rows]

    async def session_turns(
        self, tenant: str, user: str, session: str, first: int, last: int, n: int
    ) -> list[Document]:
        rows = await self._run(lambda db: db.execute(_SESSION_TURNS, (
            *(tenant, user, session, first, n), *(tenant, user, session, first, last, MAX_SESSION_TURNS),
            *(tenant, user, session, last, n))).fetchall())
        return [from_payload(json.loads(r[0])) for r in sorted(rows, key=lambda r: (r[1], r[2]))]

    async def browse(self, request: Browse) -> list[Document]:
        where, params = _scope_sql(request.scope)
        for name, values in (("kind", request.kinds), ("key", request.keys)):
            if values:
                where.append(f"json_extract(d.payload, '$.{name}') IN ({','.join('?' * len(values))})")
                params += list(values)
        for tag in request.tags:
            where.append("EXISTS (SELECT 1 FROM json_each(d.payload, '$.tags') WHERE value = ?)")
            params.append(tag)
        sql = (f"SELECT d.payload FROM docs d WHERE {' AND '.join(where)} "
               "ORDER BY d.ts DESC, d.rowid DESC LIMIT ? OFFSET ?")
        rows = await self._sqlite.read(lambda db: db.execute(sql, (*params, request.limit, request.offset)).fetchall())
        return [from_payload(json.loads(r[0])) for r in rows]

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        # Recall reads the neighbourhoods of its cross-encoder's head here: beside the
        # writer, never queued behind a projection batch's transaction.
        rows = await self._sqlite.read(lambda db: db.execute(by_ids_sql(len(wanted)), (*wanted, tenant)).fetchall())
        found = {str(i): from_payload(json.loads(p)) for i, p in rows}
        return [found[i] for i in wanted if i in found]
