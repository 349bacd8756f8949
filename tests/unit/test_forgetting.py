"""Importance, pinning, restoring and the forgetting pass (pure), and what the projections
do with pins and restores; hypothesis properties over random event sequences: a pass never
forgets a pinned memory nor more than the configured share of a user's memories, a replay
of the log (its pass decisions included) gives the same live set, the projections agree,
and a pass decided again on the same state gives the same events."""

from __future__ import annotations

import asyncio
import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings, strategies as st

from hindsight_common.consolidation.forgetting import ForgetPolicy, forgotten_events, plan, purges
from hindsight_common.consolidation.importance import ImportanceParams, importance
from hindsight_common.consolidation.state import ConsolidationState
from hindsight_common.events import (
    MemoryAccessed,
    MemoryExpirySet,
    MemoryExtracted,
    MemoryForgotten,
    MemoryPinned,
    MemoryPurged,
    MemoryRestored,
    MemoryUnpinned,
)
from hindsight_common.events.base import Event
from hindsight_common.events.memories import MemoryKind, ReflectorInfo
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Document
from hindsight_common.recall.rerank import importance_of
from hindsight_common.streams import MEMORIES
from tests.unit.test_forgotten_documents import Index

T0 = datetime(2024, 1, 1, tzinfo=UTC)
INFO = ReflectorInfo(name="offline-rules", version="1")
KINDS: tuple[MemoryKind, ...] = ("preference", "fact", "event", "lesson", "error")


def memory(n: int, kind: MemoryKind = "fact", day: int = 0, user: str = "u1") -> MemoryExtracted:
    # Each memory its own key: consolidation merges and supersedes nothing here, so what
    # leaves the live set is the pass's doing (test_consolidation_properties covers the rest).
    return MemoryExtracted(
        tenant="t1", user=user, occurred_at=T0 + timedelta(days=day), memory_id=uuid.UUID(int=1000 + n),
        session="s1", subject="Ann", content=f"Ann said thing number {n}.", kind=kind, key=f"note.n{n}",
        value=f"thing {n}", confidence=0.8, source_event_ids=(uuid.UUID(int=n + 1),), reflector=INFO)


def at(day: float) -> datetime:
    return T0 + timedelta(days=day)


def folded(events: Sequence[Event]) -> ConsolidationState:
    """A replay: memories adopted, every decision read from the log, nothing decided again."""
    state = ConsolidationState()
    for e in events:
        if isinstance(e, MemoryExtracted):
            state.adopt(e)
        else:
            state.observe(e)
    return state


# -- importance -------------------------------------------------------------------------

def test_a_pinned_memory_weighs_the_most_and_never_decays() -> None:
    assert importance("event", pinned=True, idle_days=10_000) == 1.0
    assert importance_of(Document(id="m", tenant="t", user="u", session="s", type="semantic", speaker="Ann",
                                  role="memory", content="x", occurred_at=T0, kind="event", pinned=True)) == 1.0


def test_an_explicit_preference_fades_far_slower_than_a_passing_remark() -> None:
    p = ImportanceParams(half_life_days=30)
    assert importance("preference", idle_days=0, params=p) == 1.0
    assert importance("preference", idle_days=300, params=p) > 0.45  # its half-life is ten times the setting
    assert importance("episodic", idle_days=300, params=p) < 0.01  # a passing turn's: 1.2 times


def test_use_lifts_importance_log_smoothed_and_recall_reads_the_stated_value() -> None:
    p = ImportanceParams(use_weight=0.5, use_saturation=20)
    none, once, many, more = (importance("event", accesses=n, params=p) for n in (0, 1, 20, 2000))
    assert none == 0.8 < once < many == more == 0.9  # saturated: at most use_weight of the way to 1
    assert once - none > (many - once) / 10  # the first access counts most (log-smoothed)
    doc = Document(id="m", tenant="t", user="u", session="s", type="semantic", speaker="Ann", role="memory",
                   content="x", occurred_at=T0, kind="fact", reinforced_count=1)
    assert importance_of(doc) == importance("fact", reinforced=1) == 0.95  # unchanged for recall


def test_recall_reads_exactly_the_importance_it_read_before_pinning_existed() -> None:
    """What rerank's factor was (a base by kind, halfway to 1 per reinforcement), for every
    unpinned document: so recall figures such as LoCoMo's R@10 cannot move."""
    old_base = {"preference": 1.0, "fact": 0.9, "lesson": 0.9, "error": 0.85, "event": 0.8,
                "episodic": 0.6, "summary": 0.5}
    for kind in (*old_base, "other"):
        for reinforced in range(6):
            doc = Document(id="m", tenant="t", user="u", session="s", type="semantic", speaker="A", role="memory",
                           content="x", occurred_at=T0, kind=kind, reinforced_count=reinforced)
            want = round(1.0 - (1.0 - old_base.get(kind, 0.6)) * 0.5 ** reinforced, 6)
            assert importance_of(doc) == want, (kind, reinforced)


# -- the pass ---------------------------------------------------------------------------

POLICY = ForgetPolicy(threshold=0.2, min_age_days=30, max_share=0.5, importance=ImportanceParams(half_life_days=30))


def test_a_pass_forgets_old_unused_low_importance_memories_and_says_why() -> None:
    state = folded([memory(1, "event"), memory(2, "preference"), memory(3, "event", day=390), memory(4, "fact")])
    planned = plan(state, at(400), POLICY)
    # 1 and 4 are idle for 400 days; 2 is a preference (slow to fade); 3 is ten days old.
    assert [p.memory_id for p in planned] == [uuid.UUID(int=1001), uuid.UUID(int=1004)]
    assert all(p.importance < 0.2 and "unused for 400 days" in p.reason for p in planned)


def test_pinned_memories_are_never_forgotten_and_use_postpones_forgetting() -> None:
    old = [memory(n, "event") for n in range(1, 5)]
    use = MemoryAccessed(tenant="t1", user="u1", occurred_at=at(399), counts={str(uuid.UUID(int=1002)): 3},
                         window_start=at(398), window_end=at(399))
    state = folded([*old, MemoryPinned(tenant="t1", user="u1", occurred_at=at(1), memory_id=uuid.UUID(int=1001)), use])
    assert {p.memory_id for p in plan(state, at(400), POLICY)} == {uuid.UUID(int=1003), uuid.UUID(int=1004)}


def test_the_guard_caps_a_pass_at_the_share_of_each_users_live_memories() -> None:
    state = folded([*(memory(n, "event") for n in range(10)), *(memory(n, "event", user="u2") for n in range(10, 13))])
    planned = plan(state, at(400), ForgetPolicy(threshold=1.0, min_age_days=0, max_share=0.25))
    assert sum(p.user == "u1" for p in planned) == 2 and sum(p.user == "u2" for p in planned) == 0


def test_a_restored_memory_comes_back_counts_as_used_and_can_be_forgotten_again() -> None:
    events: list[Event] = [memory(1, "event"), memory(2, "event")]
    state = folded(events)
    [first] = forgotten_events(state, plan(state, at(400), POLICY), at(400))
    state.observe(first)
    restored = MemoryRestored(tenant="t1", user="u1", occurred_at=at(401), memory_id=first.memory_id)
    state.observe(restored)
    assert state.memories[first.memory_id].status == "live"
    assert first.memory_id not in {p.memory_id for p in plan(state, at(402), POLICY)}  # just used
    later = forgotten_events(state, [p for p in plan(state, at(2000), POLICY) if p.memory_id == first.memory_id],
                             at(2000))
    assert [e.memory_id for e in later] == [first.memory_id] and later[0].event_id != first.event_id


def test_an_expired_memory_is_forgotten_whatever_its_importance_unless_pinned() -> None:
    fresh = [memory(1, "preference", day=399), memory(2, "preference", day=399), memory(3, "fact", day=399)]
    expire = [MemoryExpirySet(tenant="t1", user="u1", occurred_at=at(399), memory_id=m.memory_id,
                              expires_at=at(399.5)) for m in fresh[:2]]
    pin = MemoryPinned(tenant="t1", user="u1", occurred_at=at(399), memory_id=fresh[1].memory_id)
    state = folded([*fresh, *expire, pin])
    planned = plan(state, at(400), ForgetPolicy(threshold=0.2, min_age_days=30, max_share=1.0))
    assert [(p.memory_id, p.importance) for p in planned] == [(fresh[0].memory_id, 0.0)]
    assert planned[0].reason == f"expired at {at(399.5).isoformat()}"
    cleared = MemoryExpirySet(tenant="t1", user="u1", occurred_at=at(399), memory_id=fresh[0].memory_id, expires_at=None)
    state.observe(cleared)
    assert plan(state, at(400), ForgetPolicy(threshold=0.2, min_age_days=30, max_share=1.0)) == []
    docs = project([*fresh, *expire])
    assert docs[str(fresh[0].memory_id)].expires_at == at(399.5) and docs[str(fresh[2].memory_id)].expires_at is None
    assert project([*fresh, *expire, cleared])[str(fresh[0].memory_id)].expires_at is None


def test_after_the_grace_period_a_forgotten_memory_is_purged_and_can_no_longer_be_restored() -> None:
    m = memory(1, "fact")
    gone = MemoryForgotten(tenant="t1", user="u1", occurred_at=at(100), memory_id=m.memory_id)
    state = folded([m, gone])
    policy = ForgetPolicy(grace_days=30)
    assert purges(state, at(129), policy) == []
    [purge] = purges(state, at(130), policy)
    assert purge.memory_id == m.memory_id and "30 days of grace" in purge.reason
    restore = MemoryRestored(tenant="t1", user="u1", occurred_at=at(131), memory_id=m.memory_id)
    for e in (purge, restore):
        state.observe(e)
    assert state.memories[m.memory_id].status == "forgotten" and purges(state, at(200), policy) == []
    docs = project([m, gone, purge, restore])
    assert docs[str(m.memory_id)].type == "forgotten" and docs[str(m.memory_id)].content == ""
    kept = project([m, gone, restore])  # restored within the grace period: back, content and all
    assert kept[str(m.memory_id)].type == "semantic" and kept[str(m.memory_id)].content == m.content


# -- projections ------------------------------------------------------------------------

def test_the_projections_pin_unpin_and_restore() -> None:
    m = memory(1, "fact")
    who = {"tenant": "t1", "user": "u1", "memory_id": m.memory_id}
    log: list[Event] = [m, MemoryPinned(occurred_at=at(1), **who), MemoryForgotten(occurred_at=at(2), **who)]
    docs = project(log)
    assert docs[str(m.memory_id)].type == "forgotten" and docs[str(m.memory_id)].pinned
    docs = project([*log, MemoryRestored(occurred_at=at(3), **who), MemoryUnpinned(occurred_at=at(4), **who)])
    assert docs[str(m.memory_id)].type == "semantic" and not docs[str(m.memory_id)].pinned
    assert docs[str(m.memory_id)].content == m.content


def project(log: Sequence[Event], batch: int = 1) -> dict[str, Document]:
    index = Index()
    records = [LogRecord(MEMORIES, 0, i + 1, "t1/u1", b"", e) for i, e in enumerate(log)]

    async def run() -> None:
        for i in range(0, len(records), batch):
            await index.apply(records[i : i + batch])

    asyncio.run(run())
    return {i: d for (_, i), d in index.docs.items()}


# -- properties -------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    op: str  # extract, pin, unpin, access, forget, restore, expire, pass
    kind: MemoryKind = "fact"
    target: int = 0
    days: int = 0


steps = st.one_of(
    st.builds(Step, op=st.just("extract"), kind=st.sampled_from(KINDS), days=st.integers(0, 400)),
    st.builds(Step, op=st.sampled_from(["pin", "unpin", "access", "forget", "restore"]), target=st.integers(0, 40)),
    st.builds(Step, op=st.just("expire"), target=st.integers(0, 40), days=st.integers(-1, 300)),
    st.builds(Step, op=st.just("pass"), days=st.integers(0, 2000)),
)
shares = st.sampled_from([0.0, 0.1, 0.34, 0.5, 1.0])


Pass = tuple[ConsolidationState, datetime, list[MemoryForgotten]]


def policy_of(share: float) -> ForgetPolicy:
    return ForgetPolicy(threshold=0.5, min_age_days=10, max_share=share, importance=ImportanceParams(half_life_days=30),
                        grace_days=100)


def run(plan_: Sequence[Step], share: float) -> tuple[list[Event], ConsolidationState, list[Pass]]:
    """The log as consolidate leaves it, its state, and for each pass the state it planned
    on, its time and what it appended."""
    policy = policy_of(share)
    state = ConsolidationState()
    log: list[Event] = []
    passes: list[Pass] = []
    ids: list[uuid.UUID] = []
    clock = T0
    for n, s in enumerate(plan_):
        clock += timedelta(days=1)
        who = {"tenant": "t1", "user": "u1", "occurred_at": clock}
        event: Event | None = None
        if s.op == "extract":
            clock += timedelta(days=s.days)
            event = memory(n, s.kind, day=(clock - T0).days)
            ids.append(event.memory_id)
        elif s.op == "pass":
            clock += timedelta(days=s.days)
            before = folded(log)
            decided = forgotten_events(state, plan(state, clock, policy), clock)
            purged = purges(state, clock, policy)
            passes.append((before, clock, decided))
            for e in (*purged, *decided):
                state.observe(e)
            log += [*purged, *decided]
            continue
        elif ids:
            mid = ids[s.target % len(ids)]
            if s.op == "access":
                event = MemoryAccessed(counts={str(mid): 1 + s.target % 3}, window_start=clock, window_end=clock, **who)
            elif s.op == "expire":  # -1 days: clear the expiry
                event = MemoryExpirySet(memory_id=mid, expires_at=None if s.days < 0 else clock + timedelta(days=s.days),
                                        **who)
            else:
                model = {"pin": MemoryPinned, "unpin": MemoryUnpinned, "forget": MemoryForgotten,
                         "restore": MemoryRestored}[s.op]
                event = model(memory_id=mid, **who)
        if event is not None:
            log.append(event)
            if isinstance(event, MemoryExtracted):
                log += state.decide(event, lambda _: None)
            else:
                state.observe(event)
    return log, state, passes


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.lists(steps, min_size=1, max_size=30), shares)
def test_a_pass_never_forgets_a_pinned_memory_nor_more_than_the_share(plan_: list[Step], share: float) -> None:
    _, _, passes = run(plan_, share)
    for before, _, decided in passes:
        live = [m for m in before.memories.values() if m.status == "live"]
        assert len(decided) <= math.floor(share * len(live))
        assert all(not before.memories[e.memory_id].pinned for e in decided)
        assert all(before.memories[e.memory_id].status == "live" for e in decided)


@PROPERTY
@given(st.lists(steps, min_size=1, max_size=30), shares)
def test_a_replay_gives_the_same_live_set_and_the_projections_agree(plan_: list[Step], share: float) -> None:
    log, first, passes = run(plan_, share)
    again = folded(log)  # a rebuild: the pass decisions are read from the log, not taken again
    assert again.status_of() == first.status_of() and again.live() == first.live()
    assert {i: m.pinned for i, m in again.memories.items()} == {i: m.pinned for i, m in first.memories.items()}
    docs = project(log, batch=3)
    for i, status in first.status_of().items():
        assert (docs[str(i)].type == "semantic") == (status == "live"), (i, status, docs[str(i)].type)
        assert docs[str(i)].pinned == first.memories[i].pinned
        assert docs[str(i)].expires_at == first.memories[i].expires_at
        assert (docs[str(i)].content == "") == first.memories[i].purged
    for before, reference, decided in passes:  # the same pass on the same state: the same events
        again_decided = forgotten_events(before, plan(before, reference, policy_of(share)), reference)
        assert [same(e) for e in again_decided] == [same(e) for e in decided]


def same(e: Event) -> dict[str, object]:
    return e.model_dump(exclude={"recorded_at"})  # when the log stored it: the one field that differs


@PROPERTY
@given(st.lists(steps, min_size=1, max_size=30))
def test_a_pass_that_was_not_capped_leaves_nothing_for_a_second_one(plan_: list[Step]) -> None:
    log, state, passes = run([*plan_, Step("pass", days=500)], share=1.0)
    _, reference, decided = passes[-1]
    assert plan(state, reference, policy_of(1.0)) == []
    assert plan(folded(log), reference, policy_of(1.0)) == []  # nor after a replay
