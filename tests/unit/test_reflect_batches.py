"""Reflect learns the same memories, field for field, however its input is cut into
batches: a restart after a kill re-reads the stream from its last commit, so the
sessions it finds due together are not the ones an uninterrupted run found (the kill -9
test saw a memory extracted twice with different ``related_memory_ids``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path

from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.adapters.sqlite_reflect_state import SqliteReflectState
from hindsight_common.events import InteractionRecorded, MemoryExtracted, MemoryReinforced, SessionClosed
from hindsight_common.events.base import Event
from hindsight_common.ports.log import LogRecord
from hindsight_common.reflection.offline_reflector import OfflineReflector
from hindsight_common.streams import MEMORIES
from hindsight_services.reflect.handler import Reflect


def stream() -> list[LogRecord]:
    """Three sessions of Ann, each closed, each giving her locker code; the third
    repeats the second's."""
    events: list[Event] = []
    for n, code in enumerate(("4471", "5582", "5582")):
        session = f"s{n}"
        events.append(InteractionRecorded(
            event_id=uuid.UUID(int=n + 1), tenant="t1", user="ann", session=session, speaker="Ann", role="user",
            content=f"Remember that my locker code is {code}.", occurred_at=f"2024-05-0{n + 1}T10:00:00Z",
            external_id=f"{session}-1"))
        events.append(SessionClosed(tenant="t1", user="ann", session=session,
                                    occurred_at=f"2024-05-0{n + 1}T10:05:00Z"))
    return [LogRecord("hindsight.interactions.v1", 0, i, "ann", b"", e) for i, e in enumerate(events)]


async def learned(tmp: Path, cuts: Sequence[int]) -> list[str]:
    """What reflect appends for the stream handed over in batches ending at ``cuts``,
    each event without its id and time."""
    log, state = SqliteLog(tmp / "log.sqlite3"), SqliteReflectState(tmp / "reflect.sqlite3")
    try:
        reflect = Reflect(log, state, OfflineReflector())
        records, start = stream(), 0
        for end in [*cuts, len(records)]:
            batch = records[start:end]
            if batch:
                await reflect.handle(batch, {batch[-1].position_key: batch[-1].offset})
            start = end
        return [r.event.model_dump_json(exclude={"event_id", "occurred_at", "recorded_at"})
                for r in await log.read(MEMORIES) if r.event is not None]
    finally:
        await state.close()
        await log.close()


async def test_the_same_memories_whatever_the_batches(tmp_path: Path) -> None:
    whole = await learned(tmp_path / "a", [])
    for i, cuts in enumerate(([2], [4], [2, 4], [1, 3, 5])):
        assert await learned(tmp_path / f"b{i}", cuts) == whole, cuts


async def test_a_later_value_names_the_one_before_it_and_a_repeat_reinforces(tmp_path: Path) -> None:
    log, state = SqliteLog(tmp_path / "log.sqlite3"), SqliteReflectState(tmp_path / "reflect.sqlite3")
    try:
        records = stream()
        await Reflect(log, state, OfflineReflector()).handle(records, {records[-1].position_key: records[-1].offset})
        events = [r.event for r in await log.read(MEMORIES)]
    finally:
        await state.close()
        await log.close()
    first, second, again = events
    assert isinstance(first, MemoryExtracted) and isinstance(second, MemoryExtracted)
    assert (first.value, second.value) == ("4471", "5582")
    assert first.related_memory_ids == () and second.related_memory_ids == (first.memory_id,)
    assert isinstance(again, MemoryReinforced) and again.memory_id == second.memory_id
