"""A scratch PostgreSQL schema per test, on the real server, dropped afterwards."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from tests.servers import server_url


@asynccontextmanager
async def scratch_schema() -> AsyncIterator[tuple[str, str]]:
    """(dsn, schema): a schema name of its own, dropped with everything in it at the end."""
    dsn = server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL")
    schema = f"test_{uuid.uuid4().hex[:12]}"
    try:
        yield dsn, schema
    finally:
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await conn.close()
