"""Cluster consolidation: similar memories of one subject merged into one statement (pure).

A pass looks, per tenant, user and subject, at the live memories that are neither pinned
nor made by an earlier cluster merge (so a pass run twice merges nothing the second time)
and that have a vector (their document's embedding). It groups them greedily, oldest
first, by complete linkage: a memory joins a group when its cosine similarity (rounded
like dedup's, ``rules.cosine``) to every member is at least ``similarity``, and it does not
give another value of a member's key naming something else (a change of value is
supersession's business, ``state.py``). Groups of ``min_size`` to ``max_size`` members
whose statements fit in one memory become :class:`Cluster`\\ s. A pass never merges more than
``max_share`` of one user's live memories (rounded down; largest groups first), the same
guard as the forgetting pass: the rest waits for the next pass.

Each cluster becomes two events (:func:`cluster_events`): the merged statement, a
``MemoryExtracted`` by the reflector ``consolidate-cluster`` whose provenance is the
union of the members' (sources, external ids, entities, tags), and the ``MemoriesMerged``
that retires the members into it. The statement comes from the LLM port when one is
configured (``cluster_merge.py``), else from :func:`joined_statement`; either way it is
recorded on the log, so a replay reads it and calls no model. Ids and times derive from
the members, never from a clock: the same cluster decided again is the same events.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from hindsight_common.consolidation.importance import BASE, DEFAULT_BASE
from hindsight_common.consolidation.rules import SIMILARITY_DECIMALS, combine_confidence, union
from hindsight_common.consolidation.state import CLUSTER_REFLECTOR, ConsolidationState, Tracked
from hindsight_common.events import MemoriesMerged, MemoryExtracted, ReflectorInfo

if TYPE_CHECKING:
    from hindsight_common.settings import Settings

_NS = uuid.UUID("7e2c4a19-b35d-4f60-8a17-d49c0e6b2f38")
#: ``MemoryExtracted.content`` holds at most this many characters.
MAX_STATEMENT = 2000
#: The vector of a memory (its document's embedding), or None when there is none.
VectorOf = Callable[[uuid.UUID], Sequence[float] | None]


@dataclass(frozen=True)
class ClusterPolicy:
    """The settings ``cluster_*`` (see ``settings.py``)."""

    similarity: float = 0.85
    min_size: int = 2
    max_size: int = 8
    max_share: float = 0.1

    @classmethod
    def from_settings(cls, s: Settings) -> ClusterPolicy:
        return cls(similarity=s.cluster_similarity, min_size=s.cluster_min_size, max_size=s.cluster_max_size,
                   max_share=s.cluster_max_share)


@dataclass(frozen=True)
class Cluster:
    """Memories of one subject a pass merges into one statement, oldest first."""

    members: tuple[Tracked, ...]
    similarity: float  # the lowest similarity between two members

    @property
    def tenant(self) -> str:
        return self.members[0].group[0]

    @property
    def user(self) -> str:
        return self.members[0].group[1]

    @property
    def subject(self) -> str:
        return self.members[-1].subject or self.members[-1].group[2]

    @property
    def memory_id(self) -> uuid.UUID:
        """The merged statement's id: from the members, so deciding again gives the same one."""
        return uuid.uuid5(_NS, "cluster/" + "/".join(sorted(str(m.id) for m in self.members)))


def eligible(state: ConsolidationState, *, tenant: str | None = None, user: str | None = None) -> list[Tracked]:
    """The live memories a pass may merge (of one tenant / user when given)."""
    return [m for m in state.memories.values()
            if m.status == "live" and not m.pinned and not m.clustered and not m.purged and m.content
            and (tenant is None or m.group[0] == tenant) and (user is None or m.group[1] == user)]


def plan_clusters(
    state: ConsolidationState, vectors: VectorOf, policy: ClusterPolicy,
    *, tenant: str | None = None, user: str | None = None,
) -> list[Cluster]:
    """What a pass merges, per user at most ``max_share`` of that user's live memories."""
    live_per_user: dict[tuple[str, str], int] = {}
    for m in state.memories.values():
        if m.status == "live":
            live_per_user[m.group[:2]] = live_per_user.get(m.group[:2], 0) + 1
    by_group: dict[tuple[str, str, str], list[Tracked]] = {}
    for m in eligible(state, tenant=tenant, user=user):
        by_group.setdefault(m.group, []).append(m)
    found: dict[tuple[str, str], list[Cluster]] = {}
    for group, members in sorted(by_group.items()):
        if len(members) >= policy.min_size:
            found.setdefault(group[:2], []).extend(_group(members, vectors, policy))
    out: list[Cluster] = []
    for who, clusters in sorted(found.items()):
        room = math.floor(max(0.0, min(1.0, policy.max_share)) * live_per_user.get(who, 0))
        for c in sorted(clusters, key=lambda c: (-len(c.members), c.members[0].at, str(c.members[0].id))):
            if len(c.members) <= room:
                out.append(c)
                room -= len(c.members)
    return out


def _group(members: list[Tracked], vectors: VectorOf, policy: ClusterPolicy) -> list[Cluster]:
    with_vectors = [(m, v) for m in sorted(members, key=lambda m: (m.at, str(m.id))) if (v := vectors(m.id)) is not None]
    if len(with_vectors) < policy.min_size:
        return []
    matrix = np.asarray([v for _, v in with_vectors], dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1)
    norms[norms == 0.0] = 1.0
    unit = matrix / norms[:, None]
    sims = np.round(unit @ unit.T, SIMILARITY_DECIMALS)
    taken = [False] * len(with_vectors)
    out: list[Cluster] = []
    for i in range(len(with_vectors)):
        if taken[i]:
            continue
        chosen = [i]
        size = len(with_vectors[i][0].content)
        for j in range(i + 1, len(with_vectors)):
            if len(chosen) >= policy.max_size:
                break
            m = with_vectors[j][0]
            if taken[j] or size + 1 + len(m.content) > MAX_STATEMENT:
                continue
            if all(sims[j, k] >= policy.similarity and not _other_value(m, with_vectors[k][0]) for k in chosen):
                chosen.append(j)
                size += 1 + len(m.content)
        if len(chosen) >= policy.min_size:
            for k in chosen:
                taken[k] = True
            low = min(float(sims[a, b]) for a in chosen for b in chosen if a < b)
            out.append(Cluster(tuple(with_vectors[k][0] for k in chosen), low))
    return out


def _other_value(a: Tracked, b: Tracked) -> bool:
    return a.key == b.key and a.value != b.value and a.entities != b.entities


def joined_statement(cluster: Cluster) -> str:
    """The deterministic merge: the members' statements, oldest first, repeats left out,
    each ending with a full stop."""
    seen: dict[str, str] = {}
    for m in cluster.members:
        text = m.content.strip()
        seen.setdefault(text.lower().rstrip(" .!?"), text if text[-1:] in ".!?" else text + ".")
    return " ".join(seen.values())[:MAX_STATEMENT]


def cluster_events(cluster: Cluster, statement: str, how: ReflectorInfo) -> tuple[MemoryExtracted, MemoriesMerged]:
    """The merged statement and the merge that retires the members into it."""
    members = cluster.members
    last = max(members, key=lambda m: (m.occurred_at, str(m.id)))
    confidence = members[0].confidence
    for m in members[1:]:
        confidence = combine_confidence(confidence, m.confidence)
    sources = union(*(m.sources for m in members))
    external = union(*(m.external for m in members))
    keys = sorted({m.key for m in members})
    domains = sorted({k.partition(".")[0] for k in keys})
    key = keys[0] if len(keys) == 1 else f"{domains[0] if len(domains) == 1 else 'mixed'}.cluster"
    kind = max((m.kind for m in members), key=lambda k: (BASE.get(k, DEFAULT_BASE), k))
    ids = "/".join(sorted(str(m.id) for m in members))
    how_made = f"by {how.model}" if how.model else "joined deterministically"
    extracted = MemoryExtracted(
        event_id=uuid.uuid5(_NS, "extracted/" + ids), tenant=cluster.tenant, user=cluster.user,
        occurred_at=last.occurred_at, memory_id=cluster.memory_id, session=last.session or "consolidate",
        subject=cluster.subject[:200], content=statement[:MAX_STATEMENT], kind=kind, key=key[:200],
        confidence=confidence, entities=union(*(m.names for m in members)),
        valid_from=max(m.at for m in members), source_event_ids=sources, source_external_ids=external,
        reasoning=f"merged {len(members)} similar memories of {cluster.subject[:100]} (similarity >= "
                  f"{cluster.similarity:.3f}), {how_made}"[:2000],
        reflector=how)
    merged = MemoriesMerged(
        event_id=uuid.uuid5(_NS, "merged/" + ids), tenant=cluster.tenant, user=cluster.user,
        occurred_at=last.occurred_at, kept_id=cluster.memory_id, merged_ids=tuple(m.id for m in members),
        source_event_ids=sources, source_external_ids=external, confidence=confidence,
        reason=f"cluster of {len(members)} similar memories of {cluster.subject[:100]}: lowest similarity "
               f"{cluster.similarity:.3f}; one statement {how_made}"[:500])
    return extracted, merged


def reflector_info(model: str | None = None, prompt_tokens: int = 0, completion_tokens: int = 0,
                   cost_usd: float = 0.0) -> ReflectorInfo:
    """Who wrote a merged statement: the LLM (its model and cost) or the deterministic join."""
    return ReflectorInfo(name=CLUSTER_REFLECTOR, version="1", model=model, prompt_tokens=prompt_tokens,
                         completion_tokens=completion_tokens, cost_usd=cost_usd)
