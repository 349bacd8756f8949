"""Events of the ``hindsight.interactions.v1`` stream."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool

from hindsight_common.events.base import Event, Identifier

Role = Literal["user", "assistant", "tool", "system"]


class ToolCall(BaseModel):
    """A tool the agent called during the turn, with its outcome."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    arguments: dict[str, JsonValue] = Field(default_factory=dict)
    result: str | None = Field(default=None, max_length=100_000)
    ok: StrictBool | None = Field(default=None, description="Whether the call succeeded: true or false.")


class Redaction(BaseModel):
    """A value ingest replaced with a placeholder before the append: its type and where
    the placeholder now stands; never the value."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str = Field(min_length=1, max_length=40, description="The PII type: email, phone, card, ...")
    field: str = Field(
        min_length=1, max_length=1000,
        description="content, tool_calls.<i>.arguments.<key>..., tool_calls.<i>.result or "
                    "metadata.<key>... (list items by index).",
    )
    start: int = Field(ge=0, description="Where the placeholder starts in the stored text.")
    end: int = Field(ge=0, description="Where it ends (exclusive).")


class InteractionRecorded(Event):
    """One turn of a conversation (a message, a tool call, an outcome) happened."""

    type: Literal["InteractionRecorded"] = "InteractionRecorded"
    schema_version: Literal[1] = 1
    agent: Identifier | None = Field(default=None, description="The agent involved, if any.")
    session: Identifier = Field(description="The conversation or task this turn belongs to.")
    speaker: str = Field(min_length=1, max_length=200, description="Who spoke (a name).")
    role: Role = Field(description="user, assistant, tool or system.")
    content: str = Field(min_length=1, description="What was said or done.")
    tool_calls: tuple[ToolCall, ...] = Field(default=())
    external_id: str | None = Field(
        default=None, max_length=500, description="The caller's own id for this turn."
    )
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    redactions: tuple[Redaction, ...] = Field(
        default=(), description="PII replaced before the append (type and position, never the value)."
    )


class SessionClosed(Event):
    """A session ended; reflection may now look back at it."""

    type: Literal["SessionClosed"] = "SessionClosed"
    schema_version: Literal[1] = 1
    agent: Identifier | None = None
    session: Identifier
