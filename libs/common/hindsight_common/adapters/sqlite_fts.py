"""Embedded text projection: BM25 over SQLite FTS5 (porter stemming).

Chosen over tantivy for the embedded mode: it is in the standard library
(nothing to install), transactional with the position it records, and fast
enough at the sizes a single process serves (see README, "Text index").
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hindsight_common.documents import from_payload, to_payload
from hindsight_common.adapters.sqlite_db import SqliteDb, SqliteProjectionTables, record_position
from hindsight_common.adapters.sqlite_purge import purge_text
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import (
    MAX_SESSION_TURNS, Browse, Document, Hit, Scope, TextField, TextIndex,
)
from hindsight_common.text.terms import keyword_terms


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


class SqliteFtsIndex(SqliteProjectionTables, TextIndex):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="text index", error=ProjectionError, synchronous="NORMAL")
        self._db = self._sqlite.connection

    async def upsert(self, documents: Sequence[Document], position: Position) -> None:
        rows = [
            (d.id, d.tenant, d.user, d.session, d.agent or "", d.type,
             d.occurred_at.timestamp(), json.dumps(to_payload(d)), d.search_text, d.context,
             scope_tokens(d.tenant, d.user, d.type))
            for d in documents
        ]

        def tx(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
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
                record_position(db, position)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

        await self._run(tx)

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self._run(lambda db: purge_text(db, tenant, user))

    async def search(self, scope: Scope, query: str, k: int, *, field: TextField = "content") -> list[Hit]:
        match = fts_query(query)
        if match is None:
            return []
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
        rows = await self._sqlite.read(
            lambda db: db.execute(
                f"SELECT id, payload FROM docs WHERE tenant=? AND id IN ({','.join('?' * len(wanted))})",
                (tenant, *wanted),
            ).fetchall()
        )
        found = {str(i): from_payload(json.loads(p)) for i, p in rows}
        return [found[i] for i in wanted if i in found]
