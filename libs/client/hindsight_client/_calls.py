"""Each API call as data: method, path, body, query and how to read the answer.

The sync and async clients share these builders and differ only in how they send.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from hindsight_client._errors import HindsightError, TransportError, error_from_response
from hindsight_client._models import (
    Appended,
    Consolidation,
    Interaction,
    MemoryDetail,
    MemoryHistory,
    MemoryPage,
    RecallResult,
    RetainResult,
    SessionContext,
    Status,
    iso,
)

T = TypeVar("T")

USER_AGENT = "hindsight-client/0.1.0"


def headers(api_key: str | None) -> dict[str, str]:
    out = {"user-agent": USER_AGENT}
    if api_key is not None:
        out["authorization"] = f"Bearer {api_key}"
    return out


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    parse: Callable[[Any], T]
    json: Any = None
    params: tuple[tuple[str, str], ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)


def _segment(value: str) -> str:
    # Ids travel in the path: quote everything, so "a/b" or "x:close" cannot change the route.
    return quote(value, safe="")


def _drop_none(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _as_list(value: str | Sequence[str] | None) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def _params(d: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for name, value in d.items():
        if value is None:
            continue
        values = [value] if isinstance(value, (str, int)) else list(value)
        out.extend((name, str(v)) for v in values)
    return tuple(out)


class Calls:
    """Builds every call of the API for one tenant (``None``: the gateway's default).

    ``admin_token`` is sent (as ``Authorization: Bearer``, in place of the API key) only
    with calls that use an admin option (``include``), so it travels no further than needed.
    """

    def __init__(self, tenant: str | None, admin_token: str | None = None) -> None:
        self.tenant = tenant
        self._admin_token = admin_token

    def _admin(self, include: Sequence[str]) -> dict[str, str]:
        if not include or self._admin_token is None:
            return {}
        return {"authorization": f"Bearer {self._admin_token}"}

    def retain_many(
        self, interactions: Iterable[Interaction | Mapping[str, Any]], idempotency_key: str | None
    ) -> Call[RetainResult]:
        items = []
        for i in interactions:
            if isinstance(i, Interaction):
                items.append(i.to_json(self.tenant))
            else:
                items.append({"tenant": self.tenant, **i} if self.tenant and "tenant" not in i else dict(i))
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key is not None else {}
        return Call("POST", "/v1/interactions", RetainResult.from_json, {"interactions": items}, headers=headers)

    def recall(
        self,
        query: str,
        *,
        user: str | None,
        session: str | None,
        agent: str | None,
        k: int,
        types: str | Sequence[str] | None,
        since: datetime | str | None,
        until: datetime | str | None,
        include: str | Sequence[str] | None = None,
    ) -> Call[RecallResult]:
        body = _drop_none({
            "tenant": self.tenant,
            "user": user,
            "session": session,
            "agent": agent,
            "query": query,
            "k": k,
            "types": _as_list(types),
            "since": None if since is None else iso(since),
            "until": None if until is None else iso(until),
            "include": _as_list(include),
        })
        return Call("POST", "/v1/recall", RecallResult.from_json, body,
                    headers=self._admin(body.get("include", ())))

    def close_session(self, session: str, *, user: str, agent: str | None) -> Call[Appended]:
        body = _drop_none({"tenant": self.tenant, "user": user, "agent": agent})
        return Call("POST", f"/v1/sessions/{_segment(session)}:close", Appended.first_of, body)

    def reflect(self, *, user: str, session: str | None, task: str | None) -> Call[Appended]:
        body = _drop_none({"tenant": self.tenant, "user": user, "session": session, "task": task})
        return Call("POST", "/v1/reflect", Appended.first_of, body)

    def forget(self, memory_id: str, *, user: str, reason: str) -> Call[Appended]:
        body = _drop_none({"tenant": self.tenant, "user": user, "reason": reason})
        return Call("POST", f"/v1/memories/{_segment(memory_id)}:forget", Appended.first_of, body)

    def memory_action(self, action: str, memory_id: str, *, user: str, reason: str) -> Call[Appended]:
        """``action``: pin, unpin or restore."""
        body = _drop_none({"tenant": self.tenant, "user": user, "reason": reason})
        return Call("POST", f"/v1/memories/{_segment(memory_id)}:{action}", Appended.first_of, body)

    def expire(self, memory_id: str, *, user: str, expires_at: str | None, ttl_s: float | None) -> Call[Appended]:
        body = _drop_none({"tenant": self.tenant, "user": user, "expires_at": expires_at, "ttl_s": ttl_s})
        return Call("POST", f"/v1/memories/{_segment(memory_id)}:expire", Appended.first_of, body)

    def consolidate(self, *, user: str, dry_run: bool) -> Call[Consolidation]:
        body = _drop_none({"tenant": self.tenant, "user": user, "dry_run": dry_run})
        return Call("POST", "/v1/consolidate", Consolidation.from_json, body)

    def session_context(self, session: str, *, user: str, budget: int | None) -> Call[SessionContext]:
        params = _params({"user": user, "tenant": self.tenant, "budget": budget})
        return Call("GET", f"/v1/sessions/{_segment(session)}/context", SessionContext.from_json, params=params)

    def list_memories(
        self,
        *,
        user: str | None,
        session: str | None,
        types: str | Sequence[str] | None,
        kinds: str | Sequence[str] | None,
        keys: str | Sequence[str] | None,
        tags: str | Sequence[str] | None,
        limit: int | None,
        offset: int | None,
        include: str | Sequence[str] | None = None,
    ) -> Call[MemoryPage]:
        params = _params({
            "user": user, "tenant": self.tenant, "session": session, "type": types, "kind": kinds,
            "key": keys, "tag": tags, "limit": limit, "offset": offset, "include": include,
        })
        return Call("GET", "/v1/memories", MemoryPage.from_json, params=params,
                    headers=self._admin(_as_list(include) or ()))

    def get_memory(self, memory_id: str, include: str | Sequence[str] | None = None) -> Call[MemoryDetail]:
        params = _params({"tenant": self.tenant, "include": include})
        return Call("GET", f"/v1/memories/{_segment(memory_id)}", MemoryDetail.from_json, params=params,
                    headers=self._admin(_as_list(include) or ()))

    def memory_history(self, memory_id: str, include: str | Sequence[str] | None = None) -> Call[MemoryHistory]:
        params = _params({"tenant": self.tenant, "include": include})
        return Call("GET", f"/v1/memories/{_segment(memory_id)}/history", MemoryHistory.from_json, params=params,
                    headers=self._admin(_as_list(include) or ()))

    def status(self) -> Call[Status]:
        return Call("GET", "/v1/status", Status.from_json)


def read_answer(call: Call[T], response: httpx.Response) -> T:
    """The parsed answer, or the error the gateway's status and JSON body describe."""
    if response.status_code >= 400:
        raise error_from_response(response.status_code, response.content)
    try:
        return call.parse(response.json())
    except (ValueError, LookupError, TypeError, AttributeError) as e:
        raise HindsightError(
            f"unexpected answer to {call.method} {call.path}: {type(e).__name__}: {e}",
            status=response.status_code,
        ) from e


def transport_error(e: httpx.TransportError, call: Call[Any], base_url: str) -> TransportError:
    if isinstance(e, httpx.TimeoutException):
        return TransportError(f"{call.method} {call.path}: no answer from Hindsight at {base_url} in time ({e!r})")
    return TransportError(f"{call.method} {call.path}: cannot reach Hindsight at {base_url}: {e!r}")
