"""The KeyVault contract against SQLite (embedded) and the real PostgreSQL server, and
what each leaves on disk after a destroy."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.adapters.postgres_key_vault import PostgresKeyVault
from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.ports.key_vault import KeyVault, WrappedKey
from tests.contract.key_vault_contract import KeyVaultContract, key
from tests.support.postgres import scratch_schema


class TestSqliteKeyVault(KeyVaultContract):
    @pytest.fixture(autouse=True)
    def _dir(self, tmp_path: Path) -> None:
        self.path = tmp_path / "state" / "keys.sqlite3"

    def make(self) -> KeyVault:
        return SqliteKeyVault(self.path)

    async def test_a_destroyed_key_leaves_no_bytes_in_the_file_or_its_wal(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        await vault.create(key("bob", "k2"))
        files = [self.path, self.path.with_name(self.path.name + "-wal")]
        assert any(b"wrapped-k1" in f.read_bytes() for f in files if f.exists())
        await vault.destroy("acme", "ann")
        for f in self.path.parent.iterdir():
            assert b"wrapped-k1" not in f.read_bytes(), f
        assert await vault.current("acme", "bob") == key("bob", "k2")

    async def test_a_rewrapped_key_leaves_its_old_bytes_nowhere_in_the_directory(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        assert await vault.rewrap([WrappedKey("acme", "ann", "k1", b"rewrapped-k1", key("ann", "k1").created_at)]) == 1
        raw = b"".join(f.read_bytes() for f in self.path.parent.iterdir())
        assert b"wrapped-k1" not in raw.replace(b"rewrapped-k1", b"") and b"rewrapped-k1" in raw


class TestPostgresKeyVault(KeyVaultContract):
    @pytest.fixture(autouse=True)
    async def _schema(self) -> AsyncIterator[None]:
        async with scratch_schema() as (self.dsn, self.schema):
            yield

    def make(self) -> KeyVault:
        return PostgresKeyVault(PostgresState(self.dsn, schema=self.schema, timeout_s=5.0))

    async def test_destroy_deletes_the_row_rather_than_flagging_it(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        await vault.destroy("acme", "ann")
        conn = await asyncpg.connect(self.dsn, timeout=10)
        try:
            rows = await conn.fetch(f'SELECT key_id FROM "{self.schema}".key_vault')
        finally:
            await conn.close()
        assert rows == []
