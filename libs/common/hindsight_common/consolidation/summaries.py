"""Summarising what a forgetting pass forgets (pure): one statement per subject first.

With ``forget_summarise`` on, before a periodic pass forgets a group of at least two
memories of one tenant, user and subject, their statements become one new memory (a
``MemoryExtracted`` by the reflector ``consolidate-summary``, its provenance the union of
theirs), written like a cluster's (``cluster_merge.py``: the LLM when configured, else the
members joined), and each ``MemoryForgotten`` names it. The summary is stated at the pass's
time, so it is not old enough for the next pass to forget at once; like a cluster's
statement it is never merged or summarised again. Its id derives from the members and how
often each was restored, so the same pass decided again gives the same event, and a
replay reads it from the log instead of calling a model.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from hindsight_common.consolidation.clusters import MAX_STATEMENT, Cluster, cluster_events
from hindsight_common.consolidation.forgetting import Planned
from hindsight_common.consolidation.state import SUMMARY_REFLECTOR, ConsolidationState, Tracked
from hindsight_common.events import MemoryExtracted, ReflectorInfo

_NS = uuid.UUID("c4b1e7a2-9d36-4f8e-b05a-6e2d7c913f48")


def summary_groups(state: ConsolidationState, planned: Sequence[Planned]) -> list[Cluster]:
    """The planned forgets grouped by tenant, user and subject (groups of two or more, cut
    so that the joined statements fit in one memory), oldest first."""
    by_group: dict[tuple[str, str, str], list[Tracked]] = {}
    for p in planned:
        m = state.memories.get(p.memory_id)
        if m is not None and m.content and not m.clustered:
            by_group.setdefault(m.group, []).append(m)
    out: list[Cluster] = []
    for _, members in sorted(by_group.items()):
        chunk: list[Tracked] = []
        size = 0
        for m in sorted(members, key=lambda m: (m.at, str(m.id))):
            if chunk and size + 1 + len(m.content) > MAX_STATEMENT:
                out += [Cluster(tuple(chunk), 0.0)] if len(chunk) >= 2 else []
                chunk, size = [], 0
            chunk.append(m)
            size += len(m.content) + (1 if size else 0)
        if len(chunk) >= 2:
            out.append(Cluster(tuple(chunk), 0.0))
    return out


def summary_event(cluster: Cluster, statement: str, how: ReflectorInfo, reference: datetime) -> MemoryExtracted:
    """The summary memory, stated at ``reference`` (the pass's time)."""
    extracted, _ = cluster_events(cluster, statement, how.model_copy(update={"name": SUMMARY_REFLECTOR}))
    ids = "/".join(f"{m.id}:{m.restores}" for m in sorted(cluster.members, key=lambda m: str(m.id)))
    return extracted.model_copy(update={
        "event_id": uuid.uuid5(_NS, "event/" + ids), "memory_id": uuid.uuid5(_NS, "memory/" + ids),
        "occurred_at": reference, "valid_from": reference,
        "reasoning": f"summary of {len(cluster.members)} memories of {cluster.subject[:100]} a forgetting pass forgot"})
