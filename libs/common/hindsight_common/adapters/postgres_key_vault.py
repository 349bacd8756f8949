"""The key vault in PostgreSQL (cluster mode): the ``key_vault`` table of migration 1.

One live key per (tenant, user): :meth:`create` takes a transaction-scoped advisory
lock on the pair, so two services creating the user's first key at once end up with
the same one. :meth:`destroy` deletes the rows (``destroyed_at`` stays unused: a flag
would keep the key) and then runs ``VACUUM`` on the table, so the dead row versions are
reclaimed; PostgreSQL's own WAL and free space may still hold the wrapped bytes until
they are overwritten, and a wrapped key is useless without the master key (rotate it,
`hindsight master-key rewrap`, to make such copies useless for good).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.ports.key_vault import KeyVault, WrappedKey

_COLUMNS = "tenant, user_id, key_id, wrapped_key, created_at"


def _key(row: Any) -> WrappedKey:
    return WrappedKey(str(row[0]), str(row[1]), str(row[2]), bytes(row[3]), row[4])


class PostgresKeyVault(KeyVault):
    """Data keys over a :class:`PostgresState` (which it owns and closes)."""

    def __init__(self, state: PostgresState) -> None:
        self._state = state

    async def current(self, tenant: str, user: str) -> WrappedKey | None:
        async with self._state.connection() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM key_vault WHERE tenant=$1 AND user_id=$2 AND destroyed_at IS NULL"
                " ORDER BY created_at LIMIT 1", tenant, user)
        return _key(row) if row else None

    async def create(self, key: WrappedKey) -> WrappedKey:
        async with self._state.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))",
                               f"key_vault\x1f{key.tenant}\x1f{key.user}")
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM key_vault WHERE tenant=$1 AND user_id=$2 AND destroyed_at IS NULL"
                " ORDER BY created_at LIMIT 1", key.tenant, key.user)
            if row is not None:
                return _key(row)
            await conn.execute(
                f"INSERT INTO key_vault ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5)",
                key.tenant, key.user, key.key_id, key.wrapped, key.created_at)
        return key

    async def find(self, tenant: str, user: str, key_id: str) -> WrappedKey | None:
        async with self._state.connection() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM key_vault WHERE tenant=$1 AND user_id=$2 AND key_id=$3"
                " AND destroyed_at IS NULL", tenant, user, key_id)
        return _key(row) if row else None

    async def destroy(self, tenant: str, user: str) -> int:
        async with self._state.connection() as conn:
            status = await conn.execute("DELETE FROM key_vault WHERE tenant=$1 AND user_id=$2", tenant, user)
            await conn.execute("VACUUM key_vault")
        return int(str(status).split()[-1])

    async def every_key(self) -> list[WrappedKey]:
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM key_vault WHERE destroyed_at IS NULL ORDER BY tenant, user_id")
        return [_key(r) for r in rows]

    async def rewrap(self, keys: Sequence[WrappedKey]) -> int:
        done = 0
        async with self._state.connection() as conn:
            async with conn.transaction():
                for k in keys:
                    status = await conn.execute(
                        "UPDATE key_vault SET wrapped_key=$1 WHERE tenant=$2 AND user_id=$3 AND key_id=$4"
                        " AND destroyed_at IS NULL", k.wrapped, k.tenant, k.user, k.key_id)
                    done += int(str(status).split()[-1])
            await conn.execute("VACUUM key_vault")  # the old versions' bytes (the WAL keeps them)
        return done

    async def close(self) -> None:
        await self._state.close()
