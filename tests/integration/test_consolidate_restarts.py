"""Replay-exact, for the service itself (hypothesis over random event sequences): the
consolidate handler over a real SQLite log, stopped at a random point — cleanly, or by a
crash between appending its decisions and recording its position — and restarted from
the log, leaves the same decisions on the log and the same live set as a run that never
stopped, with no decision appended twice."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from hindsight_common.events.base import Event
from hindsight_common.factory import make_access_counts, make_log
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import DECISIONS, Consolidate
from tests.unit.test_consolidation_properties import Spec, events_of, specs


async def deliver(handler: Consolidate, log: EventLog, after: int, upto: int, batch: int, *, record: bool = True) -> int:
    """Hand the handler the log's records after ``after`` up to ``upto`` (its own
    decisions among them, as the consumer does), in batches; returns the last offset."""
    last = after
    while last < upto:
        records = [r for r in await log.read(MEMORIES, after=last, limit=batch) if r.offset <= upto]
        if not records:
            return last
        if record:
            await handler.handle(records, {records[-1].position_key: records[-1].offset})
        else:  # a crash after the decisions were appended, before the position was recorded
            await handler._fold([r.event for r in records if r.event is not None], append=True)
        last = records[-1].offset
    return last


async def decisions(log: EventLog) -> list[Event]:
    return [r.event for r in await log.read(MEMORIES, limit=100_000) if isinstance(r.event, DECISIONS)]


async def run(events: Sequence[Event], batch: int, cut: int | None, crash: bool, root: Path) -> tuple[list[Event], set[str]]:
    config = Settings(data_dir=root)
    log, accesses = make_log(config), make_access_counts(config)
    try:
        await log.append(MEMORIES, list(events))
        head = len(events)
        handler = Consolidate(accesses, log)
        await handler.resume()
        if cut is not None:
            stopped = await deliver(handler, log, 0, cut, batch, record=not crash)
            handler = Consolidate(accesses, log)  # a new process: only the log and the position
            resumed = (await handler.resume()).get(f"{MEMORIES}#0", 0)
            assert resumed == (0 if crash else stopped)
            start = resumed
        else:
            start = 0
        # Until nothing new comes: its own decisions are delivered back to it too.
        while (end := (await log.head(MEMORIES)).get(f"{MEMORIES}#0", 0)) > start:
            start = await deliver(handler, log, start, end, batch)
        assert head <= start
        return await decisions(log), {str(i) for i in handler.state.live()}
    finally:
        await accesses.close()
        await log.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(specs, min_size=1, max_size=20), st.integers(1, 6), st.integers(0, 30), st.booleans())
def test_a_restart_anywhere_gives_the_same_log_and_live_set(plan: list[Spec], batch: int, cut: int, crash: bool) -> None:
    events, _ = events_of(plan)  # no embedder here: exact repeats, supersessions, conflicts
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        straight, live = asyncio.run(run(events, batch, None, False, Path(a)))
        restarted, live_after = asyncio.run(run(events, batch, min(cut, len(events)), crash, Path(b)))
    ids = [e.event_id for e in restarted]
    assert len(ids) == len(set(ids)), "a decision was appended twice"
    assert [e.model_dump(exclude={"recorded_at"}) for e in restarted] == [
        e.model_dump(exclude={"recorded_at"}) for e in straight]
    assert live_after == live
