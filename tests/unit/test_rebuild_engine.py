"""The rebuild's consumer (``rebuild/engine.py``): one group reading each record once for
every new version, resuming from the least advanced of them, the handlers of a batch
run side by side, and a failure of one failing the batch as that handler's own error."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.adapters.sqlite_graph import SqliteGraph
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import LogRecord, Position
from hindsight_services.rebuild.engine import GROUP, NewVersions, Together, rebuild_consumers
from hindsight_services.rebuild.prefill import _message


async def test_the_handlers_of_a_batch_run_side_by_side_and_a_failure_is_the_handlers_own() -> None:
    seen: list[str] = []
    cancelled = asyncio.Event()

    async def slow(records: Sequence[LogRecord], position: Position) -> None:
        seen.append("slow")
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        seen.append("slow finished")

    async def failing(records: Sequence[LogRecord], position: Position) -> None:
        seen.append("failing")  # while slow waits: they overlap
        await asyncio.sleep(0)
        raise ProjectionError("text index down")

    with pytest.raises(ProjectionError, match="text index down"):
        await Together(slow, failing).handle([], {})
    assert seen == ["slow", "failing"] and cancelled.is_set()

    done: list[int] = []

    async def fine(records: Sequence[LogRecord], position: Position) -> None:
        done.append(len(records))

    await Together(fine, fine).handle([], {})
    assert done == [0, 0]


async def test_one_consumer_for_every_new_version_from_the_least_advanced(tmp_path: Path, embedder: Embedder) -> None:
    vectors = QdrantEdgeIndex(tmp_path / "vectors", embedder.dim, memory_bytes=2**20)
    text = SqliteFtsIndex(tmp_path / "text.sqlite3", memory_bytes=2**20)
    graph = SqliteGraph(tmp_path / "graph.sqlite3")
    log_ = SqliteLog(tmp_path / "log.sqlite3")
    try:
        await vectors.upsert([], {"interactions#0": 40, "memories#0": 7})
        await text.upsert([], {"interactions#0": 25, "memories#0": 9})
        await graph.upsert([], {"interactions#0": 30, "memories#0": 9, "control#0": 2})
        consumers = rebuild_consumers(log_, NewVersions(vectors, embedder, text, graph), None, text, 0.1, 100)
        [consumer] = consumers
        assert consumer.group == GROUP == "rebuild"
        assert consumer._resume_from is not None
        # Per key the lowest; control is missing from two of them: read from its start.
        assert await consumer._resume_from() == {"interactions#0": 25, "memories#0": 7}
        # Nothing searches a new version before the swap: its in-memory copies wait.
        assert vectors._memory is not None and text._memory is not None
        assert not vectors._memory.follow_new_users and not text._memory.follow_new_users
        [graph_only] = rebuild_consumers(log_, NewVersions(graph=graph), None, text, 0.1, 100)
        assert graph_only._resume_from is not None
        assert await graph_only._resume_from() == {"interactions#0": 30, "memories#0": 9, "control#0": 2}
    finally:
        for store in (vectors, text, graph, log_):
            await store.close()


def test_the_vector_processs_output_is_its_json_messages_and_nothing_else_breaks_it() -> None:
    assert _message(b'{"applied": 3, "embedded": null}\n') == {"applied": 3, "embedded": None}
    assert _message(b"UserWarning: something a library printed\n") is None
    assert _message(b"[1, 2]\n") is None and _message(b"\xff\xfe\n") is None
