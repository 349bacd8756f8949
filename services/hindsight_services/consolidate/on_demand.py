"""A forgetting pass on demand (``POST /v1/consolidate``, ``hindsight consolidate``).

Ingest serves it, as it holds the log in both ways of running: it folds one user's
events of the memories stream into a fresh ``ConsolidationState`` (the decisions
consolidate recorded are read, not taken again: ``adopt``; no embedder, no LLM), plans the pass
with the same function as consolidate's periodic pass, and appends the
``MemoryForgotten`` events unless it is a dry run. Their ids derive from the memory
(``forgetting.forgotten_events``), so a pass that consolidate also decides is the same
event. It reads the whole memories stream: an operator's tool, not a per-request one.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from hindsight_common.consolidation.forgetting import ForgetPolicy, Planned, forgotten_events, plan
from hindsight_common.consolidation.state import ConsolidationState
from hindsight_common.events import MemoryExtracted, MemoryForgotten, MemoryQuarantined, MemoryReleased
from hindsight_common.ports.log import Appended, EventLog
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import stream_records


async def fold_user(log: EventLog, tenant: str, user: str) -> ConsolidationState:
    """The consolidation state of one user's memories as the log has them; a memory
    quarantined and not released is left out (consolidate never folds it either)."""
    state = ConsolidationState()
    held: set[UUID] = set()
    for key in await log.head(MEMORIES):
        stream, _, part = key.rpartition("#")
        async for r in stream_records(log, stream, int(part)):
            e = r.event
            if e is None or e.tenant != tenant or e.user != user:
                continue
            if isinstance(e, MemoryExtracted):
                state.adopt(e)
            elif isinstance(e, MemoryQuarantined | MemoryReleased) and e.target == "memory":
                (held.add if isinstance(e, MemoryQuarantined) else held.discard)(e.target_id)
            else:
                state.observe(e)
    for i in held:
        state.memories.pop(i, None)
    return state


async def forget_now(
    log: EventLog, tenant: str, user: str, reference: datetime, policy: ForgetPolicy, *, dry_run: bool,
) -> tuple[int, list[Planned], list[Appended]]:
    """The user's live count, what the pass forgets, and the appended events (none when dry)."""
    state = await fold_user(log, tenant, user)
    live = sum(1 for m in state.memories.values() if m.status == "live")
    planned = plan(state, reference, policy, tenant=tenant, user=user)
    events: list[MemoryForgotten] = [] if dry_run else forgotten_events(state, planned, reference)
    appended = await log.append(MEMORIES, events) if events else []
    return live, planned, appended
