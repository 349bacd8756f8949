"""Reflect's state in PostgreSQL (cluster mode): the same port as ``sqlite_reflect_state``.

Tables ``reflect_turns``, ``reflect_summaries`` and ``reflect_memories`` (migration 2
in ``postgres``) mirror the SQLite file's ``turns``, ``summaries`` and ``memories``;
the prefix keeps them apart from the other services' tables in the shared database.
Differences that do not change behaviour: times are ``timestamptz`` (the SQLite file
stores ISO text and epoch seconds), the insertion order (``seq``) is an identity column
(so several reflect replicas never hand out the same number), and ``mark_reflected``
only touches turns of the session it names (tenant isolation in every query).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.ports.reflect_state import ReflectState, SessionRef
from hindsight_common.ports.reflector import KnownMemory
from hindsight_common.reflection.offline import Turn

_TURN_COLUMNS = "event_id, speaker, role, content, occurred_at, external_id"
_REMEMBER = (
    "INSERT INTO reflect_memories (memory_id, tenant, user_id, subject, key, value, content)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (memory_id) DO NOTHING"
)


def _memory_rows(tenant: str, user: str, memories: Sequence[KnownMemory]) -> list[tuple[str, ...]]:
    return [(m.memory_id, tenant, user, m.subject, m.key, m.value, m.content) for m in memories]


def _aware(value: datetime) -> datetime:
    # A naive time means local time, as datetime.timestamp() reads it in the SQLite adapter.
    return value if value.tzinfo is not None else value.astimezone()


class PostgresReflectState(ReflectState):
    """Reflect's state over a :class:`PostgresState` (which it owns and closes)."""

    def __init__(self, state: PostgresState) -> None:
        self._state = state

    async def add_turns(self, items: Sequence[tuple[SessionRef, Turn]]) -> None:
        if not items:
            return
        now = datetime.now(UTC)
        rows = [
            (t.event_id, ref.tenant, ref.user, ref.session, ref.agent, t.speaker, t.role,
             t.content, _aware(t.occurred_at), t.external_id, now)
            for ref, t in items
        ]
        async with self._state.connection() as conn, conn.transaction():
            await conn.executemany(
                "INSERT INTO reflect_turns (event_id, tenant, user_id, session, agent, speaker,"
                " role, content, occurred_at, external_id, recorded_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                " ON CONFLICT (event_id) DO NOTHING",
                rows,
            )

    async def _turns(self, ref: SessionRef, only_pending: bool) -> list[Turn]:
        extra = " AND NOT reflected" if only_pending else ""
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                f"SELECT {_TURN_COLUMNS} FROM reflect_turns"
                f" WHERE tenant = $1 AND user_id = $2 AND session = $3{extra}"
                " ORDER BY occurred_at, seq",
                ref.tenant, ref.user, ref.session,
            )
        return [Turn(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def unreflected(self, ref: SessionRef) -> list[Turn]:
        return await self._turns(ref, only_pending=True)

    async def session_turns(self, ref: SessionRef) -> list[Turn]:
        return await self._turns(ref, only_pending=False)

    async def mark_reflected(
        self, ref: SessionRef, event_ids: Sequence[str], learned: Sequence[KnownMemory] = ()
    ) -> None:
        if not event_ids and not learned:
            return
        async with self._state.connection() as conn, conn.transaction():
            if learned:
                await conn.executemany(_REMEMBER, _memory_rows(ref.tenant, ref.user, learned))
            await conn.execute(
                "UPDATE reflect_turns SET reflected = true WHERE tenant = $1 AND user_id = $2"
                " AND session = $3 AND event_id = ANY($4::text[])",
                ref.tenant, ref.user, ref.session, list(event_ids),
            )

    async def pending_sessions(self, tenant: str, user: str) -> list[SessionRef]:
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT session, agent FROM reflect_turns"
                " WHERE tenant = $1 AND user_id = $2 AND NOT reflected",
                tenant, user,
            )
        return [SessionRef(tenant, user, r[0], r[1]) for r in rows]

    async def idle_sessions(self, last_turn_before: datetime) -> list[SessionRef]:
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                "SELECT tenant, user_id, session, MAX(agent) FROM reflect_turns WHERE NOT reflected"
                " GROUP BY tenant, user_id, session HAVING MAX(recorded_at) < $1",
                _aware(last_turn_before),
            )
        return [SessionRef(r[0], r[1], r[2], r[3]) for r in rows]

    async def summarized(self, ref: SessionRef) -> int:
        async with self._state.connection() as conn:
            turns = await conn.fetchval(
                "SELECT turns FROM reflect_summaries WHERE tenant = $1 AND user_id = $2"
                " AND session = $3",
                ref.tenant, ref.user, ref.session,
            )
        return 0 if turns is None else int(turns)

    async def set_summarized(self, ref: SessionRef, turns: int) -> None:
        async with self._state.connection() as conn:
            await conn.execute(
                "INSERT INTO reflect_summaries (tenant, user_id, session, turns) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT (tenant, user_id, session) DO UPDATE SET turns = EXCLUDED.turns",
                ref.tenant, ref.user, ref.session, turns,
            )

    async def memories(self, tenant: str, user: str, last: int | None = None) -> list[KnownMemory]:
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                "SELECT memory_id, subject, key, value, content FROM reflect_memories"
                " WHERE tenant = $1 AND user_id = $2 ORDER BY seq DESC LIMIT $3",
                tenant, user, last,  # LIMIT NULL: all of them
            )
        return [KnownMemory(r[0], r[1], r[2], r[3], r[4]) for r in reversed(rows)]

    async def remember(self, tenant: str, user: str, memories: Sequence[KnownMemory]) -> None:
        if not memories:
            return
        async with self._state.connection() as conn, conn.transaction():
            await conn.executemany(_REMEMBER, _memory_rows(tenant, user, memories))

    async def purge_user(self, tenant: str, user: str) -> int:
        gone = 0
        async with self._state.connection() as conn:
            async with conn.transaction():
                for table in ("reflect_turns", "reflect_summaries", "reflect_memories"):
                    status = await conn.execute(f"DELETE FROM {table} WHERE tenant=$1 AND user_id=$2", tenant, user)
                    gone += int(str(status).split()[-1])
            # Reclaim the dead row versions (VACUUM cannot run inside a transaction).
            await conn.execute("VACUUM reflect_turns, reflect_summaries, reflect_memories")
        return gone

    async def close(self) -> None:
        await self._state.close()
