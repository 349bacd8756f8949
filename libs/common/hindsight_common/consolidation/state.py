"""The deterministic fold consolidate runs over the memories stream.

``ConsolidationState.decide`` takes a ``MemoryExtracted`` and the memories known so
far and returns the decisions it implies, already applied to the state:

1. an **exact repeat** (same subject, key and value, or the same statement) of a live
   memory is merged into it (``MemoriesMerged``, reason "exact repeat"): the kept
   memory is reinforced;
2. a **near-duplicate** (same subject, embedding similarity at or above the threshold,
   and the same key or the same entities, without naming different things on one key)
   is merged into the most similar live memory;
3. a **new value for the same subject and key** supersedes the older one by event time
   (``MemorySuperseded``; a late-arriving older value is superseded at once by the live
   one); two values with the same time cannot be ordered and are flagged
   (``MemoryConflicted``), both staying live.

``observe`` folds every other event: reinforcements, forgets, pins, restores, recall's
access counts (what the forgetting pass weighs, ``forgetting.py``), and recorded decisions
(its own, read back, or read from the log when rebuilding), idempotently. Decision
event ids, times and contents derive from the memories involved, never from a clock,
so replaying the same log gives the same decisions (only ``recorded_at``, when the log
stored one, differs); ``recorded`` holds the ids of the decisions the state has applied.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal
from uuid import UUID

from hindsight_common.consolidation.rules import combine_confidence, cosine, entity_set, norm, union
from hindsight_common.events import (
    Event,
    MemoriesMerged,
    MemoryConflicted,
    MemoryAccessed,
    MemoryExpirySet,
    MemoryExtracted,
    MemoryForgotten,
    MemoryKind,
    MemoryPinned,
    MemoryPurged,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    MemoryUnpinned,
)

Status = Literal["live", "merged", "superseded", "forgotten"]
Group = tuple[str, str, str]  # tenant, user, normalised subject
#: The vector of a memory's content, or None when it was not embedded.
Vectors = Callable[[UUID], Sequence[float] | None]

_NS = uuid.UUID("9b8e2a51-3f0c-4c2e-9d6a-0c5e7f1d2a11")
DEFAULT_SIMILARITY = 0.92
#: The ``reflector.name`` of the statements a cluster merge writes (``clusters.py``): the
#: fold adopts them (their merge is the decision that follows them on the log).
CLUSTER_REFLECTOR = "consolidate-cluster"
#: The ``reflector.name`` of a summary written before a forgetting pass (``summaries.py``).
SUMMARY_REFLECTOR = "consolidate-summary"
#: Memories consolidate itself wrote: adopted when folded, never merged or summarised again.
CONSOLIDATE_REFLECTORS = frozenset({CLUSTER_REFLECTOR, SUMMARY_REFLECTOR})


@dataclass
class Tracked:
    """What consolidation knows of one memory."""

    id: UUID
    group: Group
    key: str
    value: str
    statement: str
    entities: frozenset[str]
    at: datetime
    occurred_at: datetime
    confidence: float
    sources: tuple[UUID, ...]
    external: tuple[str, ...]
    status: Status = "live"
    reinforced: int = 0
    absorbed: tuple[UUID, ...] = ()
    merged_into: UUID | None = None
    kind: MemoryKind = "fact"
    pinned: bool = False
    accesses: int = 0
    last_used: datetime | None = None  # the last reinforcement, access or restore
    forgotten_from: Status = "live"  # what a restore gives back
    restores: int = 0
    expires_at: datetime | None = None
    forgotten_at: datetime | None = None
    purged: bool = False
    # As stated (the fields above are normalised): what a cluster merge writes from.
    content: str = ""
    subject: str = ""
    names: tuple[str, ...] = ()
    session: str = ""
    clustered: bool = False  # written by consolidate (a cluster, a summary): never merged again

    @property
    def used_at(self) -> datetime:
        """When the memory was last stated (its valid-from time), confirmed, recalled or restored."""
        return self.at if self.last_used is None else max(self.at, self.last_used)

    def used(self, at: datetime) -> None:
        self.last_used = at if self.last_used is None else max(self.last_used, at)


@dataclass
class ConsolidationState:
    similarity: float = DEFAULT_SIMILARITY
    memories: dict[UUID, Tracked] = field(default_factory=dict)
    groups: dict[Group, list[UUID]] = field(default_factory=dict)
    recorded: set[UUID] = field(default_factory=set)
    # The live members of each group, in the group's order: what every new memory is
    # compared with. Scanning ``groups`` instead made a fold quadratic in a subject's
    # history (one user's 16,000 memories, most of them merged or superseded long ago:
    # 253 a second, where this keeps thousands).
    _live: dict[Group, dict[UUID, None]] = field(default_factory=dict)
    # Fates read from the log for memories not seen yet (a rebuild reads decisions that
    # lie beyond the position it folds memories to): applied when the memory arrives.
    _fates: dict[UUID, MemoriesMerged | MemorySuperseded] = field(default_factory=dict)

    # -- what is live -------------------------------------------------------------

    def live(self) -> set[UUID]:
        return {m.id for m in self.memories.values() if m.status == "live"}

    def status_of(self) -> dict[UUID, Status]:
        return {m.id: m.status for m in self.memories.values()}

    def live_in(self, group: Group) -> Iterator[Tracked]:
        for i in list(self._live.get(group, ())):
            m = self.memories[i]
            if m.status == "live":
                yield m

    def _set_status(self, m: Tracked, status: Status) -> None:
        """Every change of a memory's status goes through here (the live index follows)."""
        was, m.status = m.status, status
        if was == "live" and status != "live":
            self._live.get(m.group, {}).pop(m.id, None)
        elif was != "live" and status == "live":
            # Back in its place among the group's live members (a restore is rare: the
            # group's order is walked once).
            self._live[m.group] = {i: None for i in self.groups.get(m.group, ())
                                   if self.memories[i].status == "live"}

    def candidates(self, e: MemoryExtracted) -> list[UUID]:
        """Live memories a near-duplicate check of ``e`` would compare it with (same
        subject, the same key or entities, not naming different things on one key); none
        when ``e`` exactly repeats a live memory (no similarity is needed then). The ids
        that need vectors."""
        new = _track(e)
        peers = [m for m in self.live_in(new.group) if _related(m, new)]
        if any(_same_statement(m, new) for m in peers):
            return []
        return [m.id for m in peers if not _distinct_values(m, new)]

    def purge_user(self, tenant: str, user: str) -> list[UUID]:
        """Drop all that is known of one user (an erasure, ``SubjectErased``); the memory
        ids dropped."""
        gone = [i for i, m in self.memories.items() if m.group[0] == tenant and m.group[1] == user]
        for i in gone:
            del self.memories[i]
        for g in [g for g in self.groups if g[0] == tenant and g[1] == user]:
            del self.groups[g]
            self._live.pop(g, None)
        self._fates = {i: f for i, f in self._fates.items() if (f.tenant, f.user) != (tenant, user)}
        return gone

    # -- deciding -----------------------------------------------------------------

    def decide(self, e: MemoryExtracted, vectors: Vectors) -> list[Event]:
        """The decisions ``e`` implies, applied to the state; [] for a memory already
        known (a redelivery) or one that simply becomes live."""
        if e.memory_id in self.memories:
            return []
        new = _track(e)
        self._add(new)
        fate = self._fates.pop(new.id, None)
        if fate is not None:  # decided before, recorded on the log: adopt it
            self.observe(fate)
            return []
        peers = [m for m in self.live_in(new.group) if m.id != new.id]
        exact = next((m for m in peers if _same_statement(m, new)), None)
        if exact is not None:
            return [self._merge(exact, new, "exact repeat of a live memory (same subject, key and value)")]
        near = self._nearest(new, peers, vectors)
        if near is not None:
            kept, sim, why = near
            return [self._merge(kept, new, f"near-duplicate: similarity {sim:.3f} >= {self.similarity:.3f}, {why}")]
        decisions: list[Event] = []
        for old in sorted((m for m in peers if m.key == new.key), key=lambda m: (m.at, str(m.id))):
            if new.status != "live":
                break
            if old.at == new.at:
                decisions.append(self._conflict(old, new))
            elif old.at < new.at:
                decisions.append(self._supersede(old, new, f"new value for {new.key}: {new.value!r} replaces {old.value!r}"))
            else:
                decisions.append(self._supersede(new, old, f"older value for {new.key} arrived late: {old.value!r} is newer"))
        return decisions

    def adopt(self, e: MemoryExtracted) -> None:
        """Track ``e`` without deciding anything about it: for a replay of a log that
        holds the decisions (they follow as events and are folded by ``observe``), so
        nothing is computed again, no vector is needed, and the result is the recorded one."""
        if e.memory_id in self.memories:
            return
        self._add(_track(e))
        fate = self._fates.pop(e.memory_id, None)
        if fate is not None:
            self.observe(fate)

    def _nearest(self, new: Tracked, peers: Sequence[Tracked], vectors: Vectors) -> tuple[Tracked, float, str] | None:
        v = vectors(new.id)
        if v is None:
            return None
        best: tuple[float, str, Tracked] | None = None
        for m in peers:
            if not _related(m, new) or _distinct_values(m, new):
                continue
            w = vectors(m.id)
            if w is None:
                continue
            sim = cosine(v, w)
            if sim >= self.similarity and (best is None or sim > best[0]):
                best = (sim, "same key" if m.key == new.key else "same entities", m)
        return None if best is None else (best[2], best[0], best[1])

    def _merge(self, kept: Tracked, new: Tracked, reason: str) -> MemoriesMerged:
        event = MemoriesMerged(
            event_id=_decision_id("merged", kept.id, new.id), tenant=new.group[0], user=new.group[1],
            occurred_at=new.occurred_at, kept_id=kept.id, merged_ids=(new.id,),
            source_event_ids=union(kept.sources, new.sources), source_external_ids=union(kept.external, new.external),
            confidence=combine_confidence(kept.confidence, new.confidence), reason=reason[:500])
        self.observe(event)
        return event

    def _supersede(self, old: Tracked, new: Tracked, reason: str) -> MemorySuperseded:
        event = MemorySuperseded(
            event_id=_decision_id("superseded", old.id, new.id), tenant=new.group[0], user=new.group[1],
            occurred_at=max(old.occurred_at, new.occurred_at), old_id=old.id, new_id=new.id, reason=reason[:500])
        self.observe(event)
        return event

    def _conflict(self, a: Tracked, b: Tracked) -> MemoryConflicted:
        ids = tuple(sorted((a.id, b.id), key=str))
        event = MemoryConflicted(
            event_id=_decision_id("conflicted", *ids), tenant=b.group[0], user=b.group[1],
            occurred_at=max(a.occurred_at, b.occurred_at), memory_ids=ids, subject=b.group[2] or "unknown",
            key=b.key, reason=f"{a.value!r} and {b.value!r} for {b.key} hold from the same time"[:500])
        self.recorded.add(event.event_id)
        return event

    # -- folding ------------------------------------------------------------------

    def observe(self, e: Event) -> None:
        """Fold an event that is not a new memory. Idempotent."""
        if isinstance(e, MemoriesMerged | MemorySuperseded | MemoryConflicted):
            self.recorded.add(e.event_id)
        if isinstance(e, MemoryReinforced):
            m = self._home(e.memory_id)  # evidence for a merged memory goes to the kept one
            if m is not None and not set(e.source_event_ids) <= set(m.sources):
                m.sources = union(m.sources, e.source_event_ids)
                m.external = union(m.external, e.source_external_ids)
                m.confidence = combine_confidence(m.confidence, e.confidence)
                m.reinforced += 1
                m.used(e.occurred_at)
        elif isinstance(e, MemoryForgotten):
            m = self.memories.get(e.memory_id)
            if m is not None and m.status != "forgotten":
                m.forgotten_from, m.forgotten_at = m.status, e.occurred_at
                self._set_status(m, "forgotten")
        elif isinstance(e, MemoryRestored):
            m = self.memories.get(e.memory_id)
            if m is not None and m.status == "forgotten" and not m.purged:
                self._set_status(m, m.forgotten_from)
                m.restores += 1
                m.used(e.occurred_at)
        elif isinstance(e, MemoryPinned | MemoryUnpinned):
            m = self.memories.get(e.memory_id)
            if m is not None and not m.purged:  # a purged memory is a bare tombstone
                m.pinned = isinstance(e, MemoryPinned)
        elif isinstance(e, MemoryAccessed):
            self._accessed(e)
        elif isinstance(e, MemoryPurged):
            m = self.memories.get(e.memory_id)
            if m is not None and m.status == "forgotten":
                m.purged = True
        elif isinstance(e, MemoryExpirySet):
            m = self.memories.get(e.memory_id)
            if m is not None and not m.purged:
                m.expires_at = e.expires_at
        elif isinstance(e, MemoriesMerged):
            kept = self.memories.get(e.kept_id)
            for mid in e.merged_ids:
                gone = self.memories.get(mid)
                if gone is None:
                    self._fates.setdefault(mid, e)
                elif gone.status == "live" and mid != e.kept_id:
                    self._set_status(gone, "merged")
                    gone.merged_into = e.kept_id
                    if kept is not None and mid not in kept.absorbed:
                        kept.absorbed += (mid,)
                        kept.reinforced += 1
                        kept.sources = union(kept.sources, gone.sources, e.source_event_ids)
                        kept.external = union(kept.external, gone.external, e.source_external_ids)
                        kept.confidence = max(kept.confidence, e.confidence)
        elif isinstance(e, MemorySuperseded):
            old = self.memories.get(e.old_id)
            if old is None:
                self._fates.setdefault(e.old_id, e)
            elif old.status == "live":
                self._set_status(old, "superseded")

    def _accessed(self, e: MemoryAccessed) -> None:
        # Documents recall returned: memories among them (turns are not tracked) count
        # as used at the end of the window. Not idempotent by itself: the consumer reads
        # each MemoryAccessed once per fold, as the access store counts it once.
        for doc_id, n in e.counts.items():
            try:
                m = self.memories.get(UUID(doc_id))
            except ValueError:
                continue
            if m is not None:
                m.accesses += n
                m.used(e.window_end)

    def _home(self, memory_id: UUID) -> Tracked | None:
        m = self.memories.get(memory_id)
        for _ in range(len(self.memories)):  # a merge chain is never longer than this
            if m is None or m.merged_into is None:
                break
            m = self.memories.get(m.merged_into)
        return m

    def _add(self, m: Tracked) -> None:
        self.memories[m.id] = m
        self.groups.setdefault(m.group, []).append(m.id)
        if m.status == "live":
            self._live.setdefault(m.group, {})[m.id] = None


def _track(e: MemoryExtracted) -> Tracked:
    return Tracked(
        id=e.memory_id, group=(e.tenant, e.user, norm(e.subject)), key=e.key.lower(), value=norm(e.value),
        statement=norm(e.content), entities=entity_set(e.entities, e.subject), at=e.valid_from or e.occurred_at,
        occurred_at=e.occurred_at, confidence=e.confidence, sources=tuple(e.source_event_ids),
        external=tuple(e.source_external_ids), kind=e.kind, content=e.content, subject=e.subject,
        names=tuple(e.entities), session=e.session, clustered=e.reflector.name in CONSOLIDATE_REFLECTORS)


def _same_statement(a: Tracked, b: Tracked) -> bool:
    return a.statement == b.statement or (a.key == b.key and bool(a.value) and a.value == b.value)


def _related(a: Tracked, b: Tracked) -> bool:
    return a.key == b.key or (bool(a.entities) and a.entities == b.entities)


def _distinct_values(a: Tracked, b: Tracked) -> bool:
    """One key, and each names something the other does not (Python vs Go): a change of
    value, however similar the sentences read."""
    return a.key == b.key and bool(a.entities) and bool(b.entities) and a.entities != b.entities


def _decision_id(kind: str, *ids: UUID) -> UUID:
    return uuid.uuid5(_NS, f"{kind}/" + "/".join(str(i) for i in ids))
