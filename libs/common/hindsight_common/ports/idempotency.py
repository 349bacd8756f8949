"""The idempotency-key port: remembers each write's answer under its caller's retry key.

A log whose storage cannot keep the key and the append in one transaction (Kafka) claims
the key in this store before it appends and stores the answer after, so a retried
request appends nothing and gets the first answer. The SQLite log keeps its keys in its
own file and does not use this port.

Adapter: ``adapters.postgres.PostgresState`` (cluster mode), wired by ``factory.make_log``.
"""

from __future__ import annotations

from typing import Protocol

from hindsight_common.ports.log import IdempotencyKey


class IdempotencyStore(Protocol):
    """Claims, answers and releases idempotency keys, shared by every replica."""

    async def claim(self, key: IdempotencyKey) -> str | None:
        """Claim ``key`` for a new request, or get the earlier request's answer.

        Returns None when the caller now holds the claim (it must then call
        :meth:`store` or :meth:`release`), or the answer (JSON text) stored by the
        request that used the key first; waits a bounded time while another holder
        works on the key. A claim whose holder died is taken over after a lease.

        Raises:
            IdempotencyConflict: the key was used with another fingerprint.
            PersistenceError: the store failed, or the key stayed in progress.
        """
        ...

    async def store(self, key: IdempotencyKey, result_json: str) -> None:
        """Record the answer of the request holding ``key``; a stored answer is kept
        (the first wins). Raises PersistenceError."""
        ...

    async def release(self, key: IdempotencyKey) -> None:
        """Give up a claim whose work failed, so that a retry may claim it again; a
        stored answer is never removed. Raises PersistenceError."""
        ...

    async def close(self) -> None:
        """Release the store's connections. Idempotent."""
        ...
