"""Events of the ``hindsight.memories.v1`` stream (and reflection's control events).

Reflection output is recorded, never recomputed: a rebuild replays these
events and makes no LLM call.
"""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from hindsight_common.events.base import Event, Identifier, UtcDatetime

MemoryKind = Literal["fact", "preference", "event", "lesson", "error"]


class ReflectorInfo(BaseModel):
    """Which reflector produced a memory, and what it cost."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="'offline-rules' or 'llm'.")
    version: str = Field(description="Reflector or prompt version.")
    model: str | None = Field(default=None, description="The LLM's model name, if one was used.")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class MemoryExtracted(Event):
    """Reflection learned a semantic memory from one or more episodes."""

    type: Literal["MemoryExtracted"] = "MemoryExtracted"
    schema_version: Literal[1] = 1
    memory_id: UUID
    agent: Identifier | None = None
    session: Identifier = Field(description="The session the memory was learned in.")
    subject: str = Field(min_length=1, max_length=200, description="Who the memory is about.")
    content: str = Field(min_length=1, max_length=2000, description="A short self-contained statement.")
    kind: MemoryKind
    key: str = Field(min_length=1, max_length=200, description="domain.attribute, e.g. preference.language")
    value: str = Field(default="", max_length=1000)
    confidence: float = Field(ge=0.0, le=1.0)
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    valid_from: UtcDatetime | None = None
    source_event_ids: tuple[UUID, ...] = Field(min_length=1)
    source_external_ids: tuple[str, ...] = ()
    related_memory_ids: tuple[UUID, ...] = Field(
        default=(), description="Existing memories on the same key with another value."
    )
    reasoning: str = Field(default="", max_length=2000)
    reflector: ReflectorInfo


class MemoryReinforced(Event):
    """A new episode confirmed an existing memory."""

    type: Literal["MemoryReinforced"] = "MemoryReinforced"
    schema_version: Literal[1] = 1
    memory_id: UUID
    session: Identifier
    source_event_ids: tuple[UUID, ...] = Field(min_length=1)
    source_external_ids: tuple[str, ...] = ()
    confidence: float = Field(ge=0.0, le=1.0)


class SessionSummarized(Event):
    """A rolling summary of a session's earlier part, for its working memory."""

    type: Literal["SessionSummarized"] = "SessionSummarized"
    schema_version: Literal[1] = 1
    session: Identifier
    summary: str = Field(min_length=1, max_length=8000)
    through_occurred_at: UtcDatetime = Field(description="The summary covers turns up to this time.")
    turns: int = Field(ge=1, description="How many turns it summarises.")
    reflector: ReflectorInfo


class ReflectionRequested(Event):
    """Someone asked for reflection on a session (or a task, kept as a session)."""

    type: Literal["ReflectionRequested"] = "ReflectionRequested"
    schema_version: Literal[1] = 1
    session: Identifier | None = Field(default=None, description="None: every open session of the user.")
    requested_by: str = Field(default="api", max_length=200)


class MemoryForgotten(Event):
    """A memory was forgotten: recall never returns it again (the log keeps the
    history; erasure of content is the security issue's crypto-shredding)."""

    type: Literal["MemoryForgotten"] = "MemoryForgotten"
    schema_version: Literal[1] = 1
    memory_id: UUID
    reason: str = Field(default="", max_length=500)
    forgotten_by: str = Field(default="api", max_length=200)


MAX_ACCESS_COUNTS = 1000
DocumentId = Annotated[str, StringConstraints(min_length=1, max_length=200)]
AccessCount = Annotated[int, Field(ge=1)]


class MemoryAccessed(Event):
    """Recall returned these documents (memories or turns) of one user, this many
    times, between ``window_start`` and ``window_end``: batched by the query service,
    counted by consolidate, and read back by rerank's access factor."""

    type: Literal["MemoryAccessed"] = "MemoryAccessed"
    schema_version: Literal[1] = 1
    counts: dict[DocumentId, AccessCount] = Field(
        min_length=1,
        max_length=MAX_ACCESS_COUNTS,
        description="Document id -> how many times recall returned it in this window.",
    )
    window_start: UtcDatetime
    window_end: UtcDatetime

    @model_validator(mode="after")
    def _window_in_order(self) -> MemoryAccessed:
        if self.window_end < self.window_start:
            raise ValueError("window_end must not be before window_start")
        return self


class MemoriesMerged(Event):
    """Consolidation merged near-duplicate (or exactly repeated) memories into one: the
    kept memory stays live with the union of their provenance and a combined
    confidence; the merged ones leave recall (an admin sees them with ``include=merged``,
    and the kept memory's history lists them). ``occurred_at`` is the time of the memory
    that triggered the merge, so a replay gives the same event."""

    type: Literal["MemoriesMerged"] = "MemoriesMerged"
    schema_version: Literal[1] = 1
    kept_id: UUID
    merged_ids: tuple[UUID, ...] = Field(min_length=1)
    source_event_ids: tuple[UUID, ...] = Field(min_length=1, description="Union of the memories' provenance.")
    source_external_ids: tuple[str, ...] = ()
    confidence: float = Field(ge=0.0, le=1.0, description="The kept memory's combined confidence.")
    reason: str = Field(min_length=1, max_length=500)


class MemorySuperseded(Event):
    """A newer value for the same subject and key replaced a memory: the old one leaves
    recall (``include=superseded`` and its history show it)."""

    type: Literal["MemorySuperseded"] = "MemorySuperseded"
    schema_version: Literal[1] = 1
    old_id: UUID
    new_id: UUID
    reason: str = Field(min_length=1, max_length=500)


class MemoryConflicted(Event):
    """Memories with the same subject and key disagree and consolidation cannot tell
    which is current (e.g. both stated in one session): both stay live, flagged for a
    reviewer instead of guessed."""

    type: Literal["MemoryConflicted"] = "MemoryConflicted"
    schema_version: Literal[1] = 1
    memory_ids: tuple[UUID, ...] = Field(min_length=2)
    subject: str = Field(min_length=1, max_length=200)
    key: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=500)
