"""API keys in SQLite (embedded mode), in ``<data dir>/state/credentials.sqlite3``.

A file of its own beside the reflect and access state, so that ``hindsight keys create``
can add a key while ``hindsight serve`` runs (SQLite's WAL lets both open it; the server
reads the key on its next request). Commits are fsynced (``synchronous=FULL``): a key is
shown to its owner only once it is on disk.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from hindsight_common.adapters.sqlite_db import SqliteDb
from hindsight_common.errors import InvalidInput, NotFound, PersistenceError
from hindsight_common.ports.credentials import Credentials
from hindsight_common.security.credentials import ApiKey

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    key_id     TEXT PRIMARY KEY,
    tenant     TEXT NOT NULL,
    key_hash   TEXT NOT NULL UNIQUE,
    scopes     TEXT NOT NULL,
    name       TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_by_tenant ON api_keys (tenant, created_at);
"""
_COLUMNS = "key_id, tenant, key_hash, scopes, name, created_at, revoked_at"


def _key(row: tuple[str, ...]) -> ApiKey:
    key_id, tenant, key_hash, scopes, name, created_at, revoked_at = row
    return ApiKey(
        key_id=key_id, tenant=tenant, key_hash=key_hash, scopes=frozenset(scopes.split(",")),
        name=name, created_at=datetime.fromisoformat(created_at),
        revoked_at=datetime.fromisoformat(revoked_at) if revoked_at else None,
    )


class SqliteCredentials(Credentials):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="credential store", error=PersistenceError,
                                synchronous="FULL")

    async def add(self, key: ApiKey) -> None:
        def write(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    f"INSERT INTO api_keys ({_COLUMNS}) VALUES (?,?,?,?,?,?,?)",
                    (key.key_id, key.tenant, key.key_hash, ",".join(sorted(key.scopes)), key.name,
                     key.created_at.isoformat(), key.revoked_at.isoformat() if key.revoked_at else None),
                )
            except sqlite3.IntegrityError as e:
                raise InvalidInput(f"a key with id {key.key_id} (or the same secret) exists") from e

        await self._sqlite.run(write)

    async def find(self, key_id: str) -> ApiKey | None:
        row = await self._sqlite.run(lambda db: db.execute(
            f"SELECT {_COLUMNS} FROM api_keys WHERE key_id=?", (key_id,)).fetchone())
        return _key(row) if row else None

    async def list(self, tenant: str | None = None) -> list[ApiKey]:
        def read(db: sqlite3.Connection) -> list[tuple[str, ...]]:
            if tenant is None:
                return db.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, key_id").fetchall()
            return db.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE tenant=? ORDER BY created_at, key_id",
                              (tenant,)).fetchall()

        return [_key(r) for r in await self._sqlite.run(read)]

    async def revoke(self, key_id: str, at: datetime, tenant: str | None = None) -> ApiKey:
        def write(db: sqlite3.Connection) -> tuple[str, ...] | None:
            db.execute(
                "UPDATE api_keys SET revoked_at=? WHERE key_id=? AND revoked_at IS NULL"
                " AND (? IS NULL OR tenant=?)", (at.isoformat(), key_id, tenant, tenant))
            row: tuple[str, ...] | None = db.execute(
                f"SELECT {_COLUMNS} FROM api_keys WHERE key_id=? AND (? IS NULL OR tenant=?)",
                (key_id, tenant, tenant)).fetchone()
            return row

        row = await self._sqlite.run(write)
        if row is None:
            raise NotFound(f"no API key {key_id}" + (f" in tenant {tenant}" if tenant else ""))
        return _key(row)

    async def close(self) -> None:
        self._sqlite.close()
