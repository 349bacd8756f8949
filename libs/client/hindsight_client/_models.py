"""Typed, frozen results (and the one input type, ``Interaction``) of the Hindsight API.

Each result has a ``from_json`` that reads the gateway's answer; fields the gateway adds
later are ignored, so an older client keeps working against a newer server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Role = Literal["user", "assistant", "tool", "system"]
MemoryType = Literal["episodic", "semantic", "summary"]


def _dt(value: Any) -> datetime:
    return datetime.fromisoformat(str(value))


def _opt_dt(value: Any) -> datetime | None:
    return None if value is None else _dt(value)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def iso(value: datetime | str) -> str:
    """A datetime as ISO-8601 (give it a time zone: the gateway rejects naive times)."""
    return value.isoformat() if isinstance(value, datetime) else value


@dataclass(frozen=True)
class Interaction:
    """One turn to retain: a message, a tool call or an outcome, as it happened."""

    content: str
    user: str
    session: str
    speaker: str
    role: Role = "user"
    occurred_at: datetime | str | None = None  # defaults to the time the gateway receives it
    external_id: str | None = None  # your id for the turn; comes back in provenance
    agent: str | None = None
    tool_calls: Sequence[Mapping[str, Any]] = ()  # {"name", "arguments"?, "result"?, "ok"?}
    metadata: Mapping[str, Any] = field(default_factory=dict)
    tenant: str | None = None  # None: the client's tenant

    def to_json(self, default_tenant: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "user": self.user,
            "session": self.session,
            "speaker": self.speaker,
            "role": self.role,
            "content": self.content,
        }
        optional = {
            "tenant": self.tenant or default_tenant,
            "occurred_at": None if self.occurred_at is None else iso(self.occurred_at),
            "external_id": self.external_id,
            "agent": self.agent,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        if self.tool_calls:
            body["tool_calls"] = [dict(c) for c in self.tool_calls]
        if self.metadata:
            body["metadata"] = dict(self.metadata)
        return body


@dataclass(frozen=True)
class Appended:
    """An event durably appended to the log: its id and log offset."""

    event_id: str
    offset: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Appended:
        return cls(event_id=str(d["event_id"]), offset=int(d["offset"]))

    @classmethod
    def first_of(cls, d: Mapping[str, Any]) -> Appended:
        """The one event of a close / reflect / forget answer (``{"events": [...]}``)."""
        return cls.from_json(d["events"][0])


@dataclass(frozen=True)
class RetainResult:
    """What ``retain`` recorded; ``replayed`` when an idempotency key matched an earlier batch."""

    events: tuple[Appended, ...]
    replayed: bool

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RetainResult:
        return cls(
            events=tuple(Appended.from_json(e) for e in d["events"]),
            replayed=bool(d.get("replayed", False)),
        )


@dataclass(frozen=True)
class Forgetting:
    """One memory a forgetting pass forgot (or, dry, would forget), and why."""

    memory_id: str
    importance: float
    reason: str


@dataclass(frozen=True)
class Consolidation:
    """What ``consolidate`` did: the user's live memories before it, what it forgot (or
    with ``dry_run`` would forget) and the events it appended (none when dry)."""

    dry_run: bool
    live: int
    forgotten: tuple[Forgetting, ...]
    events: tuple[Appended, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Consolidation:
        return cls(
            dry_run=bool(d["dry_run"]), live=int(d["live"]),
            forgotten=tuple(Forgetting(str(f["memory_id"]), float(f["importance"]), str(f["reason"]))
                            for f in d.get("forgotten") or ()),
            events=tuple(Appended.from_json(e) for e in d.get("events") or ()),
        )


@dataclass(frozen=True)
class Provenance:
    """Where a memory came from: the source events and the callers' external ids."""

    event_ids: tuple[str, ...]
    external_ids: tuple[str, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | None) -> Provenance:
        d = d or {}
        return cls(
            event_ids=tuple(str(i) for i in d.get("event_ids", ())),
            external_ids=tuple(str(i) for i in d.get("external_ids", ())),
        )


@dataclass(frozen=True)
class Memory:
    """One memory: an episode (a turn as it happened) or a semantic statement learned from them."""

    id: str
    type: str
    content: str
    speaker: str
    session: str
    user: str
    occurred_at: datetime
    provenance: Provenance
    kind: str | None = None  # semantic: fact, preference, event, lesson, error
    key: str | None = None  # semantic: domain.attribute, e.g. preference.language
    confidence: float | None = None
    tags: tuple[str, ...] = ()
    # What consolidation did with it: reinforcements, and the memories it replaced or
    # was replaced by, merged or was merged into.
    reinforced_count: int = 0
    last_reinforced_at: datetime | None = None
    importance: float | None = None
    superseded_by: str | None = None
    supersedes: tuple[str, ...] = ()
    merged_into: str | None = None
    merged_from: tuple[str, ...] = ()
    pinned: bool = False  # no forgetting pass touches it
    expires_at: datetime | None = None  # its TTL, if set: not recalled after

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Memory:
        return cls(**cls._fields(d))

    @staticmethod
    def _fields(d: Mapping[str, Any]) -> dict[str, Any]:
        confidence = d.get("confidence")
        return {
            "id": str(d["id"]),
            "type": str(d["type"]),
            "content": str(d["content"]),
            "speaker": str(d.get("speaker", "")),
            "session": str(d.get("session", "")),
            "user": str(d.get("user", "")),
            "occurred_at": _dt(d["occurred_at"]),
            "provenance": Provenance.from_json(d.get("provenance")),
            "kind": _opt_str(d.get("kind")),
            "key": _opt_str(d.get("key")),
            "confidence": None if confidence is None else float(confidence),
            "tags": tuple(str(t) for t in d.get("tags", ())),
            "reinforced_count": int(d.get("reinforced_count") or 0),
            "last_reinforced_at": _dt(d["last_reinforced_at"]) if d.get("last_reinforced_at") else None,
            "importance": None if d.get("importance") is None else float(d["importance"]),
            "superseded_by": _opt_str(d.get("superseded_by")),
            "supersedes": tuple(str(i) for i in d.get("supersedes") or ()),
            "merged_into": _opt_str(d.get("merged_into")),
            "merged_from": tuple(str(i) for i in d.get("merged_from") or ()),
            "pinned": bool(d.get("pinned") or False),
            "expires_at": _dt(d["expires_at"]) if d.get("expires_at") else None,
        }


@dataclass(frozen=True)
class RecallItem(Memory):
    """A recalled memory with its fused score and, per retrieval path, its score and rank."""

    role: str = ""
    score: float = 0.0  # reciprocal-rank fusion of the paths
    scores: Mapping[str, float] = field(default_factory=dict)  # per path, e.g. {"vector", "bm25"}
    ranks: Mapping[str, int] = field(default_factory=dict)  # 1-based rank per path

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RecallItem:
        return cls(
            **cls._fields(d),
            role=str(d.get("role", "")),
            score=float(d["score"]),
            scores={str(k): float(v) for k, v in (d.get("scores") or {}).items()},
            ranks={str(k): int(v) for k, v in (d.get("ranks") or {}).items()},
        )


@dataclass(frozen=True)
class RecallResult:
    """Recalled items, best first."""

    items: tuple[RecallItem, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RecallResult:
        return cls(items=tuple(RecallItem.from_json(i) for i in d["items"]))


@dataclass(frozen=True)
class MemoryPage:
    """One page of ``list_memories``; pass ``next_offset`` as ``offset`` for the next (None: last page)."""

    items: tuple[Memory, ...]
    next_offset: int | None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MemoryPage:
        nxt = d.get("next_offset")
        return cls(
            items=tuple(Memory.from_json(i) for i in d["items"]),
            next_offset=None if nxt is None else int(nxt),
        )


@dataclass(frozen=True)
class SourceTurn:
    """A turn a memory was learned from."""

    id: str
    speaker: str
    role: str
    content: str
    session: str
    occurred_at: datetime
    external_id: str | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SourceTurn:
        return cls(
            id=str(d["id"]),
            speaker=str(d.get("speaker", "")),
            role=str(d.get("role", "")),
            content=str(d["content"]),
            session=str(d.get("session", "")),
            occurred_at=_dt(d["occurred_at"]),
            external_id=_opt_str(d.get("external_id")),
        )


@dataclass(frozen=True)
class MemoryDetail:
    """One memory with the turns it came from."""

    memory: Memory
    sources: tuple[SourceTurn, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MemoryDetail:
        return cls(
            memory=Memory.from_json(d["memory"]),
            sources=tuple(SourceTurn.from_json(s) for s in d.get("sources", ())),
        )


@dataclass(frozen=True)
class MemoryHistory:
    """A memory's chain of values, oldest first, and which of them is live."""

    memory_id: str
    live: str | None
    versions: tuple[Memory, ...]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MemoryHistory:
        return cls(memory_id=str(d["memory_id"]), live=_opt_str(d.get("live")),
                   versions=tuple(Memory.from_json(v) for v in d.get("versions", ())))


@dataclass(frozen=True)
class ContextTurn:
    """A turn of working memory, with its size in tokens."""

    id: str
    speaker: str
    role: str
    content: str
    occurred_at: datetime
    tokens: int

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ContextTurn:
        return cls(
            id=str(d["id"]),
            speaker=str(d.get("speaker", "")),
            role=str(d.get("role", "")),
            content=str(d["content"]),
            occurred_at=_dt(d["occurred_at"]),
            tokens=int(d.get("tokens", 0)),
        )


@dataclass(frozen=True)
class SessionContext:
    """Working memory of a session: a rolling summary plus the newest turns that fit the budget."""

    session: str
    summary: str | None
    summary_through: datetime | None
    turns: tuple[ContextTurn, ...]  # oldest first
    tokens: int
    budget: int
    omitted_turns: bool  # True when older turns did not fit

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> SessionContext:
        return cls(
            session=str(d["session"]),
            summary=_opt_str(d.get("summary")),
            summary_through=_opt_dt(d.get("summary_through")),
            turns=tuple(ContextTurn.from_json(t) for t in d.get("turns", ())),
            tokens=int(d["tokens"]),
            budget=int(d["budget"]),
            omitted_turns=bool(d.get("omitted_turns", False)),
        )


@dataclass(frozen=True)
class ConsumerStatus:
    """One consumer group's progress through the log."""

    behind: bool
    processed: int
    dead_lettered: int
    position: Mapping[str, int]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ConsumerStatus:
        return cls(
            behind=bool(d.get("behind", False)),
            processed=int(d.get("processed", 0)),
            dead_lettered=int(d.get("dead_lettered", 0)),
            position={str(k): int(v) for k, v in (d.get("position") or {}).items()},
        )


@dataclass(frozen=True)
class Status:
    """Log heads and consumer positions; ``caught_up``: every acknowledged write is visible."""

    caught_up: bool
    log: Mapping[str, int]
    consumers: Mapping[str, ConsumerStatus]

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Status:
        return cls(
            caught_up=bool(d["caught_up"]),
            log={str(k): int(v) for k, v in (d.get("log") or {}).items()},
            consumers={str(k): ConsumerStatus.from_json(v) for k, v in (d.get("consumers") or {}).items()},
        )
