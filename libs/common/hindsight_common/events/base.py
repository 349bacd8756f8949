"""The envelope every event carries.

Events are immutable, past-tense facts. A published ``schema_version`` is never
edited: a new version gets a new model and an upcaster (see ``registry``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated
from uuid import UUID, uuid4

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

# Identifiers that travel in keys and filters: no control characters, bounded.
IDENTIFIER_PATTERN = r"^[^\x00-\x1f/]+$"
Identifier = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
]


def _aware_utc(value: datetime) -> datetime:
    # Naive datetimes are ambiguous; an event time must say its zone.
    if value.tzinfo is None:
        raise ValueError("must include a timezone offset, e.g. 2024-05-01T10:00:00Z")
    try:
        return value.astimezone(UTC)
    except OverflowError as e:
        # 0001-01-01T00:00+01:00 is a valid ISO time whose UTC instant lies before
        # year 1 (9999-12-31T23:59-01:00: after year 9999); Python cannot hold it.
        raise ValueError("is out of range once converted to UTC (years 1 to 9999)") from e


UtcDatetime = Annotated[datetime, AfterValidator(_aware_utc)]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Event(BaseModel):
    """Fields common to every event on every stream."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: UUID = Field(default_factory=uuid4, description="Unique id of this event.")
    type: str = Field(description="The event's type name, e.g. InteractionRecorded.")
    schema_version: int = Field(description="Version of this type's schema.")
    tenant: Identifier = Field(description="Tenant the event belongs to; isolates everything.")
    user: Identifier = Field(description="The subject (end user) the event is about.")
    occurred_at: UtcDatetime = Field(description="When it happened (from the caller).")
    recorded_at: UtcDatetime = Field(
        default_factory=utcnow, description="When Hindsight recorded it."
    )
    trace: dict[str, str] = Field(
        default_factory=dict, description="W3C trace context (traceparent, tracestate)."
    )
    signature: str | None = Field(
        default=None, description="HMAC over the canonical form, with key id (kid:hex)."
    )
