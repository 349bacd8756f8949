"""MCP tools of a memory's lifecycle beyond pin, unpin and restore: an expiry (a TTL) and a
consolidation pass on demand. Each calls the gateway through the SDK, like every tool
(``handler.py``), and the gateway checks the key's scope."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from hindsight_services.mcp.handler import (
    GatewayContext, MemoryId, Recorded, Timestamp, User, _gateway, _Out, gateway_errors,
)


class ForgottenOut(_Out):
    memory_id: str
    importance: float
    reason: str


class ConsolidationOut(_Out):
    """What a pass did (or, dry, would do): the user's live memories before it, what it
    forgets, and the events it appended (none when dry)."""

    dry_run: bool
    live: int
    forgotten: list[ForgottenOut]
    events: list[Recorded]


async def expire_memory(
    ctx: GatewayContext, memory_id: MemoryId, user: User = None, expires_at: Timestamp = None,
    ttl_s: Annotated[float | None, Field(gt=0, description="Seconds from now until it expires.")] = None,
) -> Recorded:
    """Give a memory an expiry: a time (expires_at) or a time to live in seconds (ttl_s);
    with neither, an expiry set before is cleared. Once it has passed, recall leaves the
    memory out and the next forgetting pass forgets it (restore_memory brings it back).
    Use it for what the user says holds only for a while. Returns the id of the event."""
    gw = _gateway(ctx)
    who = gw.user(user)
    with gateway_errors():
        event = await gw.client.expire(memory_id, user=who, expires_at=expires_at, ttl_s=ttl_s)
    return Recorded(event_id=event.event_id, offset=event.offset)


async def consolidate(
    ctx: GatewayContext, user: User = None,
    dry_run: Annotated[bool, Field(description="Only list what the pass would forget.")] = False,
) -> ConsolidationOut:
    """Run a forgetting pass over the user's memories now: expired ones, and old ones whose
    importance fell below the threshold, at most a configured share of them (pinned ones
    never). dry_run lists what it would forget and changes nothing. Returns what it did."""
    gw = _gateway(ctx)
    who = gw.user(user)
    with gateway_errors():
        done = await gw.client.consolidate(user=who, dry_run=dry_run)
    return ConsolidationOut(
        dry_run=done.dry_run, live=done.live,
        forgotten=[ForgottenOut(memory_id=f.memory_id, importance=f.importance, reason=f.reason)
                   for f in done.forgotten],
        events=[Recorded(event_id=e.event_id, offset=e.offset) for e in done.events])
