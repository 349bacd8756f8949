"""Access counts in one SQLite file (embedded mode)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from hindsight_common.adapters.sqlite_db import SqliteDb, in_transaction, read_position, record_position
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.access import AccessCounts, AccessIncrement, applicable
from hindsight_common.ports.log import Position

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counts (
    tenant TEXT NOT NULL, doc_id TEXT NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (tenant, doc_id)
);
CREATE TABLE IF NOT EXISTS position (pkey TEXT PRIMARY KEY, offset INTEGER NOT NULL);
"""
_CHUNK = 500  # ids per SELECT: well under SQLite's bound-parameter limit


class SqliteAccessCounts(AccessCounts):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="access counts", error=PersistenceError)

    async def position(self) -> dict[str, int]:
        return await self._sqlite.run(read_position)

    async def add(self, increments: Sequence[AccessIncrement], position: Position) -> None:
        def write(db: sqlite3.Connection) -> None:
            totals = applicable(increments, read_position(db))
            db.executemany(
                "INSERT INTO counts (tenant, doc_id, count) VALUES (?,?,?) ON CONFLICT (tenant, doc_id)"
                " DO UPDATE SET count = count + excluded.count",
                [(tenant, doc_id, n) for (tenant, doc_id), n in totals.items()],
            )
            record_position(db, position)

        await self._sqlite.run(lambda db: in_transaction(db, write))

    async def get(self, tenant: str, ids: Sequence[str]) -> dict[str, int]:
        wanted = list(dict.fromkeys(ids))

        def read(db: sqlite3.Connection) -> dict[str, int]:
            out: dict[str, int] = {}
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT doc_id, count FROM counts WHERE tenant=? AND doc_id IN ({marks})",
                    (tenant, *chunk),
                ).fetchall()
                out.update({str(d): int(n) for d, n in rows})
            return out

        return await self._sqlite.run(read)

    async def delete(self, tenant: str, ids: Sequence[str]) -> None:
        wanted = list(dict.fromkeys(ids))

        def write(db: sqlite3.Connection) -> None:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                db.execute(f"DELETE FROM counts WHERE tenant=? AND doc_id IN ({','.join('?' * len(chunk))})",
                           (tenant, *chunk))

        if wanted:
            await self._sqlite.run(lambda db: in_transaction(db, write))

    async def close(self) -> None:
        self._sqlite.close()
