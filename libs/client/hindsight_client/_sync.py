"""``Hindsight``: the synchronous client (the same calls as ``AsyncHindsight``, blocking)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx

from hindsight_client._calls import Call, Calls, headers, read_answer, transport_error
from hindsight_client._catching_up import Settling
from hindsight_client._models import (
    Appended,
    Consolidation,
    Interaction,
    MemoryDetail,
    MemoryHistory,
    MemoryPage,
    RecallResult,
    RetainResult,
    Role,
    SessionContext,
    Status,
)

T = TypeVar("T")


class Hindsight:
    """Synchronous client for a Hindsight gateway.

    ``tenant`` applies to every call (``None``: the gateway's default tenant); ``api_key``
    is sent as a bearer token; ``admin_token`` (an API key with the ``admin``
    scope) is sent instead only with calls that use an admin option (``include=``); ``timeout``
    (seconds) bounds every request. Use it as a context manager, or call ``close()``.
    ``transport`` replaces the network (tests, in-process use).
    """

    def __init__(
        self,
        base_url: str,
        *,
        tenant: str | None = None,
        api_key: str | None = None,
        admin_token: str | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url
        self.timeout = timeout
        self._calls = Calls(tenant, admin_token)
        self._http = httpx.Client(
            base_url=base_url, headers=headers(api_key), timeout=timeout, transport=transport
        )

    @property
    def tenant(self) -> str | None:
        return self._calls.tenant

    def __enter__(self) -> Hindsight:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _send(self, call: Call[T]) -> T:
        try:
            response = self._http.request(
                call.method, call.path, json=call.json, params=call.params, headers=dict(call.headers)
            )
        except httpx.TransportError as e:
            raise transport_error(e, call, self.base_url) from e
        return read_answer(call, response)

    def retain(
        self,
        content: str,
        *,
        user: str,
        session: str,
        speaker: str,
        role: Role = "user",
        occurred_at: datetime | str | None = None,
        external_id: str | None = None,
        agent: str | None = None,
        tool_calls: Sequence[Mapping[str, Any]] = (),
        metadata: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> RetainResult:
        """Record one turn; returns once it is durable on the log. See ``retain_many``."""
        turn = Interaction(
            content=content, user=user, session=session, speaker=speaker, role=role,
            occurred_at=occurred_at, external_id=external_id, agent=agent,
            tool_calls=tool_calls, metadata=metadata or {},
        )
        return self.retain_many([turn], idempotency_key=idempotency_key)

    def retain_many(
        self, interactions: Iterable[Interaction | Mapping[str, Any]], *, idempotency_key: str | None = None
    ) -> RetainResult:
        """Record a batch of turns atomically (all or nothing), durable when this returns.

        With ``idempotency_key`` a retried batch records nothing again and answers the first
        result with ``replayed=True``; the same key with a different batch raises ``Conflict``.
        """
        return self._send(self._calls.retain_many(interactions, idempotency_key))

    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        session: str | None = None,
        agent: str | None = None,
        k: int = 10,
        types: str | Sequence[str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        include: str | Sequence[str] | None = None,
    ) -> RecallResult:
        """The ``k`` memories most relevant to ``query`` (by meaning and keyword), best first.

        ``include`` (admin only: needs ``admin_token``, else ``Forbidden``) also returns
        memories in these states: "forgotten", "superseded", "merged", "quarantined".
        """
        return self._send(self._calls.recall(
            query, user=user, session=session, agent=agent, k=k, types=types, since=since, until=until,
            include=include))

    def close_session(self, session: str, *, user: str, agent: str | None = None) -> Appended:
        """Record that a session ended; reflection then learns from it."""
        return self._send(self._calls.close_session(session, user=user, agent=agent))

    def reflect(self, *, user: str, session: str | None = None, task: str | None = None) -> Appended:
        """Ask for reflection on a session, a task, or (neither) every session with new turns."""
        return self._send(self._calls.reflect(user=user, session=session, task=task))

    def forget(self, memory_id: str, *, user: str, reason: str = "") -> Appended:
        """Forget one memory: once applied (see ``wait_until_caught_up``) recall never returns it."""
        return self._send(self._calls.forget(memory_id, user=user, reason=reason))

    def pin(self, memory_id: str, *, user: str, reason: str = "") -> Appended:
        """Pin a memory: no forgetting pass touches it."""
        return self._send(self._calls.memory_action("pin", memory_id, user=user, reason=reason))

    def unpin(self, memory_id: str, *, user: str, reason: str = "") -> Appended:
        """Unpin a memory: forgetting passes judge it by its importance again."""
        return self._send(self._calls.memory_action("unpin", memory_id, user=user, reason=reason))

    def restore(self, memory_id: str, *, user: str, reason: str = "") -> Appended:
        """Restore a forgotten memory: once applied, recall serves it again."""
        return self._send(self._calls.memory_action("restore", memory_id, user=user, reason=reason))

    def expire(
        self, memory_id: str, *, user: str, expires_at: datetime | str | None = None, ttl_s: float | None = None,
    ) -> Appended:
        """Give a memory an expiry (a time, or ``ttl_s`` seconds from now; neither clears it):
        once passed, recall leaves it out and the next forgetting pass forgets it."""
        at = expires_at.isoformat() if isinstance(expires_at, datetime) else expires_at
        return self._send(self._calls.expire(memory_id, user=user, expires_at=at, ttl_s=ttl_s))

    def consolidate(self, *, user: str, dry_run: bool = False) -> Consolidation:
        """Run a forgetting pass over the user's memories now (``dry_run``: only list what it would forget)."""
        return self._send(self._calls.consolidate(user=user, dry_run=dry_run))

    def session_context(self, session: str, *, user: str, budget: int | None = None) -> SessionContext:
        """Working memory for a prompt: the newest turns that fit ``budget`` tokens plus a summary."""
        return self._send(self._calls.session_context(session, user=user, budget=budget))

    def list_memories(
        self,
        *,
        user: str | None = None,
        session: str | None = None,
        types: str | Sequence[str] | None = None,
        kinds: str | Sequence[str] | None = None,
        keys: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        limit: int | None = None,
        offset: int | None = None,
        include: str | Sequence[str] | None = None,
    ) -> MemoryPage:
        """Browse memories, newest first (the gateway lists semantic memories unless ``types`` says).

        ``include``: as in ``recall`` (admin only).
        """
        return self._send(self._calls.list_memories(
            user=user, session=session, types=types, kinds=kinds, keys=keys, tags=tags,
            limit=limit, offset=offset, include=include))

    def get_memory(self, memory_id: str, include: str | Sequence[str] | None = None) -> MemoryDetail:
        """One memory with the turns it was learned from. Raises ``NotFound`` (also for a
        forgotten one, unless ``include="forgotten"``: admin only, as in ``recall``)."""
        return self._send(self._calls.get_memory(memory_id, include))

    def memory_history(self, memory_id: str, include: str | Sequence[str] | None = None) -> MemoryHistory:
        """The values a memory superseded or was superseded by and the near-duplicates
        merged with it, oldest first. Raises ``NotFound``."""
        return self._send(self._calls.memory_history(memory_id, include))

    def status(self) -> Status:
        """Log heads and consumer positions."""
        return self._send(self._calls.status())

    def wait_until_caught_up(self, timeout: float = 60.0, *, interval: float = 0.05) -> Status:
        """Wait until every write acknowledged so far is visible to recall and browsing.

        Raises ``TimeoutError`` after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        settling = Settling()
        while True:
            status = self.status()
            if settling.settled(status):
                return status
            if time.monotonic() >= deadline:
                raise TimeoutError(f"Hindsight at {self.base_url} did not catch up within {timeout}s")
            if not settling.pending:
                time.sleep(interval)
