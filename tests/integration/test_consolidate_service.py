"""The consolidate service's handler over a real SQLite log and access store, with the
real embedder: a failed append is decided again on the retry (never lost), a restart
after a crash between the append and the position adopts what is on the log (never
decided twice), and near-duplicates are found with the vectors embed left in the
embedding cache (the model never runs for consolidate)."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.documents import documents_of, memory_text
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.errors import PersistenceError
from hindsight_common.events import MemoriesMerged, MemoryExtracted, MemorySuperseded, ReflectorInfo
from hindsight_common.factory import make_access_counts, make_embedding_cache, make_log
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Document
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.bench_consolidate import TimedEmbedder
from hindsight_services.consolidate.handler import Consolidate

INFO = ReflectorInfo(name="offline-rules", version="1")


def preference(language: str, day: int) -> MemoryExtracted:
    return MemoryExtracted(
        tenant="t1", user="ann", occurred_at=datetime(2024, 5, day, tzinfo=UTC), memory_id=uuid.uuid4(),
        session=f"s{day}", subject="Ann", content=f"Ann prefers {language} for scripting.", kind="preference",
        key="preference.programming_language", value=f"prefers {language} for scripting", confidence=0.9,
        entities=("Ann", language), source_event_ids=(uuid.uuid4(),), reflector=INFO)


async def appended(log: EventLog, *events: MemoryExtracted) -> list[LogRecord]:
    """The events on the log, as the consumer would deliver them."""
    await log.append(MEMORIES, list(events))
    return [r for r in await log.read(MEMORIES) if r.event in events]


async def supersessions(log: EventLog) -> list[tuple[uuid.UUID, uuid.UUID]]:
    return [(r.event.old_id, r.event.new_id) for r in await log.read(MEMORIES)
            if isinstance(r.event, MemorySuperseded)]


def position(records: list[LogRecord]) -> dict[str, int]:
    return {records[-1].position_key: records[-1].offset}


async def change_of_mind(log: EventLog, handler: Consolidate) -> tuple[MemoryExtracted, MemoryExtracted, list[LogRecord]]:
    """A started handler, and two values of one key on the log for it."""
    await handler.resume()
    python, go = preference("Python", 1), preference("Go", 20)
    return python, go, await appended(log, python, go)


async def test_a_failed_append_is_decided_again_on_the_retry(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        handler = Consolidate(accesses, log, embedder)
        python, go, records = await change_of_mind(log, handler)
        lock = sqlite3.connect(settings.log_path, timeout=0)
        lock.execute("BEGIN EXCLUSIVE")  # the log is unavailable: every append times out
        try:
            with pytest.raises(PersistenceError):
                await handler.handle(records, position(records))
        finally:
            lock.rollback()
            lock.close()
        assert await supersessions(log) == []  # nothing was recorded, and nothing was lost:
        await handler.handle(records, position(records))  # the consumer's retry
        assert await supersessions(log) == [(python.memory_id, go.memory_id)]
        assert await accesses.position() == position(records)
    finally:
        await accesses.close()
        await log.close()


async def test_a_restart_after_a_crash_adopts_what_the_log_holds(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        first = Consolidate(accesses, log, embedder)
        python, go, records = await change_of_mind(log, first)
        await first.handle(records, position(records))
        decided = await supersessions(log)
        assert decided == [(python.memory_id, go.memory_id)]
    finally:
        await accesses.close()
    # The crash came after the append and before the position: a store that never saw
    # the batch. The restarted service gets the batch again and decides nothing new.
    again = Settings(data_dir=tmp_path / "again")
    accesses = make_access_counts(again)
    try:
        restarted = Consolidate(accesses, log, embedder)
        assert await restarted.resume() == {}
        await restarted.handle(records, position(records))
        assert await supersessions(log) == decided and restarted.decided == 0
        assert restarted.state.live() == first.state.live() == {go.memory_id}
        # and what comes next is decided against the rebuilt fold
        rust = preference("Rust", 25)
        more = await appended(log, rust)
        await restarted.handle(more, position(more))
        assert await supersessions(log) == [*decided, (go.memory_id, rust.memory_id)]
    finally:
        await accesses.close()
        await log.close()


async def nothing_known(tenant: str, ids: Sequence[str]) -> list[Document]:
    return []


async def test_near_duplicates_are_found_with_the_vectors_embed_cached(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses, cache = make_log(settings), make_access_counts(settings), make_embedding_cache(settings)
    assert cache is not None
    try:
        python = preference("Python", 1)
        again = python.model_copy(update={"event_id": uuid.uuid4(), "memory_id": uuid.uuid4(), "content": "For scripting, Ann prefers Python.",
                                          "value": "for scripting, prefers Python"})
        records = await appended(log, python, again)
        # embed ran first: it embedded each memory's document into the cache, by the text
        # consolidate looks up
        docs = [d for _, d in await documents_of(records, nothing_known)]
        assert [d.search_text for d in docs] == [memory_text(python), memory_text(again)]
        await CachedEmbedder(embedder, cache).embed([d.search_text for d in docs])
        model = TimedEmbedder(embedder)  # counts the texts the model embeds
        handler = Consolidate(accesses, log, model, cache=cache)
        await handler.resume()
        await handler.handle(records, position(records))
        merged = [r.event for r in await log.read(MEMORIES) if isinstance(r.event, MemoriesMerged)]
        assert [(m.kept_id, m.merged_ids) for m in merged] == [(python.memory_id, (again.memory_id,))]
        assert "near-duplicate" in merged[0].reason
        assert model.texts == 0  # the model never ran for consolidate: both vectors came from the cache
    finally:
        await cache.close()
        await accesses.close()
        await log.close()
