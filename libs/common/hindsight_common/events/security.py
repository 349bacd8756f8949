"""Events of screening: an item held back as a suspected injection, and its release.

A quarantined item stays in the log (nothing is lost); projections re-type its document
"quarantined", which recall, browsing, session context and MCP never return unless an
admin asks with ``include=quarantined``. Each event goes on the stream of its target, so
it follows the target in log order: an interaction's on ``hindsight.interactions.v1``
(appended by ingest in the same durable write as the turn), a memory's on
``hindsight.memories.v1`` (appended by reflect with the memory).
"""

from __future__ import annotations

from typing import Annotated, Literal
from uuid import UUID

from pydantic import Field, StringConstraints

from hindsight_common.events.base import Event, Identifier

#: Where content came from (``security.screening_trust`` says how far each is trusted).
Source = Literal["user", "assistant", "tool_output", "system", "third_party"]
#: What a quarantine or release is about: an interaction (by event id) or a memory (by id).
Target = Literal["interaction", "memory"]
Reason = Annotated[str, StringConstraints(min_length=1, max_length=300)]


class MemoryQuarantined(Event):
    """Screening held an interaction or a memory back as a suspected injection or poisoning."""

    type: Literal["MemoryQuarantined"] = "MemoryQuarantined"
    schema_version: Literal[1] = 1
    target_id: UUID = Field(description="The interaction's event id or the memory's id.")
    target: Target
    session: Identifier | None = None
    reasons: tuple[Reason, ...] = Field(min_length=1, max_length=50, description="Why, strongest first.")
    families: tuple[str, ...] = Field(default=(), max_length=20, description="Attack families detected.")
    score: float = Field(ge=0.0, le=1.0)
    threshold: float = Field(ge=0.0, le=1.0, description="The threshold for the item's trust.")
    source: Source
    trust: float = Field(ge=0.0, le=1.0)


class MemoryReleased(Event):
    """An administrator released a quarantined item: it is served again."""

    type: Literal["MemoryReleased"] = "MemoryReleased"
    schema_version: Literal[1] = 1
    target_id: UUID
    target: Target
    reason: str = Field(default="", max_length=500)
    released_by: str = Field(default="admin", max_length=200)
