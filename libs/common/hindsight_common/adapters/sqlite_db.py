"""One SQLite connection used from worker threads, for the embedded adapters.

SQLite calls block, so they run in a worker thread (never on the event loop),
one at a time under a lock; driver errors become the adapter's own error type.
Reads that need no transaction of their own (a search) may instead go through
``read``: a read-only connection per worker thread, so several run at once (WAL
gives each a consistent snapshot, and sqlite releases the GIL while it works).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal, TypeVar

from hindsight_common.adapters.shard_guard import ShardGuard
from hindsight_common.errors import HindsightError

T = TypeVar("T")


class SqliteDb:
    def __init__(
        self,
        path: Path,
        schema: str,
        *,
        what: str,
        error: type[HindsightError],
        synchronous: Literal["FULL", "NORMAL"] = "NORMAL",
    ) -> None:
        """Open (creating it and its folder if needed) with WAL and ``schema`` applied.

        ``synchronous=FULL`` fsyncs every commit (the log); NORMAL is enough for a
        projection that can be rebuilt. Raises ``error`` when the file cannot be opened.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._readers = threading.local()
        self._reader_connections: list[sqlite3.Connection] = []
        self._guard = ShardGuard()  # reads in flight against close
        self._what = what
        self._error = error
        self._lock = threading.Lock()
        # Guards the list of read connections only: a thread's first read must not wait
        # for the writer's lock (held for a whole projection batch).
        self._readers_lock = threading.Lock()
        self._closed = False
        try:
            self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute(f"PRAGMA synchronous={synchronous}")
            self.connection.execute("PRAGMA busy_timeout=10000")
            self.connection.executescript(schema)
        except sqlite3.Error as e:
            raise error(f"cannot open the {what} at {path}: {e}") from e

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` in a worker thread, alone. Raises the adapter's error."""

        def locked() -> T:
            with self._lock:
                if self._closed:
                    raise self._error(f"the {self._what} is closed")
                return fn(self.connection)

        try:
            return await asyncio.to_thread(locked)
        except sqlite3.Error as e:
            raise self._error(f"{self._what} operation failed: {e}") from e

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` on this worker thread's read-only connection, beside other reads
        and beside the writer (each read sees the last commit before it started). For
        single statements that only read. Raises the adapter's error."""

        def reading() -> T:
            with self._guard.reading():
                if self._closed:
                    raise self._error(f"the {self._what} is closed")
                db: sqlite3.Connection | None = getattr(self._readers, "db", None)
                if db is None:
                    db = sqlite3.connect(f"file:{self._path}?mode=ro", uri=True, check_same_thread=False,
                                         isolation_level=None)
                    db.execute("PRAGMA busy_timeout=10000")
                    self._readers.db = db
                    with self._readers_lock:
                        self._reader_connections.append(db)
                return fn(db)

        try:
            return await asyncio.to_thread(reading)
        except sqlite3.Error as e:
            raise self._error(f"{self._what} operation failed: {e}") from e

    def close(self) -> None:
        """Close the connections (waiting for reads in flight). Idempotent."""
        with self._guard.swapping(), self._lock, self._readers_lock:
            if not self._closed:
                self._closed = True
                for db in self._reader_connections:
                    db.close()
                self._reader_connections.clear()
                self.connection.close()


def in_transaction(db: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn`` inside BEGIN IMMEDIATE … COMMIT; rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = fn(db)
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return result


class SqliteProjectionTables:
    """What the embedded SQLite projections share: a ``docs`` table (id, tenant),
    a ``position`` table, and the reads over them. Mixed into an adapter that sets
    ``self._sqlite``; the adapter's own schema creates both tables."""

    _sqlite: SqliteDb

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._sqlite.run(fn)

    async def position(self) -> dict[str, int]:
        return await self._run(read_position)

    async def count(self, tenant: str) -> int:
        row = await self._run(
            lambda db: db.execute("SELECT COUNT(*) FROM docs WHERE tenant=?", (tenant,)).fetchone()
        )
        return int(row[0])

    async def ids(self, tenant: str) -> list[str]:
        rows = await self._run(
            lambda db: db.execute("SELECT id FROM docs WHERE tenant=? ORDER BY id", (tenant,)).fetchall()
        )
        return [str(r[0]) for r in rows]

    async def close(self) -> None:
        self._sqlite.close()


def read_position(db: sqlite3.Connection) -> dict[str, int]:
    """The ``position`` table: the highest applied offset per key."""
    return {str(k): int(v) for k, v in db.execute("SELECT pkey, offset FROM position").fetchall()}


def record_position(db: sqlite3.Connection, position: Mapping[str, int]) -> None:
    """Keep the highest offset per key (inside the caller's transaction)."""
    db.executemany(
        "INSERT INTO position (pkey, offset) VALUES (?,?) ON CONFLICT (pkey) "
        "DO UPDATE SET offset=MAX(offset, excluded.offset)",
        list(position.items()),
    )


def scrub(db: sqlite3.Connection) -> None:
    """After deleting erased rows (outside any transaction): rewrite the file so no free
    page keeps them (VACUUM) and empty the WAL (checkpoint TRUNCATE, before and after:
    VACUUM itself writes through the WAL), so neither file holds the deleted bytes."""
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        raise sqlite3.OperationalError("the WAL could not be truncated: another connection is reading")
