"""Purging an erased user from the embedded SQLite stores, and leaving no trace on disk.

Each function deletes one user's rows inside a transaction, then ``scrub`` rewrites the
file (VACUUM) and empties its WAL: a deleted row otherwise survives in a free page or a
WAL frame. The text index also merges its FTS5 segments first (``optimize``): an FTS5
delete only adds a tombstone beside the old segment, which still holds the terms.
Other users' rows are never touched; an entity node is removed only once no document
mentions it any more.
"""

from __future__ import annotations

import sqlite3

from hindsight_common.adapters.sqlite_db import in_transaction, scrub


def purge_text(db: sqlite3.Connection, tenant: str, user: str) -> int:
    """The user's documents and their FTS rows; returns how many documents."""
    def tx(d: sqlite3.Connection) -> int:
        rowids = [r[0] for r in d.execute("SELECT rowid FROM docs WHERE tenant=? AND user=?", (tenant, user))]
        d.executemany("DELETE FROM fts WHERE rowid=?", [(r,) for r in rowids])
        d.execute("DELETE FROM docs WHERE tenant=? AND user=?", (tenant, user))
        d.execute("INSERT INTO fts (fts) VALUES ('optimize')")
        return len(rowids)

    gone = in_transaction(db, tx)
    scrub(db)
    return gone


def purge_graph(db: sqlite3.Connection, tenant: str, user: str) -> int:
    """The user's documents, their edges, sessions and user node, and the entities no
    one else's document mentions; returns how many documents."""
    def tx(d: sqlite3.Connection) -> int:
        ids = [r[0] for r in d.execute("SELECT id FROM docs WHERE tenant=? AND user=?", (tenant, user))]
        d.executemany("DELETE FROM edges WHERE tenant=? AND src=?", [(tenant, i) for i in ids])
        d.executemany("DELETE FROM edges WHERE tenant=? AND dst=?", [(tenant, i) for i in ids])
        # A session node's edges: IN_SESSION (from the user's documents, gone above) and
        # OF_USER (to the user).
        d.execute("DELETE FROM edges WHERE tenant=? AND rel='OF_USER' AND dst=?", (tenant, user))
        d.execute("DELETE FROM docs WHERE tenant=? AND user=?", (tenant, user))
        d.execute("DELETE FROM sessions WHERE tenant=? AND user=?", (tenant, user))
        d.execute("DELETE FROM users WHERE tenant=? AND user=?", (tenant, user))
        d.execute("DELETE FROM entities WHERE tenant=? AND NOT EXISTS (SELECT 1 FROM edges e WHERE "
                  "e.tenant=entities.tenant AND e.rel='MENTIONS' AND e.dst=entities.key)", (tenant,))
        return len(ids)

    gone = in_transaction(db, tx)
    scrub(db)
    return gone


def purge_reflect_state(db: sqlite3.Connection, tenant: str, user: str) -> int:
    """The user's turns, summaries and known memories; returns how many rows."""
    def tx(d: sqlite3.Connection) -> int:
        return sum(d.execute(f"DELETE FROM {table} WHERE tenant=? AND user=?", (tenant, user)).rowcount
                   for table in ("turns", "summaries", "memories"))

    gone = in_transaction(db, tx)
    scrub(db)
    return gone
