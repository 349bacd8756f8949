"""Cluster consolidation over random memories (hypothesis): a merge never loses provenance,
one pass never merges more than the configured share of a user's live memories, pinned
memories are never merged, every cluster's members are all similar to each other, a pass
run again over its own result merges nothing more (with no share cap), and a replay of the
events (no vectors, no model) gives the same fold."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings, strategies as st

from hindsight_common.consolidation.clusters import ClusterPolicy, cluster_events, joined_statement, plan_clusters
from hindsight_common.consolidation.clusters import reflector_info
from hindsight_common.consolidation.rules import cosine
from hindsight_common.consolidation.state import ConsolidationState
from hindsight_common.events import Event, MemoryExtracted, MemoryPinned, ReflectorInfo

T0 = datetime(2024, 5, 1, tzinfo=UTC)
INFO = ReflectorInfo(name="offline-rules", version="1")
# Topics as directions: memories of one topic are near one axis, so similar to each other.
TOPICS = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]

memory_specs = st.lists(
    st.tuples(st.sampled_from(["ann", "bob"]), st.sampled_from(["Ann", "Cat"]), st.integers(0, 2),
              st.floats(0.0, 0.3), st.booleans()),
    min_size=1, max_size=24)


def build(specs: list[tuple[str, str, int, float, bool]]) -> tuple[list[Event], dict[uuid.UUID, list[float]]]:
    events: list[Event] = []
    vectors: dict[uuid.UUID, list[float]] = {}
    for n, (user, subject, topic, noise, pinned) in enumerate(specs):
        mid = uuid.UUID(int=n + 1)
        events.append(MemoryExtracted(
            tenant="t1", user=user, occurred_at=T0 + timedelta(hours=n), memory_id=mid, session=f"s{n}",
            subject=subject, content=f"{subject} statement {n}.", kind="fact", key=f"k.{n}", value=f"v{n}",
            confidence=0.6, source_event_ids=(uuid.UUID(int=1000 + n),), source_external_ids=(f"turn-{n}",),
            reflector=INFO))
        axis = TOPICS[topic]
        vectors[mid] = [a + (noise if i == (topic + 1) % 3 else 0.0) for i, a in enumerate(axis)]
        if pinned:
            events.append(MemoryPinned(tenant="t1", user=user, occurred_at=T0, memory_id=mid))
    return events, vectors


def fold(events: list[Event]) -> ConsolidationState:
    state = ConsolidationState()
    for e in events:
        (state.adopt if isinstance(e, MemoryExtracted) else state.observe)(e)  # type: ignore[operator]
    return state


def run_pass(state: ConsolidationState, vectors: dict[uuid.UUID, list[float]], policy: ClusterPolicy) -> list[Event]:
    out: list[Event] = []
    for cluster in plan_clusters(state, vectors.get, policy):
        for e in cluster_events(cluster, joined_statement(cluster), reflector_info()):
            (state.adopt if isinstance(e, MemoryExtracted) else state.observe)(e)  # type: ignore[operator]
            out.append(e)
    return out


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(memory_specs, st.sampled_from([0.1, 0.3, 1.0]), st.sampled_from([0.9, 0.97]))
def test_cluster_passes_keep_provenance_respect_the_guard_and_replay(
    specs: list[tuple[str, str, int, float, bool]], share: float, similarity: float,
) -> None:
    events, vectors = build(specs)
    state = fold(events)
    sources = {s for m in state.memories.values() for s in m.sources}
    pinned = {m.id for m in state.memories.values() if m.pinned}
    live_before: dict[str, int] = {}
    for m in state.memories.values():
        live_before[m.group[1]] = live_before.get(m.group[1], 0) + 1
    policy = ClusterPolicy(similarity=similarity, max_share=share)

    plan = plan_clusters(state, vectors.get, policy)
    merged_per_user: dict[str, int] = {}
    for c in plan:
        merged_per_user[c.user] = merged_per_user.get(c.user, 0) + len(c.members)
        assert len({m.group for m in c.members}) == 1  # one tenant, user and subject
        for a in c.members:
            assert a.id not in pinned
            for b in c.members:
                assert cosine(vectors[a.id], vectors[b.id]) >= similarity
    for user, n in merged_per_user.items():
        assert n <= math.floor(share * live_before[user])

    decided = run_pass(state, vectors, policy)
    # Provenance is never lost: every source is still on a live memory.
    assert sources <= {s for m in state.memories.values() if m.status == "live" for s in m.sources}
    assert pinned <= state.live()
    # A replay of the log (memories, pins, then the pass's events) gives the same fold.
    assert fold([*events, *decided]).status_of() == state.status_of()
    if share == 1.0:  # no cap: the pass reached its fixpoint, a second one merges nothing
        assert run_pass(state, vectors, policy) == []
