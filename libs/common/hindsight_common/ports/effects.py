"""The effect audit: which log records each projection applied, and how often.

Projections upsert by document id, so counting their documents cannot tell an event
applied once from one applied twice. The audit is written by the projecting handlers
(embed: ``vector``; project: ``text`` and ``graph``) right after each projection's write
succeeded, one entry per (projection, log record), with the number of deliveries:

- an event applied from two log records (the same event id appended twice: a retried
  append, a service re-appending after a crash) shows as one event id with two entries:
  a duplicated effect the upserts would have hidden;
- a record on the log without an entry was never applied: a lost effect;
- ``deliveries`` above 1 is a redelivery of the same record (at-least-once, e.g. after a
  kill -9 between the write and the offset commit). The re-application of the same
  record writes the same documents (keyed by id) at the same position, so it is counted
  here, not as a second effect.

Opt-in (``HINDSIGHT_EFFECT_AUDIT``), for fault tests and for operators who want the
evidence; off, the handlers write nothing more.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from hindsight_common.ports.log import LogRecord


@dataclass(frozen=True)
class Effect:
    """One log record as applied by one projection."""

    projection: str
    stream: str
    partition: int
    offset: int
    event_id: str
    deliveries: int


class EffectAudit(ABC):
    """An append-only record of projection applications (see the module docstring)."""

    @abstractmethod
    async def record(self, projection: str, records: Sequence[LogRecord]) -> None:
        """Note that ``projection`` applied ``records`` (those with an event): a new entry
        per record, or one more delivery of an entry already there. Raises
        PersistenceError when the store cannot be written (the consumer then retries
        the batch, so the note is never lost)."""

    @abstractmethod
    async def effects(self, projection: str | None = None) -> list[Effect]:
        """Every entry of this log (of one projection, or all), ordered by projection,
        stream, partition and offset. Raises PersistenceError."""

    @abstractmethod
    async def close(self) -> None:
        """Release the connection; idempotent."""
