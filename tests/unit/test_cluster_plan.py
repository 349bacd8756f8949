"""Cluster consolidation's pure plan (``consolidation/clusters.py``): which memories a pass
groups, the guard on how many, the events with every member's provenance, and that a
replay of those events (no vectors, no model) gives the same fold and plans nothing more."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from hindsight_common.consolidation.clusters import (
    ClusterPolicy, cluster_events, joined_statement, plan_clusters, reflector_info,
)
from hindsight_common.consolidation.state import ConsolidationState
from hindsight_common.events import Event, MemoryExtracted, MemoryPinned, ReflectorInfo

INFO = ReflectorInfo(name="offline-rules", version="1")
T0 = datetime(2024, 3, 1, tzinfo=UTC)
POLICY = ClusterPolicy(similarity=0.85, max_share=1.0)


def memory(n: int, content: str, key: str, *, user: str = "ann", subject: str = "Ann",
           entities: tuple[str, ...] = ()) -> MemoryExtracted:
    return MemoryExtracted(
        tenant="t1", user=user, occurred_at=T0 + timedelta(days=n), memory_id=uuid.UUID(int=n + 1),
        session=f"s{n}", subject=subject, content=content, kind="preference" if key.startswith("preference") else "fact",
        key=key, value=content, confidence=0.7, entities=entities, tags=(f"tag{n}",),
        source_event_ids=(uuid.UUID(int=1000 + n),), source_external_ids=(f"turn-{n}",), reflector=INFO)


# Three about hiking (close to each other), one about a cat (far from them).
HIKING = [1.0, 0.1, 0.0]
VECTORS = {1: HIKING, 2: [0.98, 0.15, 0.02], 3: [0.97, 0.05, 0.1], 4: [0.0, 0.1, 1.0]}
MEMORIES = [
    memory(0, "Ann likes hiking", "preference.hobby"),
    memory(1, "Ann hikes in the Alps every summer.", "habit.summer"),
    memory(2, "Ann owns good hiking boots.", "personal.boots"),
    memory(3, "Ann's cat is called Miso.", "personal.cat", entities=("Miso",)),
]


def folded(events: list[MemoryExtracted]) -> ConsolidationState:
    state = ConsolidationState()
    for e in events:
        assert state.decide(e, lambda i: None) == []  # distinct keys, no vectors: all live
    return state


def vectors(i: uuid.UUID) -> list[float] | None:
    return VECTORS.get(i.int)


def test_similar_memories_of_one_subject_form_one_cluster() -> None:
    [cluster] = plan_clusters(folded(MEMORIES), vectors, POLICY)
    assert [m.id.int for m in cluster.members] == [1, 2, 3]  # oldest first; the cat stays out
    assert 0.85 <= cluster.similarity < 1.0
    assert joined_statement(cluster) == ("Ann likes hiking. Ann hikes in the Alps every summer. "
                                         "Ann owns good hiking boots.")


def test_the_events_keep_every_members_provenance_and_derive_from_them() -> None:
    [cluster] = plan_clusters(folded(MEMORIES), vectors, POLICY)
    extracted, merged = cluster_events(cluster, joined_statement(cluster), reflector_info())
    members = MEMORIES[:3]
    assert extracted.memory_id == merged.kept_id == cluster.memory_id
    assert set(merged.merged_ids) == {m.memory_id for m in members}
    for e in (extracted, merged):
        assert set(e.source_event_ids) == {s for m in members for s in m.source_event_ids}
        assert set(e.source_external_ids) == {"turn-0", "turn-1", "turn-2"}
    assert extracted.kind == "preference" and extracted.key == "mixed.cluster"
    assert extracted.valid_from == T0 + timedelta(days=2) and extracted.occurred_at == members[-1].occurred_at
    assert extracted.confidence > 0.7 and extracted.reflector.name == "consolidate-cluster"
    assert "joined deterministically" in merged.reason
    # Decided again (a redelivery, a second process): the same events, ids and all (only
    # recorded_at, the time of the append, differs).
    [again] = plan_clusters(folded(MEMORIES), vectors, POLICY)
    assert [e.model_dump(exclude={"recorded_at"}) for e in cluster_events(again, joined_statement(again),
                                                                          reflector_info())] == [
        e.model_dump(exclude={"recorded_at"}) for e in (extracted, merged)]


def test_a_replay_of_the_events_gives_the_same_fold_and_a_second_pass_merges_nothing() -> None:
    state = folded(MEMORIES)
    [cluster] = plan_clusters(state, vectors, POLICY)
    events: list[Event] = [*MEMORIES, *cluster_events(cluster, "Ann likes hiking in the Alps, in good boots.",
                                                      reflector_info("some-model"))]
    for e in events[len(MEMORIES):]:
        (state.adopt if isinstance(e, MemoryExtracted) else state.observe)(e)  # type: ignore[operator]
    assert state.live() == {cluster.memory_id, uuid.UUID(int=4)}
    assert {state.memories[uuid.UUID(int=n)].status for n in (1, 2, 3)} == {"merged"}
    replayed = ConsolidationState()
    for e in events:
        (replayed.adopt if isinstance(e, MemoryExtracted) else replayed.observe)(e)  # type: ignore[operator]
    assert replayed.status_of() == state.status_of()
    assert set(replayed.memories[cluster.memory_id].sources) == {uuid.UUID(int=1000 + n) for n in range(3)}
    # The merged statement is never merged again, and nothing else is similar: a fixpoint.
    VECTORS[cluster.memory_id.int] = HIKING
    try:
        assert plan_clusters(state, vectors, POLICY) == []
    finally:
        del VECTORS[cluster.memory_id.int]


def test_pinned_memories_other_subjects_and_other_values_stay_out() -> None:
    state = folded([*MEMORIES, memory(4, "Bob likes hiking", "preference.hobby", user="ann", subject="Bob")])
    VECTORS[5] = HIKING
    try:
        state.observe(MemoryPinned(tenant="t1", user="ann", occurred_at=T0, memory_id=uuid.UUID(int=2)))
        [cluster] = plan_clusters(state, vectors, POLICY)
        assert [m.id.int for m in cluster.members] == [1, 3]  # Bob's is another subject; 2 is pinned
    finally:
        del VECTORS[5]
    # Two values of one key that name different things are supersession's, not a cluster.
    golf = [memory(0, "Ann plays golf on Sundays.", "habit.sport", entities=("golf",)),
            memory(1, "Ann plays tennis on Sundays.", "habit.sport", entities=("tennis",))]
    state = ConsolidationState()
    for e in golf:
        state.adopt(e)
    assert plan_clusters(state, lambda i: HIKING, POLICY) == []


def test_a_pass_never_merges_more_than_the_share_of_a_users_live_memories() -> None:
    state = folded(MEMORIES)
    assert plan_clusters(state, vectors, ClusterPolicy(similarity=0.85, max_share=0.5)) == []  # 3 > 2 of 4
    [small] = plan_clusters(state, vectors, ClusterPolicy(similarity=0.85, max_share=0.5, max_size=2))
    assert len(small.members) == 2
    assert plan_clusters(state, vectors, ClusterPolicy(similarity=0.85, max_share=0.0)) == []
    assert plan_clusters(state, vectors, ClusterPolicy(similarity=0.999, max_share=1.0)) == []
