"""The embedding cache in one SQLite file (embedded mode).

The file sits outside ``Settings.projections_dir`` so ``hindsight replay``, which drops
the projections, keeps it. Vectors are stored as little-endian float32 (what the
models produce); ``synchronous=NORMAL``: a crash may lose the newest entries, which are
then embedded again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path

from hindsight_common.adapters.sqlite_db import SqliteDb, in_transaction, scrub
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.vector_bytes import from_bytes, to_bytes

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (model, hash)
) WITHOUT ROWID;
"""
_CHUNK = 500  # hashes per SELECT: well under SQLite's bound-parameter limit


class SqliteEmbeddingCache(EmbeddingCache):
    def __init__(self, path: Path) -> None:
        self._sqlite = SqliteDb(path, _SCHEMA, what="embedding cache", error=PersistenceError)

    async def get(self, model: str, hashes: Sequence[str]) -> dict[str, list[float]]:
        wanted = list(dict.fromkeys(hashes))

        def read(db: sqlite3.Connection) -> dict[str, list[float]]:
            out: dict[str, list[float]] = {}
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT hash, vector FROM vectors WHERE model=? AND hash IN ({marks})",
                    (model, *chunk),
                ).fetchall()
                out.update({str(h): from_bytes(v) for h, v in rows})
            return out

        return await self._sqlite.run(read) if wanted else {}

    async def put(self, model: str, vectors: Mapping[str, Sequence[float]]) -> None:
        rows = [(model, h, to_bytes(v)) for h, v in vectors.items()]
        if not rows:
            return

        def write(db: sqlite3.Connection) -> None:
            db.executemany("INSERT OR REPLACE INTO vectors (model, hash, vector) VALUES (?,?,?)", rows)

        await self._sqlite.run(lambda db: in_transaction(db, write))

    async def delete(self, model: str, hashes: Sequence[str]) -> None:
        gone = list(dict.fromkeys(hashes))
        if not gone:
            return

        def remove(db: sqlite3.Connection) -> None:
            def tx(d: sqlite3.Connection) -> None:
                for start in range(0, len(gone), _CHUNK):
                    chunk = gone[start : start + _CHUNK]
                    d.execute(f"DELETE FROM vectors WHERE model=? AND hash IN ({','.join('?' * len(chunk))})",
                              (model, *chunk))

            in_transaction(db, tx)
            scrub(db)  # no free page or WAL frame keeps the entries

        await self._sqlite.run(remove)

    async def count(self, model: str) -> int:
        row = await self._sqlite.run(
            lambda db: db.execute("SELECT COUNT(*) FROM vectors WHERE model=?", (model,)).fetchone()
        )
        return int(row[0])

    async def close(self) -> None:
        self._sqlite.close()
