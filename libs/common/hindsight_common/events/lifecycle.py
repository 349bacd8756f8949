"""Events of a memory's lifecycle that people decide: pinning, unpinning, restoring, expiry.

A pinned memory is never forgotten by a forgetting pass and weighs the most in
importance (``consolidation/importance.py``); unpinning gives it back to the pass. A
restore brings a forgotten memory back into recall (its content stayed in the
projections; see ``consolidation/forgetting.py``). An expiry (a TTL) takes the memory out
of recall once its time has passed, and the next forgetting pass forgets it. A purge ends a
forgotten memory's grace period: its content leaves the projections.
Each goes on ``hindsight.memories.v1``, keyed by tenant and user like the memory, so it
follows the memory in log order.
"""

from __future__ import annotations

from typing import Literal
from uuid import UUID

from pydantic import Field

from hindsight_common.events.base import Event, UtcDatetime


class MemoryPinned(Event):
    """Someone pinned a memory: no forgetting pass touches it."""

    type: Literal["MemoryPinned"] = "MemoryPinned"
    schema_version: Literal[1] = 1
    memory_id: UUID
    reason: str = Field(default="", max_length=500)
    by: str = Field(default="api", max_length=200, description="Who pinned it (the API, the UI, a CLI user).")


class MemoryUnpinned(Event):
    """Someone unpinned a memory: forgetting passes judge it by its importance again."""

    type: Literal["MemoryUnpinned"] = "MemoryUnpinned"
    schema_version: Literal[1] = 1
    memory_id: UUID
    reason: str = Field(default="", max_length=500)
    by: str = Field(default="api", max_length=200)


class MemoryRestored(Event):
    """Someone restored a forgotten memory: recall serves it again, and it counts as
    just used (a forgetting pass does not take it straight back)."""

    type: Literal["MemoryRestored"] = "MemoryRestored"
    schema_version: Literal[1] = 1
    memory_id: UUID
    reason: str = Field(default="", max_length=500)
    by: str = Field(default="api", max_length=200)


class MemoryExpirySet(Event):
    """Someone gave a memory an expiry time (a TTL), or cleared it (``expires_at`` None):
    once it has passed, recall leaves the memory out and a forgetting pass forgets it."""

    type: Literal["MemoryExpirySet"] = "MemoryExpirySet"
    schema_version: Literal[1] = 1
    memory_id: UUID
    expires_at: UtcDatetime | None
    reason: str = Field(default="", max_length=500)
    by: str = Field(default="api", max_length=200)


class MemoryPurged(Event):
    """A forgotten memory's grace period ran out: the projections drop its content (the
    tombstone keeps its id, so it stays out of recall), and it can no longer be restored.
    The log keeps the history (erasing content is crypto-shredding's job)."""

    type: Literal["MemoryPurged"] = "MemoryPurged"
    schema_version: Literal[1] = 1
    memory_id: UUID
    reason: str = Field(default="", max_length=500)
