"""Embedded graph projection: nodes and edges in SQLite tables.

Nodes are tables (``docs`` with the document payload, ``entities``, ``sessions``,
``users``); edges live in one table, ``edges (tenant, rel, src, dst)``:

    MENTIONS      doc id       -> entity key
    IN_SESSION    doc id       -> session node id (JSON [user, session])
    OF_USER       session node -> user
    DERIVED_FROM  memory id    -> event id (an interaction's document id)
    SUPERSEDES    memory id    -> older memory id

Every key starts with the tenant, so tenant isolation is part of each lookup. The
documents, their edges and the log position they reflect commit in one transaction.
The one-hop neighbourhood is two joins over ``edges`` (out of a matched document,
back into its neighbours), answered by the primary key and the reverse index.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hindsight_common.documents import from_payload, to_payload
from hindsight_common.adapters.sqlite_db import SqliteDb, SqliteProjectionTables, record_position
from hindsight_common.adapters.sqlite_purge import purge_graph
from hindsight_common.errors import ProjectionError
from hindsight_common.text.entities import entity_key, entity_keys
from hindsight_common.ports.graph import GraphItem, GraphLinks, GraphStore, check_hops, hop_score
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Hit, Scope


_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    tenant  TEXT NOT NULL,
    id      TEXT NOT NULL,
    user    TEXT NOT NULL,
    session TEXT NOT NULL,
    agent   TEXT NOT NULL,
    type    TEXT NOT NULL,
    ts      REAL NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (tenant, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entities (
    tenant TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (tenant, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sessions (
    tenant TEXT NOT NULL, user TEXT NOT NULL, session TEXT NOT NULL,
    PRIMARY KEY (tenant, user, session)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS users (
    tenant TEXT NOT NULL, user TEXT NOT NULL, PRIMARY KEY (tenant, user)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS edges (
    tenant TEXT NOT NULL, rel TEXT NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL,
    PRIMARY KEY (tenant, rel, src, dst)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_in ON edges (tenant, rel, dst, src);
CREATE TABLE IF NOT EXISTS position (pkey TEXT PRIMARY KEY, offset INTEGER NOT NULL);
"""

# The edges a document owns: replaced whenever the document is written again.
_DOC_EDGES = ("MENTIONS", "IN_SESSION", "DERIVED_FROM", "SUPERSEDES")
# The edges a one-hop expansion follows out of a matched document and back.
_HOP_EDGES = ("MENTIONS", "IN_SESSION")


def session_node(user: str, session: str) -> str:
    """The id of a session node: sessions are per user (two users may share "s1")."""
    return json.dumps([user, session])


def scope_sql(alias: str, scope: Scope) -> tuple[str, list[Any]]:
    """The WHERE conditions of ``scope`` on docs alias ``alias``; tenant always first."""
    where = [f"{alias}.tenant = ?"]
    params: list[Any] = [scope.tenant]
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            where.append(f"{alias}.{name} = ?")
            params.append(value)
    if scope.types:
        where.append(f"{alias}.type IN ({','.join('?' * len(scope.types))})")
        params += list(scope.types)
    if scope.since is not None:
        where.append(f"{alias}.ts >= ?")
        params.append(scope.since.timestamp())
    if scope.until is not None:
        where.append(f"{alias}.ts < ?")
        params.append(scope.until.timestamp())
    return " AND ".join(where), params


class SqliteGraph(SqliteProjectionTables, GraphStore):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="graph store", error=ProjectionError, synchronous="NORMAL")
        self._db = self._sqlite.connection

    async def upsert(self, items: Sequence[GraphItem], position: Position) -> None:
        def tx(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                _write(db, items)
                record_position(db, position)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

        await self._run(tx)

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self._run(lambda db: purge_graph(db, tenant, user))

    async def search(
        self, scope: Scope, entities: Sequence[str], k: int, hops: int = 1
    ) -> list[Hit]:
        check_hops(hops)
        keys = entity_keys(entities)
        if not keys or k <= 0:
            return []

        def query(db: sqlite3.Connection) -> list[Hit]:
            # Drop entities too common to discriminate (an index-only count per key).
            usable = [key for key in keys if self._discriminates(db, scope.tenant, "MENTIONS", key)]
            if not usable:
                return []
            where, params = scope_sql("d", scope)
            seeds = db.execute(
                "SELECT d.id, d.payload, COUNT(*) AS matched FROM edges m "
                "JOIN docs d ON d.tenant = m.tenant AND d.id = m.src "
                f"WHERE m.tenant = ? AND m.rel = 'MENTIONS' AND m.dst IN ({','.join('?' * len(usable))}) "
                f"AND {where} GROUP BY d.id ORDER BY matched DESC, d.ts DESC, d.id ASC LIMIT ?",
                (scope.tenant, *usable, *params, k),
            ).fetchall()
            hits = [Hit(from_payload(json.loads(p)), float(m)) for _, p, m in seeds]
            if hops == 0 or not seeds or len(seeds) >= k:
                return hits
            rels = ",".join("?" * len(_HOP_EDGES))
            # The entities and sessions the matches link to, best match per hub; hubs
            # linked to more than max_fanout documents are left out, as in the match.
            hubs: dict[tuple[str, str], int] = {}
            for doc_id, _, matched in seeds:
                for rel, dst in db.execute(
                    f"SELECT rel, dst FROM edges WHERE tenant = ? AND rel IN ({rels}) AND src = ?",
                    (scope.tenant, *_HOP_EDGES, doc_id),
                ):
                    hubs[(rel, dst)] = max(hubs.get((rel, dst), 0), int(matched))
            kept = [(rel, dst, best) for (rel, dst), best in hubs.items()
                    if self._discriminates(db, scope.tenant, rel, dst)]
            if not kept:
                return hits
            n_where, n_params = scope_sql("n", scope)
            values = ",".join("(?,?,?)" for _ in kept)
            seed_ids = [i for i, _, _ in seeds]
            rows = db.execute(
                f"WITH hub(rel, dst, best) AS (VALUES {values}) "
                "SELECT n.payload, MAX(hub.best) AS best, n.ts, n.id FROM hub "
                "JOIN edges b ON b.tenant = ? AND b.rel = hub.rel AND b.dst = hub.dst "
                "JOIN docs n ON n.tenant = b.tenant AND n.id = b.src "
                f"WHERE {n_where} AND n.id NOT IN ({','.join('?' * len(seed_ids))}) "
                "GROUP BY n.id ORDER BY best DESC, n.ts DESC, n.id ASC LIMIT ?",
                (*[v for h in kept for v in h], scope.tenant, *n_params, *seed_ids, k - len(seeds)),
            ).fetchall()
            return hits + [
                Hit(from_payload(json.loads(p)), hop_score(int(best), len(keys)))
                for p, best, _, _ in rows
            ]

        return await self._run(query)

    def _discriminates(self, db: sqlite3.Connection, tenant: str, rel: str, dst: str) -> bool:
        """Whether at most ``max_fanout`` documents link to ``dst`` (an index-only count
        that stops one past the limit)."""
        count = db.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE tenant=? AND rel=? AND dst=? LIMIT ?)",
            (tenant, rel, dst, self.max_fanout + 1),
        ).fetchone()[0]
        return bool(count <= self.max_fanout)

    async def entities_of(self, tenant: str, doc_id: str) -> tuple[str, ...]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT dst FROM edges WHERE tenant=? AND rel='MENTIONS' AND src=? ORDER BY dst",
                (tenant, doc_id),
            ).fetchall()
        )
        return tuple(str(r[0]) for r in rows)

    async def links_of(self, tenant: str, doc_id: str) -> GraphLinks:
        def query(db: sqlite3.Connection) -> GraphLinks:
            def out(rel: str) -> tuple[str, ...]:
                rows = db.execute(
                    "SELECT dst FROM edges WHERE tenant=? AND rel=? AND src=? ORDER BY dst",
                    (tenant, rel, doc_id),
                ).fetchall()
                return tuple(str(r[0]) for r in rows)

            by = db.execute(
                "SELECT src FROM edges WHERE tenant=? AND rel='SUPERSEDES' AND dst=? ORDER BY src",
                (tenant, doc_id),
            ).fetchall()
            return GraphLinks(out("DERIVED_FROM"), out("SUPERSEDES"), tuple(str(r[0]) for r in by))

        return await self._run(query)



def _write(db: sqlite3.Connection, items: Sequence[GraphItem]) -> None:
    """Documents, their nodes and the edges they own (replacing the old ones), in a
    statement per kind for the whole batch. The same as writing them one by one: a
    document met twice keeps its last state and its last edges; the entity, user and
    session nodes and the session -> user edges of every item stay."""
    last: dict[tuple[str, str], GraphItem] = {}
    entities: list[tuple[str, str, str]] = []
    users: dict[tuple[str, str], None] = {}
    sessions: dict[tuple[str, str, str], None] = {}
    of_user: dict[tuple[str, str, str, str], None] = {}
    keys: dict[tuple[str, str], dict[str, str]] = {}
    for item in items:
        d = item.document
        t = d.tenant
        last.pop((t, d.id), None)
        last[(t, d.id)] = item  # in the order of last appearance
        names: dict[str, str] = {}
        for name in item.entities:
            key = entity_key(name)
            if key:
                names.setdefault(key, name)
        keys[(t, d.id)] = names
        entities += [(t, key, name) for key, name in names.items()]
        users[(t, d.user)] = None
        sessions[(t, d.user, d.session)] = None
        of_user[(t, "OF_USER", session_node(d.user, d.session), d.user)] = None
    db.executemany(
        "INSERT INTO docs (tenant, id, user, session, agent, type, ts, payload) "
        "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (tenant, id) DO UPDATE SET user=excluded.user, "
        "session=excluded.session, agent=excluded.agent, type=excluded.type, ts=excluded.ts, "
        "payload=excluded.payload",
        [(d.tenant, d.id, d.user, d.session, d.agent or "", d.type, d.occurred_at.timestamp(),
          json.dumps(to_payload(d))) for d in (item.document for item in last.values())],
    )
    db.executemany(
        f"DELETE FROM edges WHERE tenant=? AND src=? AND rel IN ({','.join('?' * len(_DOC_EDGES))})",
        [(t, doc_id, *_DOC_EDGES) for t, doc_id in last],
    )
    db.executemany("INSERT INTO entities (tenant, key, name) VALUES (?,?,?) ON CONFLICT DO NOTHING", entities)
    db.executemany("INSERT OR IGNORE INTO users (tenant, user) VALUES (?,?)", list(users))
    db.executemany("INSERT OR IGNORE INTO sessions (tenant, user, session) VALUES (?,?,?)", list(sessions))
    edges: list[tuple[str, str, str, str]] = []
    for (t, doc_id), item in last.items():
        d = item.document
        edges += [(t, "MENTIONS", doc_id, key) for key in keys[(t, doc_id)]]
        edges.append((t, "IN_SESSION", doc_id, session_node(d.user, d.session)))
        edges += [(t, "DERIVED_FROM", doc_id, e) for e in item.derived_from]
        edges += [(t, "SUPERSEDES", doc_id, m) for m in item.supersedes if m != doc_id]
    edges += list(of_user)
    db.executemany("INSERT OR IGNORE INTO edges (tenant, rel, src, dst) VALUES (?,?,?,?)", edges)
