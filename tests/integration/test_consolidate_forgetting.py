"""consolidate's periodic forgetting pass over a real SQLite log and access store: what it
forgets is appended before it is folded, never a pinned memory, never over the share; a
restart rebuilds the same sets from the log and decides nothing twice."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hindsight_common.consolidation.forgetting import ForgetPolicy
from hindsight_common.consolidation.importance import ImportanceParams
from hindsight_common.events import MemoryExtracted, MemoryForgotten, MemoryPinned, ReflectorInfo
from hindsight_common.factory import make_access_counts, make_log
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import Consolidate

INFO = ReflectorInfo(name="offline-rules", version="1")
T0 = datetime(2024, 1, 1, tzinfo=UTC)
NOW = T0 + timedelta(days=400)
POLICY = ForgetPolicy(threshold=0.2, min_age_days=30, max_share=0.5, importance=ImportanceParams(half_life_days=30))


def note(n: int) -> MemoryExtracted:
    return MemoryExtracted(
        tenant="t1", user="ann", occurred_at=T0 + timedelta(hours=n), memory_id=uuid.uuid4(), session="s1",
        subject="Ann", content=f"Ann mentioned errand number {n}.", kind="event", key=f"errand.n{n}",
        value=f"errand {n}", confidence=0.7, source_event_ids=(uuid.uuid4(),), reflector=INFO)


async def forgotten(log: EventLog) -> list[MemoryForgotten]:
    return [r.event for r in await log.read(MEMORIES) if isinstance(r.event, MemoryForgotten)]


async def test_the_periodic_pass_forgets_a_share_never_the_pinned_and_survives_a_restart(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        notes = [note(n) for n in range(6)]
        pin = MemoryPinned(tenant="t1", user="ann", occurred_at=T0, memory_id=notes[0].memory_id)
        await log.append(MEMORIES, [*notes, pin])
        records = await log.read(MEMORIES)
        handler = Consolidate(accesses, log, None, policy=POLICY, forget_interval_s=1e-9, clock=lambda: NOW)
        await handler.resume()
        await handler.handle(records, {records[-1].position_key: records[-1].offset})
        first = await forgotten(log)
        # Half of six is three, the oldest idle ones first; the pinned one is never a candidate.
        assert len(first) == 3 and notes[0].memory_id not in {e.memory_id for e in first}
        assert all(e.forgotten_by == "consolidate" and "importance" in e.reason for e in first)
        assert {e.memory_id for e in first} == {n.memory_id for n in notes[1:4]}

        # A restart: the fold is rebuilt from the log (the pass's events are on it).
        again = Consolidate(accesses, log, None, policy=POLICY, forget_interval_s=1e-9, clock=lambda: NOW)
        await again.resume()
        tail = [r for r in await log.read(MEMORIES) if r.offset > records[-1].offset]
        await again.handle(tail, {tail[-1].position_key: tail[-1].offset})
        assert again.state.memories[notes[1].memory_id].status == "forgotten"
        for m in notes[1:4]:
            assert again.state.memories[m.memory_id].status == "forgotten"
        # Its pass sees three live (one pinned): one more may go, and what went is not re-decided.
        second = await forgotten(log)
        assert second[:3] == first and len(second) == 4 and second[3].memory_id == notes[4].memory_id
    finally:
        await accesses.close()
        await log.close()


async def test_with_summarise_a_pass_writes_one_summary_of_what_it_forgets(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        notes = [note(n) for n in range(6)]
        await log.append(MEMORIES, notes)
        records = await log.read(MEMORIES)
        handler = Consolidate(accesses, log, None, policy=POLICY, clock=lambda: NOW, summarise=True)
        await handler.resume()
        await handler.handle(records, {records[-1].position_key: records[-1].offset})
        events = await handler.forgetting_pass(NOW)
        [summary] = [e for e in events if isinstance(e, MemoryExtracted)]
        gone = [e for e in events if isinstance(e, MemoryForgotten)]
        assert [e.memory_id for e in gone] == [n.memory_id for n in notes[:3]]  # half of six, oldest first
        assert summary.content == " ".join(n.content for n in notes[:3])  # no LLM: joined
        assert summary.reflector.name == "consolidate-summary" and summary.valid_from == NOW
        assert set(summary.source_event_ids) == {s for n in notes[:3] for s in n.source_event_ids}
        assert all(f"summarised into {summary.memory_id}" in e.reason for e in gone)
        on_log = [r.event for r in await log.read(MEMORIES) if r.offset > records[-1].offset]
        assert [e.event_id for e in on_log if e is not None] == [summary.event_id, *(e.event_id for e in gone)]
        assert summary.memory_id in handler.state.live()

        # Replayed by a restarted consolidate: the same sets; its pass at the same time forgets
        # two more (half of the four live) and summarises those, never the summary (too young,
        # and written by consolidate) nor what is already summarised.
        again = Consolidate(accesses, log, None, policy=POLICY, clock=lambda: NOW, summarise=True)
        await again.resume()
        tail = [r for r in await log.read(MEMORIES) if r.offset > records[-1].offset]
        await again.handle(tail, {tail[-1].position_key: tail[-1].offset})
        assert again.state.status_of() == handler.state.status_of()
        more = await again.forgetting_pass(NOW)
        assert summary.memory_id not in {e.memory_id for e in more if isinstance(e, MemoryForgotten)}
        [later] = [e for e in more if isinstance(e, MemoryExtracted)]
        assert [e.memory_id for e in more if isinstance(e, MemoryForgotten)] == [n.memory_id for n in notes[3:5]]
        assert set(later.source_event_ids) == {s for n in notes[3:5] for s in n.source_event_ids}
    finally:
        await accesses.close()
        await log.close()
