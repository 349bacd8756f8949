"""API keys in PostgreSQL (cluster mode): the ``tenants`` and ``api_keys`` tables of
migration 1 in ``postgres``, the same port as ``sqlite_credentials``.

``api_keys.tenant`` references ``tenants``: adding a key adds its tenant when it is new,
in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import asyncpg

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.errors import InvalidInput, NotFound
from hindsight_common.ports.credentials import Credentials
from hindsight_common.security.credentials import ApiKey

_COLUMNS = "key_id, tenant, key_hash, scopes, name, created_at, revoked_at"


def _key(row: Mapping[str, Any]) -> ApiKey:
    return ApiKey(
        key_id=row["key_id"], tenant=row["tenant"], key_hash=row["key_hash"],
        scopes=frozenset(row["scopes"]), name=row["name"], created_at=row["created_at"],
        revoked_at=row["revoked_at"],
    )


class PostgresCredentials(Credentials):
    """API keys over a :class:`PostgresState` (which it owns and closes)."""

    def __init__(self, state: PostgresState) -> None:
        self._state = state

    async def add(self, key: ApiKey) -> None:
        async with self._state.connection() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO tenants (tenant) VALUES ($1) ON CONFLICT (tenant) DO NOTHING", key.tenant)
            try:
                await conn.execute(
                    f"INSERT INTO api_keys ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    key.key_id, key.tenant, key.key_hash, sorted(key.scopes), key.name,
                    key.created_at, key.revoked_at,
                )
            except asyncpg.UniqueViolationError as e:
                raise InvalidInput(f"a key with id {key.key_id} (or the same secret) exists") from e

    async def find(self, key_id: str) -> ApiKey | None:
        async with self._state.connection() as conn:
            row = await conn.fetchrow(f"SELECT {_COLUMNS} FROM api_keys WHERE key_id = $1", key_id)
        return _key(row) if row else None

    async def list(self, tenant: str | None = None) -> list[ApiKey]:
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM api_keys WHERE $1::text IS NULL OR tenant = $1"
                " ORDER BY created_at, key_id", tenant)
        return [_key(r) for r in rows]

    async def revoke(self, key_id: str, at: datetime, tenant: str | None = None) -> ApiKey:
        async with self._state.connection() as conn, conn.transaction():
            await conn.execute(
                "UPDATE api_keys SET revoked_at = $2 WHERE key_id = $1 AND revoked_at IS NULL"
                " AND ($3::text IS NULL OR tenant = $3)", key_id, at, tenant)
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM api_keys WHERE key_id = $1 AND ($2::text IS NULL OR tenant = $2)",
                key_id, tenant)
        if row is None:
            raise NotFound(f"no API key {key_id}" + (f" in tenant {tenant}" if tenant else ""))
        return _key(row)

    async def close(self) -> None:
        await self._state.close()
