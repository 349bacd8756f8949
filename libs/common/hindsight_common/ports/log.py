"""The log port: the immutable, ordered source of truth, and its subscriptions.

Adapters: ``adapters.sqlite_log`` (embedded) and ``adapters.kafka_log`` (cluster), the
same contract over topics and consumer groups.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from uuid import UUID

from hindsight_common.errors import ConfigurationError
from hindsight_common.events import Event

# Where a consumer or projection stands: "<stream>#<partition>" -> last offset applied.
Position = Mapping[str, int]


def position_key(stream: str, partition: int = 0) -> str:
    return f"{stream}#{partition}"


@dataclass(frozen=True)
class Appended:
    """Where an appended event landed."""

    event_id: UUID
    stream: str
    partition: int
    offset: int


@dataclass(frozen=True)
class IdempotencyKey:
    """A caller's retry key, scoped by tenant, with a fingerprint of the body."""

    tenant: str
    key: str
    fingerprint: str


@dataclass(frozen=True)
class LogRecord:
    """One record read from the log.

    ``event`` is None when the stored bytes do not parse as a known event (a
    poison message); ``error`` then says why and ``raw`` holds the bytes. ``skipped``
    says why a record is to be passed over without dead-lettering it (sealed with a
    data key that was destroyed: its user was erased); ``event`` is then None too.
    """

    stream: str
    partition: int
    offset: int
    key: str
    raw: bytes
    event: Event | None
    error: str | None = None
    skipped: str | None = None

    @property
    def position_key(self) -> str:
        return position_key(self.stream, self.partition)


class EventLog(ABC):
    """Append-only, ordered event log."""

    @abstractmethod
    async def append(
        self,
        stream: str,
        events: Sequence[Event],
        *,
        idempotency: IdempotencyKey | None = None,
    ) -> list[Appended]:
        """Append ``events`` to ``stream`` in order, all or nothing.

        Returns only once the events are durable (fsynced / acknowledged by all
        in-sync replicas). With ``idempotency``, a key already used with the same
        fingerprint returns the earlier result and appends nothing.

        Raises:
            IdempotencyConflict: the key was used with another fingerprint.
            PersistenceError: the append failed; nothing was appended.
        """

    @abstractmethod
    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        """Append bytes that are not (or not known to be) a valid event.

        Used for dead letters and by tests that need a poison record.
        Raises PersistenceError.
        """

    @abstractmethod
    async def read(
        self, stream: str, *, after: int = 0, limit: int = 1000, partition: int = 0
    ) -> list[LogRecord]:
        """Records of ``stream`` (one partition) with offset > ``after``, oldest first.

        Raises PersistenceError.
        """

    @abstractmethod
    async def head(self, stream: str) -> Position:
        """The last offset of each partition of ``stream`` (empty when none)."""

    @abstractmethod
    async def subscribe(self, group: str, streams: Sequence[str]) -> Subscription:
        """Open a consumer-group subscription resuming at the committed position."""

    async def destroy_subject_keys(self, tenant: str, user: str) -> int:
        """Destroy the data keys that seal (tenant, user)'s content on this log, durably;
        returns how many. Only a sealing log can (``security/sealed_log.py``); the
        default raises ConfigurationError."""
        raise ConfigurationError(
            "this log does not seal content with per-user keys (HINDSIGHT_SEAL_LOG=false), "
            "so erasure cannot make its events unreadable")

    @abstractmethod
    async def close(self) -> None:
        """Release resources. Idempotent."""


class Subscription(ABC):
    """A consumer group's view of some streams: fetch, process, then commit."""

    @abstractmethod
    async def fetch(self, max_records: int, timeout_s: float) -> list[LogRecord]:
        """The next records after this subscription's position, oldest first.

        Waits up to ``timeout_s`` for new records; returns [] if none came.
        Fetching advances the in-memory position, not the committed one.
        """

    @abstractmethod
    async def commit(self, records: Sequence[LogRecord]) -> None:
        """Durably commit the position through the last of ``records`` per partition.

        Call only after the records' effects are durable. Raises PersistenceError.
        """

    @abstractmethod
    async def seek(self, position: Position) -> None:
        """Resume after ``position``: each subscribed stream partition continues
        after the offset ``position`` gives it, or from the very beginning when
        ``position`` has no entry for it. Used to rebuild a projection that is
        behind the group's committed position (e.g. its files were deleted)."""

    @abstractmethod
    async def committed(self) -> Position:
        """The group's committed position."""

    def health(self) -> str | None:
        """Why this subscription cannot make progress (e.g. its brokers have not answered
        for a while), or None when nothing is known to be wrong. For liveness checks;
        never raises. Default: None (a local log has nothing to report)."""
        return None

    @abstractmethod
    async def close(self) -> None:
        """Stop fetching. Idempotent."""
