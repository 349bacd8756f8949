"""Event types by name, parsing from the wire, and upcasters.

An upcaster turns the stored JSON of an old schema version into the next
version, so readers only ever see current models. Published versions are never
edited; a new version registers ``(type, old_version) -> function``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from hindsight_common.errors import InvalidInput, Problem
from hindsight_common.events.audit import AuditRecorded
from hindsight_common.events.base import Event
from hindsight_common.events.erasure import SealedEvent, SubjectErased
from hindsight_common.events.interactions import InteractionRecorded, SessionClosed
from hindsight_common.events.lifecycle import (
    MemoryExpirySet,
    MemoryPinned,
    MemoryPurged,
    MemoryRestored,
    MemoryUnpinned,
)
from hindsight_common.events.memories import (
    MemoriesMerged,
    MemoryAccessed,
    MemoryConflicted,
    MemoryExtracted,
    MemoryForgotten,
    MemoryReinforced,
    MemorySuperseded,
    ReflectionRequested,
    SessionSummarized,
)
from hindsight_common.events.security import MemoryQuarantined, MemoryReleased

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

EVENT_TYPES: dict[str, type[Event]] = {
    "InteractionRecorded": InteractionRecorded,
    "SessionClosed": SessionClosed,
    "MemoryExtracted": MemoryExtracted,
    "MemoryReinforced": MemoryReinforced,
    "MemoryForgotten": MemoryForgotten,
    "MemoryAccessed": MemoryAccessed,
    "SessionSummarized": SessionSummarized,
    "ReflectionRequested": ReflectionRequested,
    "MemoryQuarantined": MemoryQuarantined,
    "MemoryReleased": MemoryReleased,
    "AuditRecorded": AuditRecorded,
    "MemoriesMerged": MemoriesMerged,
    "MemorySuperseded": MemorySuperseded,
    "MemoryConflicted": MemoryConflicted,
    "SealedEvent": SealedEvent,
    "SubjectErased": SubjectErased,
    "MemoryPinned": MemoryPinned,
    "MemoryUnpinned": MemoryUnpinned,
    "MemoryRestored": MemoryRestored,
    "MemoryExpirySet": MemoryExpirySet,
    "MemoryPurged": MemoryPurged,
}

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_event_type(model: type[Event]) -> None:
    """Make a new event type parseable (used by modules that add streams)."""
    name = model.model_fields["type"].default
    EVENT_TYPES[str(name)] = model


def register_upcaster(event_type: str, from_version: int, fn: Upcaster) -> None:
    """Register how to lift ``event_type`` from ``from_version`` to the next one."""
    _UPCASTERS[(event_type, from_version)] = fn


def upcast(raw: dict[str, Any]) -> dict[str, Any]:
    """Apply upcasters until the stored dict reaches its type's current version."""
    current = dict(raw)
    while True:
        key = (str(current.get("type")), int(current.get("schema_version", 0)))
        fn = _UPCASTERS.get(key)
        if fn is None:
            return current
        current = fn(current)
        if int(current.get("schema_version", 0)) <= key[1]:
            raise ValueError(f"upcaster for {key} did not raise the schema version")


def parse_event(data: bytes | str | dict[str, Any]) -> Event:
    """Parse stored or received JSON into its event model.

    Raises :class:`InvalidInput` naming what is wrong (not JSON, unknown type,
    fields that do not validate).
    """
    if isinstance(data, dict):
        raw = data
    else:
        try:
            raw = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise InvalidInput(f"event is not valid JSON: {e}") from e
        if not isinstance(raw, dict):
            raise InvalidInput("event must be a JSON object")
    raw = upcast(raw)
    model = EVENT_TYPES.get(str(raw.get("type")))
    if model is None:
        raise InvalidInput(f"unknown event type {raw.get('type')!r}")
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        problems = [
            Problem(".".join(str(p) for p in err["loc"]), err["msg"]) for err in e.errors()
        ]
        raise InvalidInput(f"invalid {model.__name__}", problems) from e


def serialize_event(event: Event) -> bytes:
    """The wire form of an event: compact JSON, UTF-8."""
    return event.model_dump_json().encode()
