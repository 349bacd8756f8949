"""The contract suites against the embedded adapters (SQLite log, Qdrant Edge, FTS5)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from hindsight_common.ports.embedder import Embedder
from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.ports.log import EventLog
from tests.contract.log_contract import LogContract
from tests.contract.projection_contract import TextContract, VectorContract


class TestSqliteLog(LogContract):
    @pytest.fixture
    async def log(self, tmp_path: Path) -> AsyncIterator[SqliteLog]:
        log = SqliteLog(tmp_path / "log.sqlite3")
        yield log
        await log.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[EventLog]]:
        async def again() -> EventLog:
            return SqliteLog(tmp_path / "log.sqlite3")

        return again


class TestQdrantEdge(VectorContract):
    @pytest.fixture(autouse=True)
    def _embedder(self, embedder: Embedder) -> None:
        self.embedder = embedder

    @pytest.fixture
    async def index(self, tmp_path: Path) -> AsyncIterator[QdrantEdgeIndex]:
        index = QdrantEdgeIndex(tmp_path / "vectors", 384)
        yield index
        await index.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[QdrantEdgeIndex]]:
        async def again() -> QdrantEdgeIndex:
            return QdrantEdgeIndex(tmp_path / "vectors", 384)

        return again


class TestSqliteFts(TextContract):
    @pytest.fixture
    async def index(self, tmp_path: Path) -> AsyncIterator[SqliteFtsIndex]:
        index = SqliteFtsIndex(tmp_path / "text.sqlite3")
        yield index
        await index.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[SqliteFtsIndex]]:
        async def again() -> SqliteFtsIndex:
            return SqliteFtsIndex(tmp_path / "text.sqlite3")

        return again
