"""Service state in PostgreSQL (cluster mode), through ``asyncpg``.

What lives here: tenants, API keys (hashed), idempotency keys, the key vault (wrapped
per-user data keys; filled by the security milestone), reflect's private state
(``postgres_reflect_state``) and consolidate's access counts (``postgres_access``).
Projections never live here: they are rebuilt from the log.

Schema changes are numbered migrations (:data:`MIGRATIONS`), recorded in
``schema_migrations``. :meth:`PostgresState.open` applies the missing ones in ONE
transaction under a transaction-scoped advisory lock, so any number of service
replicas may start at the same time: the first applies them, the others wait on the
lock and then find nothing left to do. A published migration is never edited; a change
is a new number.

Every call runs under a timeout (``timeout_s``) and every driver error (asyncpg,
socket, timeout) is translated into :class:`PersistenceError`. The pool is opened
lazily on first use (the factory is synchronous); ``open()`` may also be called
explicitly at start-up to fail fast.

Idempotency keys: :meth:`PostgresState.claim` inserts a *pending* row (no result yet)
or returns the result stored for an earlier request with the same key. The caller
that got the claim does its work and calls :meth:`~PostgresState.store` (or
:meth:`~PostgresState.release` when the work failed, so the client may retry). A
concurrent request with the same key waits for the result; a claim whose holder
died is taken over once its lease (``claim_lease_s``) has run out.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import asyncpg

from hindsight_common.errors import IdempotencyConflict, PersistenceError
from hindsight_common.ports.log import IdempotencyKey

log = logging.getLogger(__name__)

# (version, name, SQL). Append only: never edit or renumber a published migration.
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (
        1,
        "service state: tenants, api keys, idempotency keys, key vault",
        """
        CREATE TABLE tenants (
            tenant      TEXT PRIMARY KEY,
            name        TEXT,
            created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
            disabled_at TIMESTAMPTZ
        );
        CREATE TABLE api_keys (
            key_id      TEXT PRIMARY KEY,
            tenant      TEXT NOT NULL REFERENCES tenants (tenant),
            key_hash    TEXT NOT NULL UNIQUE,
            scopes      TEXT[] NOT NULL,
            name        TEXT,
            created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
            revoked_at  TIMESTAMPTZ
        );
        CREATE INDEX api_keys_by_tenant ON api_keys (tenant);
        CREATE TABLE idempotency_keys (
            tenant       TEXT NOT NULL,
            key          TEXT NOT NULL,
            fingerprint  TEXT NOT NULL,
            result       JSONB,
            created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
            claimed_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
            completed_at TIMESTAMPTZ,
            PRIMARY KEY (tenant, key)
        );
        CREATE TABLE key_vault (
            tenant       TEXT NOT NULL,
            user_id      TEXT NOT NULL,
            key_id       TEXT NOT NULL,
            wrapped_key  BYTEA NOT NULL,
            created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
            destroyed_at TIMESTAMPTZ,
            PRIMARY KEY (tenant, user_id, key_id)
        );
        """,
    ),
    (
        2,
        "reflect state: turns, summaries, memories",
        """
        CREATE TABLE reflect_turns (
            event_id    TEXT PRIMARY KEY,
            tenant      TEXT NOT NULL,
            user_id     TEXT NOT NULL,
            session     TEXT NOT NULL,
            agent       TEXT,
            speaker     TEXT NOT NULL,
            role        TEXT NOT NULL,
            content     TEXT NOT NULL,
            occurred_at TIMESTAMPTZ NOT NULL,
            external_id TEXT,
            seq         BIGINT GENERATED ALWAYS AS IDENTITY,
            recorded_at TIMESTAMPTZ NOT NULL,
            reflected   BOOLEAN NOT NULL DEFAULT false
        );
        CREATE INDEX reflect_turns_by_session
            ON reflect_turns (tenant, user_id, session, occurred_at, seq);
        CREATE INDEX reflect_turns_pending ON reflect_turns (recorded_at) WHERE NOT reflected;
        CREATE TABLE reflect_summaries (
            tenant  TEXT NOT NULL,
            user_id TEXT NOT NULL,
            session TEXT NOT NULL,
            turns   INTEGER NOT NULL,
            PRIMARY KEY (tenant, user_id, session)
        );
        CREATE TABLE reflect_memories (
            memory_id TEXT PRIMARY KEY,
            tenant    TEXT NOT NULL,
            user_id   TEXT NOT NULL,
            subject   TEXT NOT NULL,
            key       TEXT NOT NULL,
            value     TEXT NOT NULL,
            content   TEXT NOT NULL,
            seq       BIGINT GENERATED ALWAYS AS IDENTITY
        );
        CREATE INDEX reflect_memories_by_user ON reflect_memories (tenant, user_id, seq);
        """,
    ),
    (
        3,
        "consolidate: access counts and the log position they reflect",
        """
        CREATE TABLE access_counts (
            tenant TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            count  BIGINT NOT NULL,
            PRIMARY KEY (tenant, doc_id)
        );
        CREATE TABLE access_positions (
            pkey       TEXT PRIMARY KEY,
            log_offset BIGINT NOT NULL
        );
        """,
    ),
)

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
_DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


def _lock_id(schema: str) -> int:
    # A stable signed 64-bit advisory-lock id per schema (Python's hash() is salted).
    digest = hashlib.sha256(f"hindsight.migrations:{schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class PostgresState:
    """A pool on one PostgreSQL database and schema, migrated on open; also the
    cluster's idempotency store (``ports/idempotency.py``: claim, store, release).

    ``schema`` puts every table in its own PostgreSQL schema (tests use a fresh one
    each); the default is ``public``.
    """

    def __init__(
        self,
        dsn: str,
        *,
        schema: str = "public",
        timeout_s: float = 10.0,
        min_connections: int = 1,
        max_connections: int = 10,
        claim_lease_s: float = 120.0,
    ) -> None:
        if not _SCHEMA_NAME.match(schema):
            raise ValueError(f"invalid PostgreSQL schema name {schema!r}: use [a-z0-9_]")
        self._dsn = dsn
        self.schema = schema
        self.timeout_s = timeout_s
        self._min = min_connections
        self._max = max_connections
        self._lease_s = claim_lease_s
        self._pool: asyncpg.Pool | None = None
        self._open_lock = asyncio.Lock()
        self._closed = False

    # -- lifecycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Connect and apply pending migrations. Idempotent.

        Raises PersistenceError (server unreachable, bad credentials, failed migration).
        """
        async with self._open_lock:
            if self._closed:
                raise PersistenceError("the PostgreSQL state store is closed")
            if self._pool is not None:
                return
            try:
                async with asyncio.timeout(self.timeout_s):
                    pool = await asyncpg.create_pool(
                        self._dsn,
                        min_size=self._min,
                        max_size=self._max,
                        command_timeout=self.timeout_s,
                        server_settings={"search_path": self.schema},
                    )
            except _DRIVER_ERRORS as e:
                raise PersistenceError(f"cannot connect to PostgreSQL: {_describe(e)}") from e
            self._pool = pool
            try:
                await self.migrate()
            except BaseException:
                self._pool = None
                await pool.close()
                raise

    async def close(self) -> None:
        """Close the pool. Idempotent; later calls raise PersistenceError."""
        async with self._open_lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), self.timeout_s)
            except TimeoutError:
                pool.terminate()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection, the whole block under ``timeout_s``, driver errors
        translated into PersistenceError. Opens the pool on first use."""
        if self._pool is None:
            await self.open()
        pool = self._pool
        if pool is None:
            raise PersistenceError("the PostgreSQL state store is closed")
        try:
            async with asyncio.timeout(self.timeout_s):
                async with pool.acquire() as conn:
                    yield conn
        except _DRIVER_ERRORS as e:
            raise PersistenceError(f"PostgreSQL operation failed: {_describe(e)}") from e

    # -- migrations ------------------------------------------------------------------

    async def migrate(self) -> list[int]:
        """Apply the migrations not yet recorded; returns the versions applied now."""
        applied: list[int] = []
        async with self.connection() as conn, conn.transaction():
            # Serialises concurrent starts; released at commit or rollback.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _lock_id(self.schema))
            await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            await conn.execute(f'SET LOCAL search_path TO "{self.schema}"')
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            done = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
            for version, name, sql in MIGRATIONS:
                if version in done:
                    continue
                await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", version, name
                )
                applied.append(version)
        if applied:
            log.info("applied PostgreSQL migrations %s in schema %s", applied, self.schema)
        return applied

    async def applied_migrations(self) -> list[int]:
        """The versions recorded in ``schema_migrations``, ascending."""
        async with self.connection() as conn:
            rows = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
        return [int(r[0]) for r in rows]

    # -- idempotency keys ------------------------------------------------------------

    async def claim(self, key: IdempotencyKey) -> str | None:
        """Claim ``key`` for a new request, or get the earlier request's result.

        Returns None when the caller now holds the claim (it must then call
        :meth:`store` or :meth:`release`), or the JSON text stored by the request
        that used the key first. While another holder works on the key, waits up
        to ``timeout_s`` for its result.

        Raises:
            IdempotencyConflict: the key was used with another fingerprint.
            PersistenceError: the store failed, or the key stayed in progress.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        while True:
            async with self.connection() as conn:
                inserted = await conn.fetchval(
                    "INSERT INTO idempotency_keys (tenant, key, fingerprint) VALUES ($1, $2, $3) "
                    "ON CONFLICT (tenant, key) DO NOTHING RETURNING true",
                    key.tenant, key.key, key.fingerprint,
                )
                if inserted:
                    return None
                row = await conn.fetchrow(
                    "SELECT fingerprint, result::text AS result, claimed_at,"
                    " claimed_at < now() - make_interval(secs => $3) AS stale"
                    " FROM idempotency_keys WHERE tenant = $1 AND key = $2",
                    key.tenant, key.key, self._lease_s,
                )
                if row is not None:
                    if row["fingerprint"] != key.fingerprint:
                        raise IdempotencyConflict(
                            "idempotency key was already used with a different request body"
                        )
                    if row["result"] is not None:
                        return str(row["result"])
                    if row["stale"]:
                        # Its holder died without storing or releasing: take it over.
                        took = await conn.fetchval(
                            "UPDATE idempotency_keys SET claimed_at = now() WHERE tenant = $1"
                            " AND key = $2 AND result IS NULL AND claimed_at = $3 RETURNING true",
                            key.tenant, key.key, row["claimed_at"],
                        )
                        if took:
                            log.warning("took over a stale idempotency claim (tenant %s)", key.tenant)
                            return None
            if loop.time() >= deadline:
                raise PersistenceError(
                    "a request with this idempotency key is still in progress; retry later"
                )
            await asyncio.sleep(0.05)

    async def store(self, key: IdempotencyKey, result_json: str) -> None:
        """Record the result of the request that holds ``key`` (JSON text).

        A result already stored for the key is kept (the first answer wins).
        Raises PersistenceError.
        """
        async with self.connection() as conn:
            await conn.execute(
                "INSERT INTO idempotency_keys (tenant, key, fingerprint, result, completed_at)"
                " VALUES ($1, $2, $3, $4::jsonb, now()) ON CONFLICT (tenant, key) DO UPDATE"
                " SET result = EXCLUDED.result, completed_at = EXCLUDED.completed_at"
                " WHERE idempotency_keys.result IS NULL"
                " AND idempotency_keys.fingerprint = EXCLUDED.fingerprint",
                key.tenant, key.key, key.fingerprint, result_json,
            )

    async def release(self, key: IdempotencyKey) -> None:
        """Give up a claim whose work failed, so a retry may claim the key again.
        A stored result is never removed. Raises PersistenceError."""
        async with self.connection() as conn:
            await conn.execute(
                "DELETE FROM idempotency_keys WHERE tenant = $1 AND key = $2"
                " AND fingerprint = $3 AND result IS NULL",
                key.tenant, key.key, key.fingerprint,
            )


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
