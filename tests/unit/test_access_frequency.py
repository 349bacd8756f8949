"""Access frequency: the MemoryAccessed event, the query-side recorder, consolidate's
increments and rerank's access factor."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_access import SqliteAccessCounts
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.documents import document_from_record
from hindsight_common.errors import InvalidInput, PersistenceError
from hindsight_common.events import Event, MemoryAccessed, parse_event, serialize_event
from hindsight_common.events.memories import MAX_ACCESS_COUNTS
from hindsight_common.ports.log import Appended, IdempotencyKey, LogRecord
from hindsight_common.ports.projection import Document
from hindsight_common.recall.access import AccessRecorder, access_lookup, to_events
from hindsight_common.recall.engine import RecallItem
from hindsight_common.recall.presets import PRESETS, RerankWeights
from hindsight_common.recall.rerank import factors, rerank_score
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import access_increments
from hindsight_services.query.handler import note_accesses

T0 = datetime(2024, 5, 1, 10, tzinfo=UTC)


class FlakyLog(SqliteLog):
    """The real SQLite log, whose appends fail while ``down`` is set."""

    down = False

    async def append(
        self, stream: str, events: Sequence[Event], *, idempotency: IdempotencyKey | None = None
    ) -> list[Appended]:
        if self.down:
            raise PersistenceError("log unavailable")
        return await super().append(stream, events, idempotency=idempotency)


@pytest.fixture
async def log(tmp_path: Path) -> AsyncIterator[FlakyLog]:
    lg = FlakyLog(tmp_path / "log.sqlite3")
    yield lg
    await lg.close()


async def accessed(log: FlakyLog) -> list[MemoryAccessed]:
    events = [r.event for r in await log.read(MEMORIES)]
    assert all(isinstance(e, MemoryAccessed) for e in events)
    return [e for e in events if isinstance(e, MemoryAccessed)]


def by_user(events: Sequence[MemoryAccessed]) -> dict[tuple[str, str], dict[str, int]]:
    out: dict[tuple[str, str], dict[str, int]] = {}
    for e in events:
        out.setdefault((e.tenant, e.user), {}).update(e.counts)
    return out


# -- the event ------------------------------------------------------------------------


def test_memory_accessed_round_trips_and_validates() -> None:
    event = MemoryAccessed(tenant="t1", user="ann", occurred_at=T0, counts={"m1": 2},
                           window_start=T0 - timedelta(seconds=5), window_end=T0)
    assert parse_event(serialize_event(event)) == event
    good = event.model_dump(mode="json")
    for bad in ({"counts": {}}, {"counts": {"m1": 0}},
                {"counts": {f"m{n}": 1 for n in range(MAX_ACCESS_COUNTS + 1)}},
                {"window_start": (T0 + timedelta(seconds=1)).isoformat()},
                {"window_end": "2024-05-01T10:00:00"}):
        with pytest.raises(InvalidInput):
            parse_event({**good, **bad})


# -- the recorder ---------------------------------------------------------------------


async def test_notes_are_buffered_then_flushed_as_one_event_per_user(log: FlakyLog) -> None:
    recorder = AccessRecorder(log, flush_s=60)
    recorder.note("t1", "ann", ["m1", "m2"])
    recorder.note("t1", "ann", ["m1"])
    recorder.note("t1", "bob", ["m9"])
    recorder.note("t2", "ann", ["m1"])
    assert await log.read(MEMORIES) == []  # nothing is written on the request path
    assert await recorder.flush() == 3
    events = await accessed(log)
    assert by_user(events) == {("t1", "ann"): {"m1": 2, "m2": 1}, ("t1", "bob"): {"m9": 1},
                               ("t2", "ann"): {"m1": 1}}
    assert all(e.window_start <= e.window_end == e.occurred_at for e in events)
    assert recorder.buffered == 0 and recorder.appended == 3
    assert await recorder.flush() == 0  # nothing new: nothing appended
    assert len(await log.read(MEMORIES)) == 3


async def test_a_failed_append_keeps_the_counts_for_the_next_flush(log: FlakyLog) -> None:
    recorder = AccessRecorder(log, flush_s=60)
    recorder.note("t1", "ann", ["m1", "m2"])
    log.down = True
    with pytest.raises(PersistenceError):
        await recorder.flush()
    assert recorder.buffered == 2
    recorder.note("t1", "ann", ["m1"])  # noted while the log is down
    log.down = False
    assert await recorder.flush() == 1
    assert by_user(await accessed(log)) == {("t1", "ann"): {"m1": 2, "m2": 1}}


async def test_the_buffer_is_bounded_and_drops_the_oldest(log: FlakyLog) -> None:
    recorder = AccessRecorder(log, flush_s=60, max_ids=3)
    recorder.note("t1", "ann", ["old", "m2", "m3"])
    recorder.note("t1", "ann", ["m4", "m2"])
    assert recorder.buffered == 3 and recorder.dropped == 1
    await recorder.flush()
    assert by_user(await accessed(log)) == {("t1", "ann"): {"m2": 2, "m3": 1, "m4": 1}}


async def test_large_batches_are_split_to_the_event_bound() -> None:
    buffer = {("t1", "ann", f"m{n}"): 1 for n in range(MAX_ACCESS_COUNTS + 5)}
    events = to_events(buffer, T0, T0)
    assert [len(e.counts) for e in events if isinstance(e, MemoryAccessed)] == [MAX_ACCESS_COUNTS, 5]


async def test_the_periodic_flush_runs_and_stop_flushes_the_rest(log: FlakyLog) -> None:
    recorder = AccessRecorder(log, flush_s=0.05)
    recorder.start()
    recorder.note("t1", "ann", ["m1"])
    for _ in range(100):
        if await log.read(MEMORIES):
            break
        await asyncio.sleep(0.02)
    assert by_user(await accessed(log)) == {("t1", "ann"): {"m1": 1}}
    log.down = True  # a failing periodic flush is logged, not raised, and keeps the counts
    recorder.note("t1", "ann", ["m2"])
    await asyncio.sleep(0.2)
    assert recorder.buffered == 1
    log.down = False
    await recorder.stop()
    assert recorder.buffered == 0
    assert by_user(await accessed(log)) == {("t1", "ann"): {"m1": 1, "m2": 1}}


async def test_a_zero_interval_records_nothing(log: FlakyLog) -> None:
    recorder = AccessRecorder(log, flush_s=0)
    recorder.start()
    recorder.note("t1", "ann", ["m1"])
    await recorder.stop()
    assert recorder.buffered == 0 and await log.read(MEMORIES) == []


def _doc(doc_id: str, user: str = "ann") -> Document:
    return Document(id=doc_id, tenant="t1", user=user, session="s1", type="episodic", speaker="Ann",
                    role="user", content="x", occurred_at=T0)


async def test_query_notes_returned_items_but_not_context_neighbours(log: FlakyLog) -> None:
    recorder = AccessRecorder(log, flush_s=60)
    items = [RecallItem(_doc("hit"), 1.0), RecallItem(_doc("around"), 0.0, context_for="hit"),
             RecallItem(_doc("bobs", user="bob"), 0.5)]
    note_accesses(recorder, items)
    await recorder.flush()
    assert by_user(await accessed(log)) == {("t1", "ann"): {"hit": 1}, ("t1", "bob"): {"bobs": 1}}


# -- consolidate's side and the read back --------------------------------------------------


def test_consolidate_takes_increments_from_memory_accessed_records_only() -> None:
    event = MemoryAccessed(tenant="t1", user="ann", occurred_at=T0, counts={"m1": 3},
                           window_start=T0, window_end=T0)
    other = parse_event({"type": "MemoryForgotten", "schema_version": 1, "tenant": "t1", "user": "ann",
                         "occurred_at": T0.isoformat(), "memory_id": "3f1e6f7a-0d1c-4a4b-9e8e-1f2a3b4c5d6e"})
    records = [LogRecord(MEMORIES, 2, 7, "t1/ann", b"", event), LogRecord(MEMORIES, 2, 8, "t1/ann", b"", other)]
    [increment] = access_increments(records)
    assert document_from_record(records[0]) is None  # projections only move their position past it
    assert (increment.tenant, dict(increment.counts)) == ("t1", {"m1": 3})
    assert (increment.position_key, increment.offset) == (f"{MEMORIES}#2", 7)


async def test_the_lookup_reads_counts_and_degrades_to_none_when_the_store_fails(tmp_path: Path) -> None:
    store = SqliteAccessCounts(tmp_path / "access.sqlite3")
    lookup = access_lookup(store)
    await store.add(access_increments([LogRecord(MEMORIES, 0, 1, "k", b"", MemoryAccessed(
        tenant="t1", user="ann", occurred_at=T0, counts={"m1": 4}, window_start=T0, window_end=T0))]),
        {f"{MEMORIES}#0": 1})
    assert await lookup("t1", ["m1", "m2"]) == {"m1": 4}
    await store.close()
    assert await lookup("t1", ["m1"]) == {}  # recall goes on without the access factor


# -- rerank ---------------------------------------------------------------------------


def test_the_access_factor_grows_with_use_with_diminishing_returns() -> None:
    doc = _doc("m1")
    values = [factors(doc, T0, 365.0, n).access for n in (0, 1, 5, 50)]
    assert values == sorted(values) and len(set(values)) == 4
    assert 0 < values[0] and values[-1] < 1
    assert values[1] - values[0] > values[3] - values[2]
    weights = RerankWeights(access=0.05)
    scores = [rerank_score(1.0, factors(doc, T0, 365.0, n), weights) for n in (0, 3)]
    assert scores[0] < scores[1] <= 1.0
    # No weight: use changes nothing (the fast preset).
    assert rerank_score(1.0, factors(doc, T0, 365.0, 0), RerankWeights()) == rerank_score(
        1.0, factors(doc, T0, 365.0, 9), RerankWeights())


def test_balanced_weighs_access_mildly() -> None:
    assert PRESETS["balanced"].rerank.access == 0.05
    assert PRESETS["fast"].rerank.access == 0
