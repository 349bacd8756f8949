"""Consolidation over random event sequences (hypothesis): provenance is never lost by
a merge, a replay of the log gives the same live set, consolidating twice decides
nothing new, and the projections agree with consolidation on what is live."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings, strategies as st

from hindsight_common.consolidation.state import ConsolidationState
from hindsight_common.documents import documents_of
from hindsight_common.events import (
    MemoriesMerged,
    MemoryExtracted,
    MemoryForgotten,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
)
from hindsight_common.events.base import Event
from hindsight_common.events.memories import ReflectorInfo
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Document
from hindsight_common.streams import MEMORIES
from tests.unit.test_forgotten_documents import Index

T0 = datetime(2024, 5, 1, tzinfo=UTC)
INFO = ReflectorInfo(name="offline-rules", version="1")
VALUES = {"python": "Python", "go": "Go", "rust": "Rust"}
KEYS = ("preference.language", "personal.location")
# One source pool, so that two memories can share evidence, as repeats do.
SOURCES = [uuid.UUID(int=i + 1) for i in range(12)]


@dataclass(frozen=True)
class Spec:
    """One generated event: a new memory (key, value, paraphrase, time, sources), a
    reinforcement or a forget of an earlier one."""

    op: str
    subject: str = "Ann"
    key: str = KEYS[0]
    value: str = "python"
    paraphrase: int = 0
    minute: int = 0
    session: str = "s1"
    sources: tuple[int, ...] = (0,)
    target: int = 0


specs = st.one_of(
    st.builds(Spec, op=st.just("extract"), subject=st.sampled_from(["Ann", "Bob"]), key=st.sampled_from(KEYS),
              value=st.sampled_from(sorted(VALUES)), paraphrase=st.integers(0, 2), minute=st.integers(0, 5),
              session=st.sampled_from(["s1", "s2"]),
              sources=st.lists(st.integers(0, len(SOURCES) - 1), min_size=1, max_size=3, unique=True).map(tuple)),
    st.builds(Spec, op=st.just("reinforce"), target=st.integers(0, 30),
              sources=st.lists(st.integers(0, len(SOURCES) - 1), min_size=1, max_size=2, unique=True).map(tuple)),
    st.builds(Spec, op=st.just("forget"), target=st.integers(0, 30)),
)


def vector(s: Spec) -> list[float]:
    """Paraphrases of one value point almost the same way (similarity ~0.99); other
    values and keys are orthogonal."""
    axis = (KEYS.index(s.key) * len(VALUES) + sorted(VALUES).index(s.value)) * 3
    v = [0.0] * (len(KEYS) * len(VALUES) * 3 + 3)
    v[axis] = 1.0
    v[axis + 1 + (s.paraphrase % 2)] = 0.1 * s.paraphrase
    return v


def events_of(plan: Sequence[Spec]) -> tuple[list[Event], dict[uuid.UUID, list[float]]]:
    events: list[Event] = []
    vectors: dict[uuid.UUID, list[float]] = {}
    memories: list[uuid.UUID] = []
    for n, s in enumerate(plan):
        at = T0 + timedelta(minutes=n)
        if s.op == "extract":
            mid = uuid.UUID(int=10_000 + n)
            memories.append(mid)
            vectors[mid] = vector(s)
            word = ["prefers", "likes", "favours"][s.paraphrase]
            events.append(MemoryExtracted(
                tenant="t1", user="u1", occurred_at=at, memory_id=mid, session=s.session, subject=s.subject,
                content=f"{s.subject} {word} {VALUES[s.value]} ({s.key}).", kind="preference", key=s.key,
                value=f"{word} {VALUES[s.value]}", confidence=0.8, entities=(s.subject, VALUES[s.value]),
                valid_from=T0 + timedelta(hours=s.minute), source_event_ids=tuple(SOURCES[i] for i in s.sources),
                reflector=INFO))
        elif memories and s.op == "reinforce":
            events.append(MemoryReinforced(
                tenant="t1", user="u1", occurred_at=at, memory_id=memories[s.target % len(memories)],
                session="s3", source_event_ids=tuple(SOURCES[i] for i in s.sources), confidence=0.7))
        elif memories:
            events.append(MemoryForgotten(tenant="t1", user="u1", occurred_at=at,
                                          memory_id=memories[s.target % len(memories)]))
    return events, vectors


def fold(state: ConsolidationState, e: Event, vectors: dict[uuid.UUID, list[float]]) -> list[Event]:
    """One record as the consolidate service takes it: a new memory is decided, anything
    else observed; the decisions it implies are returned."""
    if isinstance(e, MemoryExtracted):
        return state.decide(e, vectors.get)
    state.observe(e)
    return []


def consolidate(log: Sequence[Event], vectors: dict[uuid.UUID, list[float]]) -> tuple[ConsolidationState, list[Event]]:
    """What the consolidate service does, record by record; its decisions are returned
    (the service appends them)."""
    state = ConsolidationState(similarity=0.95)
    decided: list[Event] = []
    for e in log:
        decided += fold(state, e, vectors)
    return state, decided


def with_decisions(events: Sequence[Event], vectors: dict[uuid.UUID, list[float]]) -> list[Event]:
    """The log as the service leaves it: each memory followed by its decisions."""
    state = ConsolidationState(similarity=0.95)
    log: list[Event] = []
    for e in events:
        log += [e, *fold(state, e, vectors)]
    return log


def project(log: Sequence[Event], batch: int, times: int = 1) -> dict[str, Document]:
    """The documents a projection holds after applying the log in batches of ``batch``
    (``times`` over: a redelivery of everything)."""
    index = Index()
    records = [LogRecord(MEMORIES, 0, i + 1, "t1/u1", b"", e) for i, e in enumerate(log)]

    async def run() -> None:
        for _ in range(times):
            for i in range(0, len(records), batch):
                await index.apply(records[i : i + batch])

    asyncio.run(run())
    return {i: d for (_, i), d in index.docs.items()}


def final_home(docs: dict[str, Document], memory_id: str) -> Document:
    d = docs[memory_id]
    while d.merged_into is not None:
        d = docs[d.merged_into]
    return d


PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.lists(specs, min_size=1, max_size=25), st.integers(1, 7))
def test_merges_never_lose_provenance(plan: list[Spec], batch: int) -> None:
    events, vectors = events_of(plan)
    log = with_decisions(events, vectors)
    state, _ = consolidate(log, vectors)
    docs = project(log, batch)
    reinforcing = [e for e in events if isinstance(e, MemoryReinforced)]
    for e in events:
        if isinstance(e, MemoryExtracted):
            sources = {str(i) for i in e.source_event_ids}
            sources |= {str(i) for r in reinforcing if r.memory_id == e.memory_id for i in r.source_event_ids}
            home = final_home(docs, str(e.memory_id))
            assert sources <= set(home.event_ids), (e.memory_id, home.id)
            assert {str(i) for i in e.source_event_ids} <= {
                str(i) for i in state.memories[home_id(state, e.memory_id)].sources}
    for m in (e for e in log if isinstance(e, MemoriesMerged)):
        kept = docs[str(m.kept_id)]
        assert {str(i) for i in m.source_event_ids} <= set(kept.event_ids)
        assert {str(i) for i in m.merged_ids} <= set(kept.merged_from)


def home_id(state: ConsolidationState, memory_id: uuid.UUID) -> uuid.UUID:
    for m in state.memories.values():
        if memory_id in m.absorbed:
            return home_id(state, m.id)
    return memory_id


@PROPERTY
@given(st.lists(specs, min_size=1, max_size=25), st.integers(1, 7))
def test_a_replay_reproduces_the_live_set_and_decides_nothing_new(plan: list[Spec], batch: int) -> None:
    events, vectors = events_of(plan)
    log = with_decisions(events, vectors)
    first = ConsolidationState(similarity=0.95)
    for e in log:
        fold(first, e, vectors)
    replayed, decided = consolidate(log, vectors)
    on_log = {e.event_id for e in log}
    # Consolidating the consolidated log again: every decision is one already on it.
    assert {d.event_id for d in decided} <= on_log
    assert replayed.status_of() == first.status_of()
    # The projections, however the log is batched, agree with consolidation.
    docs = project(log, batch)
    memories = {str(e.memory_id) for e in events if isinstance(e, MemoryExtracted)}
    live = {i for i in memories if docs[i].type == "semantic"}
    assert live == {str(i) for i in replayed.live()}
    assert {i for i in memories if docs[i].type == "superseded"} == {
        str(i) for i, s in replayed.status_of().items() if s == "superseded"}
    assert project(log, batch) == project(log, max(1, len(log))) == project(log, batch, times=2)


@PROPERTY
@given(st.lists(specs, min_size=1, max_size=25))
def test_one_live_value_per_subject_and_key_unless_flagged(plan: list[Spec]) -> None:
    events, vectors = events_of(plan)
    log = with_decisions(events, vectors)
    state, _ = consolidate(log, vectors)
    flagged = {frozenset(e.memory_ids) for e in log if e.type == "MemoryConflicted"}  # type: ignore[attr-defined]
    by_slot: dict[tuple[str, str], list[uuid.UUID]] = {}
    for m in state.memories.values():
        if m.status == "live":
            by_slot.setdefault((m.group[2], m.key), []).append(m.id)
    for ids in by_slot.values():
        for a in ids:
            for b in ids:
                assert a == b or frozenset((a, b)) in flagged
    docs = project(log, 3)
    for pair in flagged:  # a reviewer finds every conflict by its tag
        assert all("conflicted" in docs[str(i)].tags for i in pair)
    for s in (e for e in log if isinstance(e, MemorySuperseded)):
        old, new = state.memories[s.old_id], state.memories[s.new_id]
        assert old.key == new.key and old.group == new.group and old.at < new.at


@PROPERTY
@given(st.lists(specs, min_size=1, max_size=25))
def test_a_replay_that_decides_nothing_gives_the_same_sets(plan: list[Spec]) -> None:
    """A rebuild with no embedder and no model: memories adopted, decisions read from the log."""
    events, vectors = events_of(plan)
    log = with_decisions(events, vectors)
    decided, _ = consolidate(log, vectors)
    replayed = ConsolidationState(similarity=0.95)
    for e in log:
        if isinstance(e, MemoryExtracted):
            replayed.adopt(e)
        else:
            replayed.observe(e)
    assert replayed.status_of() == decided.status_of()
    assert {i: set(m.sources) for i, m in replayed.memories.items()} == {
        i: set(m.sources) for i, m in decided.memories.items()}


@PROPERTY
@given(st.lists(specs, min_size=1, max_size=25), st.lists(st.tuples(st.integers(0, 40), st.integers(0, 30)),
                                                           max_size=8))
def test_the_live_index_holds_each_groups_live_members_in_order(plan: list[Spec],
                                                                restores: list[tuple[int, int]]) -> None:
    # What a new memory is compared with: the group's live members, in the group's
    # order, kept as an index (scanning every member made a fold quadratic). It must
    # equal the scan after every event, restores of forgotten memories included.
    events, vectors = events_of(plan)
    memories = [e.memory_id for e in events if isinstance(e, MemoryExtracted)]
    log: list[Event] = list(events)
    for at, target in sorted(restores, reverse=True) if memories else ():
        log.insert(min(at, len(log)), MemoryRestored(tenant="t1", user="u1", occurred_at=T0 + timedelta(days=1),
                                                     memory_id=memories[target % len(memories)]))
    state = ConsolidationState(similarity=0.95)
    for e in log:
        fold(state, e, vectors)
        for group, ids in state.groups.items():
            assert [m.id for m in state.live_in(group)] == [i for i in ids if state.memories[i].status == "live"]
