"""The reflect service's own state: sessions' turns, what was reflected, known memories.

Derived from the log like a projection (so it can be rebuilt), but private to
reflect. Adapters: SQLite (embedded); PostgreSQL in the cluster.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hindsight_common.ports.reflector import KnownMemory
from hindsight_common.reflection.offline import Turn


@dataclass(frozen=True)
class SessionRef:
    tenant: str
    user: str
    session: str
    agent: str | None = None


class ReflectState(ABC):
    @abstractmethod
    async def add_turns(self, items: Sequence[tuple[SessionRef, Turn]]) -> None:
        """Record turns (idempotent by event id). Raises PersistenceError."""

    @abstractmethod
    async def unreflected(self, ref: SessionRef) -> list[Turn]:
        """The session's turns not yet reflected on, oldest first."""

    @abstractmethod
    async def mark_reflected(
        self, ref: SessionRef, event_ids: Sequence[str], learned: Sequence[KnownMemory] = ()
    ) -> None:
        """Mark turns as reflected on and remember the memories ``learned`` from them
        (idempotent by memory id), in one transaction: a crash between the two would
        leave turns pending whose memories are already known, and their reflection
        again would read its own memories as earlier ones."""

    @abstractmethod
    async def pending_sessions(self, tenant: str, user: str) -> list[SessionRef]:
        """The user's sessions that have unreflected turns."""

    @abstractmethod
    async def idle_sessions(self, last_turn_before: datetime) -> list[SessionRef]:
        """Sessions with unreflected turns whose newest turn was recorded before the time."""

    @abstractmethod
    async def session_turns(self, ref: SessionRef) -> list[Turn]:
        """Every turn of the session, oldest first."""

    @abstractmethod
    async def summarized(self, ref: SessionRef) -> int:
        """How many of the session's first turns the latest summary covers."""

    @abstractmethod
    async def set_summarized(self, ref: SessionRef, turns: int) -> None:
        """Record that the latest summary covers the first ``turns`` turns."""

    @abstractmethod
    async def memories(self, tenant: str, user: str, last: int | None = None) -> list[KnownMemory]:
        """Memories already recorded for the user, oldest first; only the ``last`` ones
        recorded when given (reflect reads a few: reading all of them for every episode
        made reflection slow down with each memory a user had)."""

    @abstractmethod
    async def remember(self, tenant: str, user: str, memories: Sequence[KnownMemory]) -> None:
        """Record memories (idempotent by memory id)."""

    @abstractmethod
    async def purge_user(self, tenant: str, user: str) -> int:
        """Delete everything kept of (tenant, user) (turns, summaries, known memories)
        for good, on their erasure; others' state is untouched. Idempotent; returns how
        many rows were removed. Raises PersistenceError."""

    @abstractmethod
    async def close(self) -> None:
        """Release resources. Idempotent."""
