"""PostgreSQL service state against the real server: migrations, idempotency keys, and
the ReflectState and AccessCounts contracts (run here against both the SQLite and
PostgreSQL adapters)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from hindsight_common.adapters.postgres import MIGRATIONS, PostgresState
from hindsight_common.adapters.postgres_access import PostgresAccessCounts
from hindsight_common.adapters.postgres_reflect_state import PostgresReflectState
from hindsight_common.adapters.sqlite_access import SqliteAccessCounts
from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.adapters.sqlite_reflect_state import SqliteReflectState
from hindsight_common.errors import IdempotencyConflict, PersistenceError
from hindsight_common.ports.access import AccessCounts, AccessIncrement
from hindsight_common.ports.log import IdempotencyKey
from hindsight_common.ports.reflect_state import ReflectState
from hindsight_common.security.data_keys import DataKeys
from hindsight_common.security.sealed_reflect_state import SealedReflectState
from tests.contract.access_contract import AccessContract
from tests.contract.reflect_state_contract import ReflectStateContract
from tests.servers import server_url

ALL_VERSIONS = [v for v, _, _ in MIGRATIONS]


@pytest.fixture
def dsn() -> str:
    return server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL")


@pytest.fixture
async def schema(dsn: str) -> AsyncIterator[str]:
    """A fresh PostgreSQL schema per test, dropped afterwards."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    yield name
    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()


@pytest.fixture
async def state(dsn: str, schema: str) -> AsyncIterator[PostgresState]:
    st = PostgresState(dsn, schema=schema, timeout_s=5.0)
    yield st
    await st.close()


async def test_migrations_are_applied_once_even_by_concurrent_starts(dsn: str, schema: str) -> None:
    starts = [PostgresState(dsn, schema=schema) for _ in range(4)]
    try:
        await asyncio.gather(*(s.open() for s in starts))
        assert await starts[0].applied_migrations() == ALL_VERSIONS
        assert await starts[1].migrate() == []  # a later start finds nothing to do
        async with starts[2].connection() as conn:
            tables = {r[0] for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = $1", schema
            )}
            rows = await conn.fetchval("SELECT count(*) FROM schema_migrations")
        assert rows == len(MIGRATIONS)
        assert {"tenants", "api_keys", "idempotency_keys", "key_vault", "reflect_turns",
                "reflect_summaries", "reflect_memories", "access_counts", "access_positions",
                "schema_migrations"} <= tables
    finally:
        for s in starts:
            await s.close()
    again = PostgresState(dsn, schema=schema)
    await again.open()  # reopening a migrated schema is a no-op
    assert await again.applied_migrations() == ALL_VERSIONS
    await again.close()


async def test_claim_store_and_replay(state: PostgresState) -> None:
    key = IdempotencyKey("t1", "batch-1", "fp-a")
    assert await state.claim(key) is None
    await state.store(key, '{"events": [1, 2]}')
    assert await state.claim(key) == '{"events": [1, 2]}'
    await state.store(key, '{"events": [3]}')  # the first answer wins
    assert await state.claim(key) == '{"events": [1, 2]}'


async def test_same_key_other_body_conflicts_but_other_tenants_are_independent(state: PostgresState) -> None:
    await state.claim(IdempotencyKey("t1", "k", "fp-a"))
    await state.store(IdempotencyKey("t1", "k", "fp-a"), "[]")
    with pytest.raises(IdempotencyConflict):
        await state.claim(IdempotencyKey("t1", "k", "fp-b"))
    assert await state.claim(IdempotencyKey("t2", "k", "fp-b")) is None


async def test_a_concurrent_claim_waits_for_the_first_result(state: PostgresState, dsn: str, schema: str) -> None:
    key = IdempotencyKey("t1", "k", "fp")
    other = PostgresState(dsn, schema=schema, timeout_s=5.0)
    try:
        assert await state.claim(key) is None
        waiting = asyncio.create_task(other.claim(key))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        await state.store(key, '"first"')
        assert await asyncio.wait_for(waiting, 5) == '"first"'
    finally:
        await other.close()


async def test_a_claim_in_progress_fails_after_the_timeout_and_release_frees_the_key(
    dsn: str, schema: str
) -> None:
    key = IdempotencyKey("t1", "k", "fp")
    holder = PostgresState(dsn, schema=schema)
    impatient = PostgresState(dsn, schema=schema, timeout_s=0.5)
    try:
        assert await holder.claim(key) is None
        with pytest.raises(PersistenceError, match="still in progress"):
            await impatient.claim(key)
        await holder.release(key)  # the holder's work failed
        assert await impatient.claim(key) is None
    finally:
        await holder.close()
        await impatient.close()


async def test_a_stale_claim_is_taken_over(dsn: str, schema: str) -> None:
    key = IdempotencyKey("t1", "k", "fp")
    dead = PostgresState(dsn, schema=schema)
    successor = PostgresState(dsn, schema=schema, claim_lease_s=0.2)
    try:
        assert await dead.claim(key) is None  # ... and its process dies
        await asyncio.sleep(0.4)
        assert await successor.claim(key) is None
        await successor.store(key, "[1]")
        assert await dead.claim(key) == "[1]"
    finally:
        await dead.close()
        await successor.close()


async def test_unreachable_server_is_a_persistence_error() -> None:
    state = PostgresState("postgresql://nobody:secret@127.0.0.1:1/none", timeout_s=2.0)
    with pytest.raises(PersistenceError, match="cannot connect"):
        await state.claim(IdempotencyKey("t", "k", "f"))
    await state.close()


async def test_closed_state_refuses_work(state: PostgresState) -> None:
    await state.open()
    await state.close()
    with pytest.raises(PersistenceError, match="closed"):
        await state.claim(IdempotencyKey("t", "k", "f"))


class TestSqliteReflectState(ReflectStateContract):
    @pytest.fixture
    async def state(self, tmp_path: Path) -> AsyncIterator[SqliteReflectState]:
        st = SqliteReflectState(tmp_path / "reflect.sqlite3")
        yield st
        await st.close()

    @pytest.fixture
    async def reopen(self, tmp_path: Path) -> AsyncIterator[Callable[[], Awaitable[ReflectState]]]:
        opened: list[SqliteReflectState] = []

        async def again() -> ReflectState:
            opened.append(SqliteReflectState(tmp_path / "reflect.sqlite3"))
            return opened[-1]

        yield again
        for st in opened:
            await st.close()


class TestPostgresReflectState(ReflectStateContract):
    @pytest.fixture
    async def state(self, dsn: str, schema: str) -> AsyncIterator[PostgresReflectState]:
        st = PostgresReflectState(PostgresState(dsn, schema=schema))
        yield st
        await st.close()

    @pytest.fixture
    async def reopen(self, dsn: str, schema: str) -> AsyncIterator[Callable[[], Awaitable[ReflectState]]]:
        opened: list[PostgresReflectState] = []

        async def again() -> ReflectState:
            opened.append(PostgresReflectState(PostgresState(dsn, schema=schema)))
            return opened[-1]

        yield again
        for st in opened:
            await st.close()


class TestSealedPostgresReflectState(ReflectStateContract):
    """The cluster's reflect state as the factory builds it: PostgreSQL, text sealed."""

    @staticmethod
    def make(dsn: str, schema: str, tmp_path: Path) -> SealedReflectState:
        return SealedReflectState(PostgresReflectState(PostgresState(dsn, schema=schema)),
                                  DataKeys(SqliteKeyVault(tmp_path / "keys.sqlite3"), bytes(range(32))))

    @pytest.fixture
    async def state(self, dsn: str, schema: str, tmp_path: Path) -> AsyncIterator[SealedReflectState]:
        st = self.make(dsn, schema, tmp_path)
        yield st
        await st.close()

    @pytest.fixture
    async def reopen(self, dsn: str, schema: str, tmp_path: Path) -> AsyncIterator[Callable[[], Awaitable[ReflectState]]]:
        opened: list[SealedReflectState] = []

        async def again() -> ReflectState:
            opened.append(self.make(dsn, schema, tmp_path))
            return opened[-1]

        yield again
        for st in opened:
            await st.close()


class TestSqliteAccessCounts(AccessContract):
    @pytest.fixture
    def make(self, tmp_path: Path) -> Callable[[], AccessCounts]:
        return lambda: SqliteAccessCounts(tmp_path / "access.sqlite3")


class TestPostgresAccessCounts(AccessContract):
    @pytest.fixture
    def make(self, dsn: str, schema: str) -> Callable[[], AccessCounts]:
        return lambda: PostgresAccessCounts(PostgresState(dsn, schema=schema))

    async def test_concurrent_writers_of_one_partition_count_each_record_once(
        self, store: AccessCounts, reopen: Callable[[], Awaitable[AccessCounts]]
    ) -> None:
        # A rebalance can hand a partition to another replica while the old owner still
        # writes the same batch: the row lock makes one of them see the other's position.
        other = await reopen()
        batch = [AccessIncrement("t1", {"a": 1}, "m#0", n) for n in range(20)]
        await asyncio.gather(store.add(batch, {"m#0": 19}), other.add(batch, {"m#0": 19}))
        assert await store.get("t1", ["a"]) == {"a": 20}

    async def test_two_topic_prefixes_on_one_database_keep_their_own_positions(
        self, dsn: str, schema: str
    ) -> None:
        # An offset means something only on its own topic: clusters with different Kafka
        # topic prefixes that share a database must not resume from each other's offsets.
        blue = PostgresAccessCounts(PostgresState(dsn, schema=schema), namespace="blue.")
        green = PostgresAccessCounts(PostgresState(dsn, schema=schema), namespace="green.")
        try:
            await blue.add([AccessIncrement("t1", {"a": 1}, "m#0", 9)], {"m#0": 9})
            assert await blue.position() == {"m#0": 9}
            assert await green.position() == {}
            # green's first records (offsets 0..2 of its own topic) count; blue's 9 is not theirs.
            await green.add([AccessIncrement("t1", {"a": 1}, "m#0", n) for n in range(3)], {"m#0": 2})
            assert await green.position() == {"m#0": 2} and await blue.position() == {"m#0": 9}
            assert await green.get("t1", ["a"]) == {"a": 4}  # counts are per tenant and document
        finally:
            await blue.close()
            await green.close()
