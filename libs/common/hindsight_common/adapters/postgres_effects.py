"""The effect audit (``ports/effects.py``) in PostgreSQL, for the cluster.

One table, ``projection_effects``, shared by every log in the database and told apart
by ``log_name`` (the Kafka topic prefix: environments and tests share a server). It is
created here on first use rather than by a numbered migration: it is an opt-in record
for fault tests and audits, not state a service needs, and a database that never turns
it on never gets it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.ports.effects import Effect, EffectAudit
from hindsight_common.ports.log import LogRecord

_SCHEMA = """
CREATE TABLE IF NOT EXISTS projection_effects (
    log_name    TEXT NOT NULL,
    projection  TEXT NOT NULL,
    stream      TEXT NOT NULL,
    partition   INTEGER NOT NULL,
    log_offset  BIGINT NOT NULL,
    event_id    TEXT NOT NULL,
    deliveries  INTEGER NOT NULL,
    first_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (log_name, projection, stream, partition, log_offset)
)
"""


class PostgresEffectAudit(EffectAudit):
    """Effects of the log ``log_name`` over a :class:`PostgresState` (owned, closed here)."""

    def __init__(self, state: PostgresState, log_name: str) -> None:
        self._state = state
        self._log_name = log_name
        self._ready = False
        self._lock = asyncio.Lock()

    async def _set_up(self) -> None:
        async with self._lock:
            if not self._ready:
                async with self._state.connection() as conn:
                    # Two processes creating it at once: the advisory lock makes them take turns.
                    async with conn.transaction():
                        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('projection_effects'))")
                        await conn.execute(_SCHEMA)
                self._ready = True

    async def record(self, projection: str, records: Sequence[LogRecord]) -> None:
        rows = [(self._log_name, projection, r.stream, r.partition, r.offset, str(r.event.event_id))
                for r in records if r.event is not None]
        if not rows:
            return
        await self._set_up()
        async with self._state.connection() as conn:
            await conn.executemany(
                "INSERT INTO projection_effects (log_name, projection, stream, partition, log_offset,"
                " event_id, deliveries) VALUES ($1, $2, $3, $4, $5, $6, 1)"
                " ON CONFLICT (log_name, projection, stream, partition, log_offset) DO UPDATE"
                " SET deliveries = projection_effects.deliveries + 1, last_at = now()",
                rows,
            )

    async def effects(self, projection: str | None = None) -> list[Effect]:
        await self._set_up()
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                "SELECT projection, stream, partition, log_offset, event_id, deliveries"
                " FROM projection_effects WHERE log_name = $1 AND ($2::text IS NULL OR projection = $2)"
                " ORDER BY projection, stream, partition, log_offset",
                self._log_name, projection,
            )
        return [Effect(str(r[0]), str(r[1]), int(r[2]), int(r[3]), str(r[4]), int(r[5])) for r in rows]

    async def close(self) -> None:
        await self._state.close()
