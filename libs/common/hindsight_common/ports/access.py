"""How often recall returned each document: consolidate's access counts.

Derived from the ``MemoryAccessed`` events of the memories stream like a projection
(delete the store and it is rebuilt from the log), written by consolidate and read
by the query service for rerank's access factor. Adapters: SQLite (embedded) and
PostgreSQL (cluster).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hindsight_common.ports.log import Position


@dataclass(frozen=True)
class AccessIncrement:
    """The counts of one ``MemoryAccessed`` record, with where it sits on the log.

    ``position_key`` (``<stream>#<partition>``) and ``offset`` are what make a
    redelivered record count once: the store skips a record at or below the offset it
    already holds for that key.
    """

    tenant: str
    counts: Mapping[str, int]
    position_key: str
    offset: int


class AccessCounts(ABC):
    """Document id -> times returned by recall, per tenant, and the log position applied."""

    @abstractmethod
    async def position(self) -> Position:
        """The highest offset applied per ``<stream>#<partition>`` (empty when new).

        Consolidate resumes after it, so a new or deleted store is rebuilt from the
        log. Raises PersistenceError.
        """

    @abstractmethod
    async def add(self, increments: Sequence[AccessIncrement], position: Position) -> None:
        """Add the increments and record ``position`` in ONE transaction.

        Increments at or below the offset already recorded for their key are skipped
        (a redelivery counts nothing twice); ``position`` only ever moves forward and
        may cover records that carried no increment. Raises PersistenceError; then
        nothing was written.
        """

    @abstractmethod
    async def get(self, tenant: str, ids: Sequence[str]) -> dict[str, int]:
        """The count of each of ``ids`` in ``tenant``; ids never returned are absent.

        Raises PersistenceError.
        """

    @abstractmethod
    async def delete(self, tenant: str, ids: Sequence[str]) -> None:
        """Drop the counts of ``ids`` in ``tenant`` (an erased user's documents); ids
        without a count are ignored; the position is left as it is. Idempotent. Raises
        PersistenceError; then nothing was deleted.
        """

    @abstractmethod
    async def close(self) -> None:
        """Release resources. Idempotent."""


def applicable(
    increments: Sequence[AccessIncrement], applied: Mapping[str, int]
) -> dict[tuple[str, str], int]:
    """The (tenant, id) -> total of the increments past ``applied`` (the stored
    position; a missing key means nothing applied yet: Kafka offsets start at 0).
    Shared by the adapters, so every backend skips redeliveries the same way."""
    totals: dict[tuple[str, str], int] = {}
    for inc in increments:
        if inc.offset <= applied.get(inc.position_key, -1):
            continue
        for doc_id, n in inc.counts.items():
            totals[(inc.tenant, doc_id)] = totals.get((inc.tenant, doc_id), 0) + n
    return totals
