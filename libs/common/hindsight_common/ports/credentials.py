"""Where API keys are kept: the tenants' credentials, stored hashed.

Adapters: SQLite in the data directory (embedded), PostgreSQL's ``api_keys`` and
``tenants`` tables (cluster). Chosen by ``factory.make_credentials``, following the log
backend like the other service state. A key is never deleted: revoking stamps
``revoked_at``, so ``hindsight keys list`` still shows what existed and when it ended.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from hindsight_common.security.credentials import ApiKey


class Credentials(ABC):
    """The API keys of every tenant."""

    @abstractmethod
    async def add(self, key: ApiKey) -> None:
        """Store a new key (and its tenant, if new), durably before returning.

        Raises InvalidInput when a key with the same id or hash exists (a random id
        collided: make a new key), PersistenceError when the store fails.
        """

    @abstractmethod
    async def find(self, key_id: str) -> ApiKey | None:
        """The key with this id, revoked or not; None when there is none.
        Raises PersistenceError."""

    @abstractmethod
    async def list(self, tenant: str | None = None) -> list[ApiKey]:
        """Every key of ``tenant`` (None: of every tenant), oldest first, revoked ones
        included. Raises PersistenceError."""

    @abstractmethod
    async def revoke(self, key_id: str, at: datetime, tenant: str | None = None) -> ApiKey:
        """Revoke a key from ``at`` on and return it as stored now. Revoking a revoked
        key changes nothing (its first ``revoked_at`` stays).

        ``tenant``: only a key of this tenant (an admin key manages its own tenant's).
        Raises NotFound when there is no such key (in ``tenant``), PersistenceError.
        """

    @abstractmethod
    async def close(self) -> None:
        """Release the store. Idempotent."""
