"""The Credentials contract against SQLite (embedded) and the real PostgreSQL server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.adapters.postgres_credentials import PostgresCredentials
from hindsight_common.adapters.sqlite_credentials import SqliteCredentials
from hindsight_common.ports.credentials import Credentials
from tests.contract.credentials_contract import CredentialsContract
from tests.support.postgres import scratch_schema


class TestSqliteCredentials(CredentialsContract):
    @pytest.fixture(autouse=True)
    def _dir(self, tmp_path: Path) -> None:
        self.path = tmp_path / "state" / "credentials.sqlite3"

    def make(self) -> Credentials:
        return SqliteCredentials(self.path)


class TestPostgresCredentials(CredentialsContract):
    @pytest.fixture(autouse=True)
    async def _schema(self) -> AsyncIterator[None]:
        async with scratch_schema() as (self.dsn, self.schema):
            yield

    def make(self) -> Credentials:
        return PostgresCredentials(PostgresState(self.dsn, schema=self.schema, timeout_s=5.0))

    async def test_a_key_adds_its_tenant(self, store: Credentials) -> None:
        from hindsight_common.security.credentials import new_key
        from tests.contract.credentials_contract import T0

        for _ in range(2):  # the second key of a tenant finds it there
            await store.add(new_key("acme", "read", T0)[1])
        conn = await asyncpg.connect(self.dsn, timeout=10)
        try:
            rows = await conn.fetch(f'SELECT tenant FROM "{self.schema}".tenants')
        finally:
            await conn.close()
        assert [r["tenant"] for r in rows] == ["acme"]
