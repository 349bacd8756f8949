"""Request and response models of the public API (HTTP today; gRPC and MCP map onto them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, Strict, ValidationInfo, field_validator

from hindsight_common.events.base import Identifier, UtcDatetime
from hindsight_common.events.interactions import Role, ToolCall
from hindsight_common.events.security import Source, Target


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _json_number(value: Any) -> Any:
    """Lax validation would take ``true`` as 1 and ``"5"`` as 5, which the published
    schema (``integer``) rules out; ``5.0`` is an integer in JSON Schema and stays one."""
    if isinstance(value, (bool, str, bytes)):
        raise ValueError("must be a JSON integer, e.g. 10")
    return value


#: An integer field of a request: a JSON number without a fraction (5 or 5.0), never
#: a boolean or a string.
JsonInt = Annotated[int, BeforeValidator(_json_number)]

def _date_time_text(value: Any) -> Any:
    """A request's times are ISO 8601 text, as the published schema says; lax validation
    would also take a number as seconds since 1970."""
    if isinstance(value, (int, float)):
        raise ValueError("must be an ISO 8601 date-time string with an offset, e.g. 2024-05-01T10:00:00Z")
    return value


#: A time in a request: ISO 8601 text with a timezone offset.
ApiDatetime = Annotated[UtcDatetime, BeforeValidator(_date_time_text)]
#: A boolean in a request: ``true`` or ``false`` only, not 1 or "yes".
JsonBool = Annotated[bool, Strict()]

#: The largest ``offset`` a page may start at: what gRPC's ``int32 offset`` holds, so
#: both interfaces accept the same range (and the SQLite index its 64-bit integers).
MAX_OFFSET = 2**31 - 1


class InteractionIn(_Strict):
    """One turn to record."""

    tenant: Identifier | None = Field(None, description="Defaults to 'default' when auth is off.")
    user: Identifier = Field(description="The end user this turn is about.")
    agent: Identifier | None = None
    session: Identifier
    speaker: str = Field(min_length=1, max_length=200)
    role: Role = "user"
    content: str = Field(min_length=1)
    occurred_at: ApiDatetime | None = Field(None, description="Defaults to the time received.")
    external_id: str | None = Field(None, max_length=500)
    tool_calls: tuple[ToolCall, ...] = ()
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    source: Source | None = Field(
        None, description="Where the content came from; default: from the role (tool -> tool_output). "
        "'third_party' marks someone else's words (a web page, an e-mail), screened harder.")


class IngestRequest(_Strict):
    interactions: list[InteractionIn] = Field(min_length=1)


class AppendedOut(_Strict):
    event_id: str
    offset: int


class AppendedEventsOut(_Strict):
    """The events a control write appended (one, today)."""

    events: list[AppendedOut]


class ErasureOut(_Strict):
    """What an erasure did, and what happens next."""

    tenant: str
    user: str
    keys_destroyed: int = Field(description="Data keys destroyed now (0: there were none left, e.g. a retry).")
    event: AppendedOut = Field(description="The SubjectErased event on the control stream.")
    status: Literal["keys_destroyed"] = "keys_destroyed"
    next: str = Field(description="What the projections and caches do next.")


class IngestResponse(_Strict):
    events: list[AppendedOut]
    replayed: bool = Field(False, description="True when an idempotency key matched an earlier batch.")


#: States a memory leaves recall and browsing in; an admin can ask for them back.
Include = Literal["forgotten", "superseded", "merged", "quarantined"]
#: Document types anyone may browse (GET /v1/memories ``type``); the states above are
#: reached only through ``include``.
BrowseType = Literal["episodic", "semantic", "summary"]

INCLUDE_DESCRIPTION = (
    "Admin only: also return memories in these states (send an API key with the admin "
    "scope as Authorization: Bearer <key>; 403 otherwise). Each item's type is its state. forgotten: "
    "memories forgotten through the API, with their content. superseded: older values that "
    "consolidation replaced with a newer value of the same subject and key. merged: "
    "near-duplicates consolidation merged into another memory. quarantined: turns and "
    "memories screening held back as suspected injections, with their reasons."
)


class MemoryState(_Strict):
    """What consolidation did with a semantic memory (defaults for anything else)."""

    reinforced_count: int = Field(0, description="How often later evidence confirmed it (repeats, merges).")
    last_reinforced_at: datetime | None = None
    importance: float | None = Field(
        None, description="What rerank weighs it by: a base by kind, raised by reinforcement; 1 when pinned.")
    pinned: bool = Field(False, description="Pinned: no forgetting pass touches it.")
    expires_at: datetime | None = Field(None, description="Its expiry (TTL), if one was set: not recalled after.")
    superseded_by: str | None = Field(None, description="The memory holding the newer value, once superseded.")
    supersedes: list[str] = Field(default_factory=list, description="Older values this memory replaced.")
    merged_into: str | None = Field(None, description="The memory it was merged into.")
    merged_from: list[str] = Field(default_factory=list, description="Near-duplicates merged into it.")


class RecallIn(_Strict):
    tenant: Identifier | None = None
    user: Identifier | None = None
    session: Identifier | None = None
    agent: Identifier | None = None
    query: str = Field(min_length=1, max_length=4000)
    k: JsonInt = Field(10, ge=1)
    types: list[Literal["episodic", "semantic"]] | None = None
    since: ApiDatetime | None = Field(None, description="Only what happened at or after this time.")
    until: ApiDatetime | None = Field(
        None, description="Only what happened before this time; must be after since (422 otherwise)."
    )
    preset: str | None = Field(None, description="fast or balanced (the default).")
    reference_time: ApiDatetime | None = Field(
        None, description="What 'last week' is relative to; default now."
    )
    kinds: list[str] = Field(default_factory=list, description="Only memories of these kinds.")
    keys: list[str] = Field(default_factory=list, description="Only memories with these keys.")
    tags: list[str] = Field(default_factory=list, description="Only memories with all these tags.")
    # The bound comes before the validator, or the published schema says "ge" for "minimum".
    budget_tokens: Annotated[int, Field(ge=1), BeforeValidator(_json_number)] | None = Field(
        None, description="Fill at most this many tokens."
    )
    explain: JsonBool = Field(False, description="Include each item's path ranks and rerank factors.")
    include: list[Include] = Field(default_factory=list, description=INCLUDE_DESCRIPTION)

    @field_validator("until")
    @classmethod
    def _window_in_order(cls, until: datetime | None, info: ValidationInfo) -> datetime | None:
        # The window is half-open (since inclusive, until exclusive): until at or
        # before since is empty and would answer 200 with nothing, hiding the mistake.
        # (``since`` is declared first, so it is validated by now, when it is valid.)
        since = info.data.get("since")
        if until is not None and since is not None and until <= since:
            raise ValueError(f"must be after since ({since.isoformat()}); were they swapped?")
        return until


class Provenance(_Strict):
    event_ids: list[str]
    external_ids: list[str]


class QuarantineOut(_Strict):
    """Why screening held an item back (only on items of type "quarantined")."""

    reasons: list[str]
    score: float | None = None


class RecallItemOut(MemoryState):
    id: str
    type: str
    kind: str | None = Field(None, description="Semantic memories: fact, preference, event, lesson, error.")
    key: str | None = Field(None, description="Semantic memories: domain.attribute.")
    confidence: float | None = None
    tags: list[str] = Field(default_factory=list)
    content: str
    speaker: str
    role: str
    session: str
    user: str
    occurred_at: datetime
    score: float
    scores: dict[str, float]
    ranks: dict[str, int]
    provenance: Provenance
    context_for: str | None = Field(None, description="Set on a neighbouring turn added for context.")
    explain: dict[str, Any] | None = None
    quarantine: QuarantineOut | None = Field(None, description="Quarantined items (admin include): why.")


class RecallOut(_Strict):
    items: list[RecallItemOut]
    degraded: list[str] = Field(
        default_factory=list,
        description="Retrieval paths left out because their store was down or timed out "
        "(e.g. bm25, graph); the items come from the paths that answered. Empty when all did.",
    )


class SessionCloseIn(_Strict):
    tenant: Identifier | None = None
    user: Identifier
    agent: Identifier | None = None



class ReflectIn(_Strict):
    tenant: Identifier | None = None
    user: Identifier
    session: Identifier | None = Field(None, description="None: every session with unreflected turns.")
    task: Identifier | None = Field(None, description="A task id; treated as a session.")


class ContextTurn(_Strict):
    id: str
    speaker: str
    role: str
    content: str
    occurred_at: datetime
    tokens: int


class SessionContextOut(_Strict):
    session: str
    summary: str | None = Field(None, description="Rolling summary of turns not shown verbatim.")
    summary_through: datetime | None = None
    turns: list[ContextTurn] = Field(description="The newest turns that fit, oldest first.")
    tokens: int = Field(description="Tokens used by the summary and turns together.")
    budget: int
    omitted_turns: bool = Field(description="True when older turns did not fit.")


class ReleaseIn(_Strict):
    tenant: Identifier | None = None
    user: Identifier
    reason: str = Field("", max_length=500)
    target: Target | None = Field(
        None, description="interaction or memory; default: a memory id (reflect's, version-5 UUIDs) "
        "is a memory, any other id an interaction.")


class ForgetIn(_Strict):
    tenant: Identifier | None = None
    user: Identifier
    reason: str = Field("", max_length=500)


class MemoryActionIn(_Strict):
    """The body of ``:pin``, ``:unpin`` and ``:restore``."""

    tenant: Identifier | None = None
    user: Identifier
    reason: str = Field("", max_length=500)


class ExpireIn(_Strict):
    """The body of ``:expire``: an expiry time, a TTL in seconds from now, or neither (clears it)."""

    tenant: Identifier | None = None
    user: Identifier
    expires_at: ApiDatetime | None = Field(None, description="When the memory expires (ISO 8601 with an offset).")
    ttl_s: Annotated[float, Strict()] | None = Field(
        None, gt=0, le=100 * 365 * 86400, description="Or: seconds from now.")
    reason: str = Field("", max_length=500)


class ConsolidateIn(_Strict):
    tenant: Identifier | None = None
    user: Identifier = Field(description="The user whose memories the pass looks at.")
    dry_run: JsonBool = Field(False, description="List what the pass would forget, and forget nothing.")


class PlannedForget(_Strict):
    memory_id: str
    importance: float
    reason: str


class ConsolidateOut(_Strict):
    dry_run: bool
    live: int = Field(description="The user's live memories before the pass.")
    forgotten: list[PlannedForget] = Field(description="What the pass forgets (or, dry, would forget).")
    events: list[AppendedOut] = Field(description="The MemoryForgotten events appended (none when dry).")


class SourceTurn(_Strict):
    id: str
    speaker: str
    role: str
    content: str
    session: str
    occurred_at: datetime
    external_id: str | None = None


class MemoryOut(MemoryState):
    id: str
    type: str
    kind: str | None = None
    key: str | None = None
    confidence: float | None = None
    tags: list[str] = Field(default_factory=list)
    content: str
    speaker: str
    session: str
    user: str
    occurred_at: datetime
    provenance: Provenance
    quarantine: QuarantineOut | None = Field(None, description="Quarantined items (admin include): why.")


class MemoryListOut(_Strict):
    items: list[MemoryOut]
    next_offset: int | None = Field(None, description="Pass as offset for the next page; null at the end.")


class MemoryDetailOut(_Strict):
    memory: MemoryOut
    sources: list[SourceTurn] = Field(description="The turns the memory came from (its provenance).")


class ProblemOut(_Strict):
    field: str = Field(description="The request field at fault, dotted (interactions.0.content), or (body).")
    message: str = Field(description="What is wrong with it and what would be accepted.")


class ErrorDetail(_Strict):
    code: str = Field(description="Stable machine-readable code: invalid_request, not_found, unavailable, ...")
    message: str = Field(description="What went wrong and what to do about it.")
    problems: list[ProblemOut] = Field(description="One entry per field at fault; may be empty.")


class ErrorOut(_Strict):
    """Every error answer of the HTTP API has this shape."""

    error: ErrorDetail


class MemoryHistoryOut(_Strict):
    memory_id: str
    live: str | None = Field(None, description="The chain's live (current) memory; null if none is live.")
    versions: list[MemoryOut] = Field(
        description="The memory and every memory it superseded, was superseded by, merged or was merged into, "
        "oldest first; each typed by its state."
    )
