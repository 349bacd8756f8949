"""The key vault port: per-user data keys, stored wrapped (encrypted by the master key).

One live data key per (tenant, user) seals that user's content on the log
(``security/sealed_log.py``). Erasing the user destroys every key of theirs: a real
delete of the stored rows, after which the sealed events can never be opened again.

Adapters: ``adapters.sqlite_key_vault`` (embedded), ``adapters.postgres_key_vault``
(cluster, the ``key_vault`` table of migration 1). The vault only ever sees wrapped
keys; wrapping and unwrapping happen in ``security/data_keys.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class WrappedKey:
    """A data key as the vault stores it: its id, whose it is, and its wrapped bytes."""

    tenant: str
    user: str
    key_id: str
    wrapped: bytes
    created_at: datetime


class KeyVault(ABC):
    """Where wrapped data keys live."""

    @abstractmethod
    async def current(self, tenant: str, user: str) -> WrappedKey | None:
        """The live key of (tenant, user), or None when they have none (never had one,
        or it was destroyed). Raises PersistenceError."""

    @abstractmethod
    async def create(self, key: WrappedKey) -> WrappedKey:
        """Store ``key`` unless (tenant, user) already has a live key, atomically; returns
        the live key afterwards (``key``, or the one a concurrent creator stored first).
        Durable when it returns. Raises PersistenceError."""

    @abstractmethod
    async def find(self, tenant: str, user: str, key_id: str) -> WrappedKey | None:
        """The key of (tenant, user) with this id, or None when it does not exist (was
        destroyed, or belongs to someone else). Raises PersistenceError."""

    @abstractmethod
    async def destroy(self, tenant: str, user: str) -> int:
        """Delete every key of (tenant, user) for good (rows removed, not flagged; the
        embedded vault also rewrites its file so no page keeps them). Durable when it
        returns; keys of other users are untouched. Returns how many keys were destroyed
        (0 when there were none). Raises PersistenceError."""

    @abstractmethod
    async def every_key(self) -> list[WrappedKey]:
        """Every stored key, of every tenant (a master-key rotation rewraps them all).
        Raises PersistenceError."""

    @abstractmethod
    async def rewrap(self, keys: Sequence[WrappedKey]) -> int:
        """Replace the wrapped bytes of these keys (matched by tenant, user and key id) in
        one transaction, durably; a key destroyed meanwhile stays destroyed. The embedded
        vault then rewrites its file, so no page keeps the old bytes. Returns how many
        were replaced. Raises PersistenceError."""

    @abstractmethod
    async def close(self) -> None:
        """Release resources. Idempotent."""
