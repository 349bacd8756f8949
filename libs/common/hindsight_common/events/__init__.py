"""Domain events: immutable, versioned, past-tense facts on the log."""

from hindsight_common.events.base import Event, utcnow
from hindsight_common.events.interactions import InteractionRecorded, Role, SessionClosed, ToolCall
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
    MemoryKind,
    MemoryReinforced,
    MemorySuperseded,
    ReflectionRequested,
    ReflectorInfo,
    SessionSummarized,
)
from hindsight_common.events.erasure import SealedEvent, SubjectErased
from hindsight_common.events.security import MemoryQuarantined, MemoryReleased, Source
from hindsight_common.events.registry import (
    EVENT_TYPES,
    parse_event,
    register_event_type,
    register_upcaster,
    serialize_event,
    upcast,
)

__all__ = [
    "EVENT_TYPES",
    "Event",
    "InteractionRecorded",
    "MemoriesMerged",
    "MemoryAccessed",
    "MemoryConflicted",
    "MemoryExpirySet",
    "MemoryExtracted",
    "MemoryForgotten",
    "MemoryKind",
    "MemoryPinned",
    "MemoryPurged",
    "MemoryQuarantined",
    "MemoryReleased",
    "MemoryReinforced",
    "MemoryRestored",
    "MemorySuperseded",
    "MemoryUnpinned",
    "ReflectionRequested",
    "ReflectorInfo",
    "SessionSummarized",
    "Role",
    "SealedEvent",
    "SessionClosed",
    "Source",
    "SubjectErased",
    "ToolCall",
    "parse_event",
    "register_event_type",
    "register_upcaster",
    "serialize_event",
    "upcast",
    "utcnow",
]
