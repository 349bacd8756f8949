"""Embedded log: every stream in one SQLite file.

WAL journal with ``synchronous=FULL``: a commit is fsynced before ``append``
returns, so an acknowledged write survives a crash. One global, increasing
offset (the rowid) orders all streams; a stream's offsets are increasing but
not dense. Consumer-group positions and idempotency keys live in the same
file, so an append and its idempotency record commit atomically.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar
from uuid import UUID

from hindsight_common.adapters.sqlite_db import SqliteDb
from hindsight_common.errors import IdempotencyConflict, InvalidInput, PersistenceError
from hindsight_common.events import Event, parse_event, serialize_event
from hindsight_common.ports.log import (
    Appended,
    EventLog,
    IdempotencyKey,
    LogRecord,
    Position,
    Subscription,
    position_key,
)
from hindsight_common.streams import partition_key

log = logging.getLogger(__name__)
T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    offset      INTEGER PRIMARY KEY AUTOINCREMENT,
    stream      TEXT NOT NULL,
    key         TEXT NOT NULL,
    event_id    TEXT UNIQUE,
    payload     BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS records_by_stream ON records (stream, offset);
CREATE TABLE IF NOT EXISTS consumer_offsets (
    grp     TEXT NOT NULL,
    pkey    TEXT NOT NULL,
    offset  INTEGER NOT NULL,
    PRIMARY KEY (grp, pkey)
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant      TEXT NOT NULL,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    result      TEXT NOT NULL,
    PRIMARY KEY (tenant, key)
);
"""


def _event_key(event: Event) -> str:
    return partition_key(event.tenant, event.user)


class SqliteLog(EventLog):
    """The log, consumer offsets and idempotency keys in one SQLite file."""

    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="log", error=PersistenceError, synchronous="FULL")
        self._db = self._sqlite.connection
        self._path = path
        self._appended = asyncio.Condition()

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        return await self._sqlite.run(fn)

    async def _notify(self) -> None:
        async with self._appended:
            self._appended.notify_all()

    async def append(
        self,
        stream: str,
        events: Sequence[Event],
        *,
        idempotency: IdempotencyKey | None = None,
    ) -> list[Appended]:
        rows = [(stream, _event_key(e), str(e.event_id), serialize_event(e)) for e in events]

        def tx(db: sqlite3.Connection) -> list[Appended]:
            db.execute("BEGIN IMMEDIATE")
            try:
                if idempotency is not None:
                    prior = db.execute(
                        "SELECT fingerprint, result FROM idempotency_keys WHERE tenant=? AND key=?",
                        (idempotency.tenant, idempotency.key),
                    ).fetchone()
                    if prior is not None:
                        db.execute("ROLLBACK")
                        if prior[0] != idempotency.fingerprint:
                            raise IdempotencyConflict(
                                "idempotency key was already used with a different request body"
                            )
                        return _decode_result(prior[1])
                out: list[Appended] = []
                for row in rows:
                    cur = db.execute(
                        "INSERT INTO records (stream, key, event_id, payload) VALUES (?,?,?,?)", row
                    )
                    assert cur.lastrowid is not None
                    out.append(Appended(events[len(out)].event_id, stream, 0, cur.lastrowid))
                if idempotency is not None:
                    db.execute(
                        "INSERT INTO idempotency_keys (tenant, key, fingerprint, result) VALUES (?,?,?,?)",
                        (idempotency.tenant, idempotency.key, idempotency.fingerprint,
                         _encode_result(out)),
                    )
                db.execute("COMMIT")
                return out
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

        result = await self._run(tx)
        await self._notify()
        return result

    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        def tx(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO records (stream, key, event_id, payload) VALUES (?,?,NULL,?)",
                (stream, key, payload),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

        offset = await self._run(tx)
        await self._notify()
        return Appended(UUID(int=0), stream, 0, offset)

    async def read(
        self, stream: str, *, after: int = 0, limit: int = 1000, partition: int = 0
    ) -> list[LogRecord]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT stream, offset, key, payload FROM records WHERE stream=? AND offset>? "
                "ORDER BY offset LIMIT ?",
                (stream, after, limit),
            ).fetchall()
        )
        return [_decode(r) for r in rows]

    async def _read_many(self, after: dict[str, int], limit: int) -> list[LogRecord]:
        # One query over all subscribed streams, in global offset order.
        clauses = " OR ".join("(stream=? AND offset>?)" for _ in after)
        params: list[object] = []
        for stream, off in after.items():
            params += [stream, off]
        rows = await self._run(
            lambda db: db.execute(
                f"SELECT stream, offset, key, payload FROM records WHERE {clauses} "
                "ORDER BY offset LIMIT ?",
                (*params, limit),
            ).fetchall()
        )
        return [_decode(r) for r in rows]

    async def head(self, stream: str) -> Position:
        row = await self._run(
            lambda db: db.execute("SELECT MAX(offset) FROM records WHERE stream=?", (stream,)).fetchone()
        )
        return {} if row is None or row[0] is None else {position_key(stream): int(row[0])}

    async def committed_offsets(self, group: str) -> dict[str, int]:
        rows = await self._run(
            lambda db: db.execute(
                "SELECT pkey, offset FROM consumer_offsets WHERE grp=?", (group,)
            ).fetchall()
        )
        return {str(k): int(v) for k, v in rows}

    async def group_position(self, group: str, streams: Sequence[str]) -> Position:
        wanted = {position_key(s) for s in streams}
        return {k: v for k, v in (await self.committed_offsets(group)).items() if k in wanted}

    async def commit_offsets(self, group: str, position: Position) -> None:
        items = list(position.items())

        def tx(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT INTO consumer_offsets (grp, pkey, offset) VALUES (?,?,?) "
                "ON CONFLICT (grp, pkey) DO UPDATE SET offset=excluded.offset",
                [(group, k, v) for k, v in items],
            )
            db.execute("COMMIT")

        await self._run(tx)

    async def wait_for_append(self, timeout_s: float) -> None:
        try:
            async with self._appended:
                await asyncio.wait_for(self._appended.wait(), timeout_s)
        except TimeoutError:
            pass

    async def subscribe(self, group: str, streams: Sequence[str]) -> Subscription:
        committed = await self.committed_offsets(group)
        return _SqliteSubscription(self, group, list(streams), committed)

    async def close(self) -> None:
        self._sqlite.close()


class _SqliteSubscription(Subscription):
    def __init__(self, log: SqliteLog, group: str, streams: list[str], committed: dict[str, int]):
        self._log = log
        self._group = group
        self._streams = streams
        self._next_after = {s: committed.get(position_key(s), 0) for s in streams}

    async def fetch(self, max_records: int, timeout_s: float) -> list[LogRecord]:
        records = await self._log._read_many(self._next_after, max_records)
        if not records and timeout_s > 0:
            await self._log.wait_for_append(timeout_s)
            records = await self._log._read_many(self._next_after, max_records)
        for r in records:
            self._next_after[r.stream] = r.offset
        return records

    async def commit(self, records: Sequence[LogRecord]) -> None:
        last: dict[str, int] = {}
        for r in records:
            last[r.position_key] = max(last.get(r.position_key, 0), r.offset)
        if last:
            await self._log.commit_offsets(self._group, last)

    async def seek(self, position: Position) -> None:
        for s in self._streams:
            self._next_after[s] = position.get(position_key(s), 0)

    async def committed(self) -> Position:
        return await self._log.committed_offsets(self._group)

    async def close(self) -> None:
        return None


def _decode(row: tuple[str, int, str, bytes]) -> LogRecord:
    stream, offset, key, payload = row
    raw = bytes(payload)
    try:
        event: Event | None = parse_event(raw)
        error = None
    except InvalidInput as e:
        event, error = None, _describe(e)
    return LogRecord(stream, 0, int(offset), key, raw, event, error)


def _describe(e: InvalidInput) -> str:
    if not e.problems:
        return e.message
    return e.message + ": " + "; ".join(f"{p.field}: {p.message}" for p in e.problems)


def _encode_result(appended: list[Appended]) -> str:
    return json.dumps(
        [[str(a.event_id), a.stream, a.partition, a.offset] for a in appended]
    )


def _decode_result(text: str) -> list[Appended]:
    return [Appended(UUID(e), s, int(p), int(o)) for e, s, p, o in json.loads(text)]
