"""Consolidate and erasure: on ``SubjectErased`` (the control stream, which its consumer now
reads) it drops the erased user's memories from its fold and the access counts of their
documents (memories and turns) from the store, at once, not at the next restart; another
user's are untouched, and the user's memories written after the erasure are folded."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

from hindsight_common.erasure import erasing
from hindsight_common.events import Event, MemoryAccessed, MemoryExtracted, ReflectorInfo
from hindsight_common.events.erasure import SubjectErased
from hindsight_common.factory import make_access_counts, make_log
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, MEMORIES
from hindsight_services.consolidate import wiring
from hindsight_services.consolidate.handler import Consolidate

AT = datetime(2024, 6, 1, tzinfo=UTC)
INFO = ReflectorInfo(name="offline-rules", version="1")


def fact(user: str, text: str, key: str) -> MemoryExtracted:
    return MemoryExtracted(
        tenant="t1", user=user, occurred_at=AT, memory_id=uuid.uuid4(), session="s1", subject=user.title(),
        content=text, kind="fact", key=key, value=text, confidence=0.8, source_event_ids=(uuid.uuid4(),),
        reflector=INFO)


def accessed(user: str, *ids: str) -> MemoryAccessed:
    return MemoryAccessed(tenant="t1", user=user, occurred_at=AT, counts=dict.fromkeys(ids, 2),
                          window_start=AT, window_end=AT)


async def delivered(log: EventLog, after: int = 0) -> list[LogRecord]:
    """Both streams' records in log order, as the consumer would get them."""
    records = [*await log.read(MEMORIES, after=after, limit=1000), *await log.read(CONTROL, after=after, limit=1000)]
    return sorted(records, key=lambda r: r.offset)


async def test_an_erased_user_leaves_the_fold_and_the_access_counts(tmp_path: Path) -> None:
    assert CONTROL in wiring.STREAMS
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        handler = Consolidate(accesses, log)
        handle = erasing(handler.handle, handler.purge, what=wiring.GROUP)  # as the wiring runs it
        await handler.resume()
        ann, bob = fact("ann", "Ann lives in Lisbon.", "personal.location"), fact("bob", "Bob is a pilot.", "personal.job")
        first: list[Event] = [ann, bob, accessed("ann", str(ann.memory_id), "ann-turn-1"),
                              accessed("bob", str(bob.memory_id), "bob-turn-1")]
        await log.append(MEMORIES, first)
        records = await delivered(log)
        await handle(records, {r.position_key: r.offset for r in records})
        ids = [str(ann.memory_id), "ann-turn-1", str(bob.memory_id), "bob-turn-1"]
        assert await accesses.get("t1", ids) == dict.fromkeys(ids, 2)

        await log.append(CONTROL, [SubjectErased(tenant="t1", user="ann", occurred_at=AT, keys_destroyed=1)])
        again = fact("ann", "Ann lives in Porto.", "personal.location")  # written anew after the erasure
        await log.append(MEMORIES, [again])
        more = await delivered(log, after=records[-1].offset)
        await handle(more, {r.position_key: r.offset for r in more})
        assert handler.state.live() == {bob.memory_id, again.memory_id}
        assert ann.memory_id not in handler.state.memories
        assert await accesses.get("t1", ids) == {str(bob.memory_id): 2, "bob-turn-1": 2}
        await handle(more, {r.position_key: r.offset for r in more})  # redelivered: the same outcome
        assert handler.state.live() == {bob.memory_id, again.memory_id}
        assert await accesses.get("t1", ids) == {str(bob.memory_id): 2, "bob-turn-1": 2}
    finally:
        await accesses.close()
        await log.close()


async def test_with_consolidation_off_it_counts_accesses_and_still_purges_them(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", consolidation=False)
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        handler = wiring.handler(log, settings, accesses)
        handle = erasing(handler.handle, handler.purge, what=wiring.GROUP)
        await handler.resume()
        ann, repeat = fact("ann", "Ann lives in Lisbon.", "personal.location"), fact("ann", "Ann lives in Lisbon.",
                                                                                    "personal.location")
        await log.append(MEMORIES, [ann, repeat, accessed("ann", str(ann.memory_id)), accessed("bob", "bob-turn")])
        records = await delivered(log)
        await handle(records, {r.position_key: r.offset for r in records})
        assert handler.state.memories == {} and handler.decided == 0  # no fold: the repeat is not merged
        assert await accesses.get("t1", [str(ann.memory_id), "bob-turn"]) == {str(ann.memory_id): 2, "bob-turn": 2}
        await log.append(CONTROL, [SubjectErased(tenant="t1", user="ann", occurred_at=AT, keys_destroyed=1)])
        more = await delivered(log, after=records[-1].offset)
        await handle(more, {r.position_key: r.offset for r in more})
        assert await accesses.get("t1", [str(ann.memory_id), "bob-turn"]) == {"bob-turn": 2}
    finally:
        await accesses.close()
        await log.close()


async def test_an_access_store_rebuilt_after_an_erasure_counts_nothing_of_the_user(tmp_path: Path) -> None:
    """The access counts are sealed with the user's key: a new access store built from the
    log after a real erasure (keys destroyed) skips the user's accesses, even when the
    control stream's SubjectErased is read before them (nothing to purge yet then)."""
    settings = Settings(data_dir=tmp_path / "data")
    log = make_log(settings)
    try:
        ann, bob = fact("ann", "Ann lives in Lisbon.", "personal.location"), fact("bob", "Bob is a pilot.", "personal.job")
        await log.append(MEMORIES, [ann, bob, accessed("ann", str(ann.memory_id), "ann-turn-1"),
                                    accessed("bob", str(bob.memory_id), "bob-turn-1")])
        [raw] = [r for r in await log.inner.read(MEMORIES, limit=10) if r.offset == 3]  # type: ignore[attr-defined]
        assert raw.event is not None and raw.event.type == "SealedEvent"  # sealed on the log
        assert await log.keys.destroy("t1", "ann") == 1  # type: ignore[attr-defined]
        await log.append(CONTROL, [SubjectErased(tenant="t1", user="ann", occurred_at=AT, keys_destroyed=1)])

        rebuilt = make_access_counts(settings.model_copy(update={"data_dir": tmp_path / "fresh"}))
        try:
            handler = Consolidate(rebuilt, log)
            handle = erasing(handler.handle, handler.purge, what=wiring.GROUP)
            await handler.resume()
            control_first = [*await log.read(CONTROL, limit=100), *await log.read(MEMORIES, limit=100)]
            await handle(control_first, {r.position_key: r.offset for r in control_first})
            ids = [str(ann.memory_id), "ann-turn-1", str(bob.memory_id), "bob-turn-1"]
            assert await rebuilt.get("t1", ids) == {str(bob.memory_id): 2, "bob-turn-1": 2}
        finally:
            await rebuilt.close()
    finally:
        await log.close()
