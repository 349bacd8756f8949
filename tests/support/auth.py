"""An Authenticator for tests that assemble routers or the gRPC server by hand."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hindsight_common.adapters.sqlite_credentials import SqliteCredentials
from hindsight_common.security.credentials import ApiKey
from hindsight_common.security.credentials_access import Authenticator


def open_auth(required: bool = False) -> Authenticator:
    """HINDSIGHT_AUTH off (or required) over an empty in-memory key store."""
    return Authenticator(SqliteCredentials(Path(":memory:")), required=required)


def store_keys(path: Path, *records: ApiKey) -> None:
    """Put ``records`` into the SQLite key store at ``path`` (the data directory's
    ``Settings.credentials_path``), from sync code, whether or not a loop is running."""

    async def add() -> None:
        store = SqliteCredentials(path)
        try:
            for record in records:
                if await store.find(record.key_id) is None:
                    await store.add(record)
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, add()).result()
