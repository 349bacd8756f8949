"""project's wiring: consumer group ``project`` on the interactions (and memories) streams."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from hindsight_common.consumer import Consumer
from hindsight_common.ports.effects import EffectAudit
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.log import EventLog, Position
from hindsight_common.ports.projection import TextIndex
from hindsight_common.settings import Settings
from hindsight_common.erasure import erasing
from hindsight_common.streams import CONTROL, INTERACTIONS, MEMORIES
from hindsight_services.project.handler import Project

GROUP = "project"
STREAMS = (INTERACTIONS, MEMORIES, CONTROL)  # control: SubjectErased


def min_position(*positions: Position) -> dict[str, int]:
    """Per key, the lowest offset of ``positions``; a key missing from any of them is
    missing from the result (read from the beginning)."""
    if not positions:
        return {}
    keys = set(positions[0]).intersection(*positions[1:])
    return {k: min(p[k] for p in positions) for k in sorted(keys)}


def resume_position(
    text: TextIndex, graph: GraphStore | None
) -> Callable[[], Awaitable[Position]]:
    """Where project resumes: the lesser of what its projections hold, so deleting
    either one (or adding the graph to an existing text index) rebuilds from the log."""

    async def resume() -> Position:
        if graph is None:
            return await text.position()
        return min_position(*await asyncio.gather(text.position(), graph.position()))

    return resume


def consumer(
    log: EventLog, text: TextIndex, settings: Settings, graph: GraphStore | None = None,
    audit: EffectAudit | None = None,
) -> Consumer:
    project = Project(text, graph, audit)
    return Consumer(
        log,
        GROUP,
        STREAMS,
        erasing(project.handle, project.purge, what=GROUP),
        resume_from=resume_position(text, graph),
        not_past_commit=True,  # a kill after the graph write but before the audit: again
        batch_size=settings.consumer_batch,
        poll_timeout_s=settings.poll_timeout_s,
    )
