"""The key vault in SQLite (embedded mode), in ``<data dir>/state/keys.sqlite3``.

Its own file, with ``secure_delete`` on and a VACUUM after every destroy (``scrub``), so a
destroyed key leaves no page behind, in the file or its WAL. Commits are fsynced
(``synchronous=FULL``): a key is used only once it is on disk, and a destroy is
acknowledged only once it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from hindsight_common.adapters.sqlite_db import SqliteDb, in_transaction, scrub
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.key_vault import KeyVault, WrappedKey

_SCHEMA = """
PRAGMA secure_delete=ON;
CREATE TABLE IF NOT EXISTS data_keys (
    key_id     TEXT PRIMARY KEY,
    tenant     TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    wrapped    BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS data_keys_live ON data_keys (tenant, user_id);
"""
_COLUMNS = "tenant, user_id, key_id, wrapped, created_at"
Row = tuple[str, str, str, bytes, str]


def _key(row: Row) -> WrappedKey:
    tenant, user, key_id, wrapped, created_at = row
    return WrappedKey(tenant, user, key_id, bytes(wrapped), datetime.fromisoformat(created_at))


class SqliteKeyVault(KeyVault):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="log's key vault", error=PersistenceError,
                               synchronous="FULL")

    async def current(self, tenant: str, user: str) -> WrappedKey | None:
        row: Row | None = await self._sqlite.run(lambda db: db.execute(
            f"SELECT {_COLUMNS} FROM data_keys WHERE tenant=? AND user_id=?", (tenant, user)).fetchone())
        return _key(row) if row else None

    async def create(self, key: WrappedKey) -> WrappedKey:
        def write(db: sqlite3.Connection) -> Row:
            db.execute(
                f"INSERT INTO data_keys ({_COLUMNS}) VALUES (?,?,?,?,?) ON CONFLICT (tenant, user_id) DO NOTHING",
                (key.tenant, key.user, key.key_id, key.wrapped, key.created_at.isoformat()))
            row: Row = db.execute(f"SELECT {_COLUMNS} FROM data_keys WHERE tenant=? AND user_id=?",
                                  (key.tenant, key.user)).fetchone()
            return row

        return _key(await self._sqlite.run(lambda db: in_transaction(db, write)))

    async def find(self, tenant: str, user: str, key_id: str) -> WrappedKey | None:
        row: Row | None = await self._sqlite.run(lambda db: db.execute(
            f"SELECT {_COLUMNS} FROM data_keys WHERE key_id=? AND tenant=? AND user_id=?",
            (key_id, tenant, user)).fetchone())
        return _key(row) if row else None

    async def destroy(self, tenant: str, user: str) -> int:
        def delete(db: sqlite3.Connection) -> int:
            gone = in_transaction(db, lambda d: d.execute(
                "DELETE FROM data_keys WHERE tenant=? AND user_id=?", (tenant, user)).rowcount)
            scrub(db)
            return int(gone)

        return await self._sqlite.run(delete)

    async def every_key(self) -> list[WrappedKey]:
        rows: list[Row] = await self._sqlite.run(lambda db: db.execute(
            f"SELECT {_COLUMNS} FROM data_keys ORDER BY tenant, user_id").fetchall())
        return [_key(r) for r in rows]

    async def rewrap(self, keys: Sequence[WrappedKey]) -> int:
        def update(db: sqlite3.Connection) -> int:
            done = in_transaction(db, lambda d: sum(d.execute(
                "UPDATE data_keys SET wrapped=? WHERE key_id=? AND tenant=? AND user_id=?",
                (k.wrapped, k.key_id, k.tenant, k.user)).rowcount for k in keys))
            scrub(db)
            return int(done)

        return await self._sqlite.run(update)

    async def close(self) -> None:
        self._sqlite.close()
