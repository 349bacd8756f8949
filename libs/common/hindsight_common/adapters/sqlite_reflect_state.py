"""Reflect's state in one SQLite file (embedded mode)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from hindsight_common.adapters.sqlite_db import SqliteDb
from hindsight_common.adapters.sqlite_purge import purge_reflect_state
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.reflect_state import ReflectState, SessionRef
from hindsight_common.ports.reflector import KnownMemory
from hindsight_common.reflection.offline import Turn

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    event_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, user TEXT NOT NULL, session TEXT NOT NULL,
    agent TEXT, speaker TEXT NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL,
    occurred_at TEXT NOT NULL, external_id TEXT, seq INTEGER NOT NULL,
    recorded_at REAL NOT NULL, reflected INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS turns_by_session ON turns (tenant, user, session, occurred_at, seq);
CREATE INDEX IF NOT EXISTS turns_pending ON turns (reflected, recorded_at);
CREATE TABLE IF NOT EXISTS summaries (
    tenant TEXT NOT NULL, user TEXT NOT NULL, session TEXT NOT NULL, turns INTEGER NOT NULL,
    PRIMARY KEY (tenant, user, session)
);
CREATE TABLE IF NOT EXISTS memories (
    memory_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, user TEXT NOT NULL, subject TEXT NOT NULL,
    key TEXT NOT NULL, value TEXT NOT NULL, content TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_by_user ON memories (tenant, user);
"""
_REMEMBER = (
    "INSERT OR IGNORE INTO memories (memory_id, tenant, user, subject, key, value, content)"
    " VALUES (?,?,?,?,?,?,?)"
)


def _memory_rows(tenant: str, user: str, memories: Sequence[KnownMemory]) -> list[tuple[str, ...]]:
    return [(m.memory_id, tenant, user, m.subject, m.key, m.value, m.content) for m in memories]


def _turn(row: tuple[str, str, str, str, str, str | None]) -> Turn:
    event_id, speaker, role, content, occurred_at, external_id = row
    return Turn(event_id, speaker, role, content, datetime.fromisoformat(occurred_at), external_id)


class SqliteReflectState(ReflectState):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="reflect state", error=PersistenceError, synchronous="NORMAL")
        self._db = self._sqlite.connection
        self._seq = int(self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM turns").fetchone()[0])

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._sqlite.run(fn)

    async def add_turns(self, items: Sequence[tuple[SessionRef, Turn]]) -> None:
        now = datetime.now(UTC).timestamp()

        def tx(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            for ref, t in items:
                self._seq += 1
                db.execute(
                    "INSERT OR IGNORE INTO turns (event_id, tenant, user, session, agent, speaker, role,"
                    " content, occurred_at, external_id, seq, recorded_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (t.event_id, ref.tenant, ref.user, ref.session, ref.agent, t.speaker, t.role,
                     t.content, t.occurred_at.isoformat(), t.external_id, self._seq, now),
                )
            db.execute("COMMIT")

        await self._run(tx)

    async def _turns(self, ref: SessionRef, only_pending: bool) -> list[Turn]:
        extra = " AND reflected = 0" if only_pending else ""
        rows = await self._run(
            lambda db: db.execute(
                "SELECT event_id, speaker, role, content, occurred_at, external_id FROM turns "
                f"WHERE tenant=? AND user=? AND session=?{extra} ORDER BY occurred_at, seq",
                (ref.tenant, ref.user, ref.session),
            ).fetchall()
        )
        return [_turn(r) for r in rows]

    async def unreflected(self, ref: SessionRef) -> list[Turn]:
        return await self._turns(ref, only_pending=True)

    async def session_turns(self, ref: SessionRef) -> list[Turn]:
        return await self._turns(ref, only_pending=False)

    async def mark_reflected(
        self, ref: SessionRef, event_ids: Sequence[str], learned: Sequence[KnownMemory] = ()
    ) -> None:
        ids, rows = list(event_ids), _memory_rows(ref.tenant, ref.user, learned)

        def tx(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(_REMEMBER, rows)
                db.executemany("UPDATE turns SET reflected = 1 WHERE event_id = ?", [(i,) for i in ids])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

        await self._run(tx)

    async def pending_sessions(self, tenant: str, user: str) -> list[SessionRef]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT DISTINCT session, agent FROM turns WHERE tenant=? AND user=? AND reflected=0",
                (tenant, user),
            ).fetchall()
        )
        return [SessionRef(tenant, user, s, a) for s, a in rows]

    async def idle_sessions(self, last_turn_before: datetime) -> list[SessionRef]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT tenant, user, session, MAX(agent) FROM turns WHERE reflected=0 "
                "GROUP BY tenant, user, session HAVING MAX(recorded_at) < ?",
                (last_turn_before.timestamp(),),
            ).fetchall()
        )
        return [SessionRef(t, u, s, a) for t, u, s, a in rows]

    async def summarized(self, ref: SessionRef) -> int:
        row = await self._run(
            lambda db: db.execute(
                "SELECT turns FROM summaries WHERE tenant=? AND user=? AND session=?",
                (ref.tenant, ref.user, ref.session),
            ).fetchone()
        )
        return 0 if row is None else int(row[0])

    async def set_summarized(self, ref: SessionRef, turns: int) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO summaries (tenant, user, session, turns) VALUES (?,?,?,?) "
                "ON CONFLICT (tenant, user, session) DO UPDATE SET turns=excluded.turns",
                (ref.tenant, ref.user, ref.session, turns),
            )
        )

    async def memories(self, tenant: str, user: str, last: int | None = None) -> list[KnownMemory]:
        # Insertion order is rowid order; memories_by_user (tenant, user, rowid) serves
        # the newest ``last`` without reading the others.
        rows = await self._run(
            lambda db: db.execute(
                "SELECT memory_id, subject, key, value, content FROM memories WHERE tenant=? AND user=? "
                "ORDER BY rowid DESC LIMIT ?",
                (tenant, user, -1 if last is None else last),
            ).fetchall()
        )
        return [KnownMemory(*r) for r in reversed(rows)]

    async def remember(self, tenant: str, user: str, memories: Sequence[KnownMemory]) -> None:
        rows = _memory_rows(tenant, user, memories)
        await self._run(lambda db: db.executemany(_REMEMBER, rows))

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self._run(lambda db: purge_reflect_state(db, tenant, user))

    async def close(self) -> None:
        self._sqlite.close()
