"""SqliteDb.read: searches run beside each other and beside the writer, see every commit
made before they start, and close() waits for a read in flight."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_db import SqliteDb
from hindsight_common.errors import ProjectionError


def _db(tmp_path: Path) -> SqliteDb:
    return SqliteDb(tmp_path / "t.sqlite3", "CREATE TABLE IF NOT EXISTS t(x INTEGER);",
                    what="test table", error=ProjectionError)


async def test_reads_run_at_once_and_see_what_was_committed(tmp_path: Path) -> None:
    db = _db(tmp_path)
    await db.run(lambda c: c.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(100)]))
    inside = threading.Barrier(3, timeout=5)  # three reads must be inside at the same moment

    def count(c: object) -> int:
        inside.wait()
        return int(c.execute("SELECT COUNT(*) FROM t").fetchone()[0])  # type: ignore[attr-defined]

    assert await asyncio.gather(*(db.read(count) for _ in range(3))) == [100, 100, 100]
    await db.run(lambda c: c.execute("INSERT INTO t VALUES (100)"))
    assert await db.read(lambda c: c.execute("SELECT COUNT(*) FROM t").fetchone()[0]) == 101
    with pytest.raises(ProjectionError, match="readonly|read-only"):
        await db.read(lambda c: c.execute("INSERT INTO t VALUES (1)"))
    db.close()
    with pytest.raises(ProjectionError, match="closed"):
        await db.read(lambda c: c.execute("SELECT 1").fetchone())


async def test_close_waits_for_a_read_in_flight(tmp_path: Path) -> None:
    db = _db(tmp_path)
    started, release = threading.Event(), threading.Event()

    def slow(c: object) -> int:
        started.set()
        release.wait(5)
        return int(c.execute("SELECT COUNT(*) FROM t").fetchone()[0])  # type: ignore[attr-defined]

    read = asyncio.ensure_future(db.read(slow))
    assert await asyncio.to_thread(started.wait, 5)
    closing = asyncio.ensure_future(asyncio.to_thread(db.close))
    await asyncio.sleep(0.2)
    assert not closing.done()  # close waits for the read, which still gets its answer
    release.set()
    assert await read == 0
    await closing
