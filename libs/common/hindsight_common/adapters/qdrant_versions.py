"""The versions of the Qdrant vector projection behind its collection alias, for an
online rebuild; the same scheme as ``elasticsearch_versions.py``.

Version 1 is the collection the adapter creates first, ``<alias>_v1``. A rebuild fills
version N through a staging alias ``<alias>_v<N>`` (the adapter, given that alias,
creates the collection ``<alias>_v<N>_v1``); the swap moves ``<alias>`` onto it and
removes the staging alias in ONE ``update_collection_aliases`` request, which Qdrant
applies atomically, so every search and write through ``<alias>`` reaches the old
collection before and the new one after.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx
from qdrant_client import AsyncQdrantClient, models
from qdrant_client.common.client_exceptions import QdrantException
from qdrant_client.http.exceptions import ApiException

from hindsight_common.errors import ProjectionError
from hindsight_common.projection_versions import data_name, staging_alias, version_of

T = TypeVar("T")
_DRIVER_ERRORS = (ApiException, QdrantException, httpx.HTTPError, TimeoutError, ValueError, RuntimeError, OSError)


class QdrantVersions:
    """``client``: an open client (a server's, or one local-mode client shared with the
    index in tests); closed by its owner."""

    def __init__(self, client: AsyncQdrantClient, alias: str, timeout_s: float = 30.0) -> None:
        self.alias = alias
        self._client = client
        self._timeout_s = timeout_s

    @classmethod
    def at(cls, url: str, alias: str, api_key: str | None = None) -> QdrantVersions:
        return cls(AsyncQdrantClient(url=url, api_key=api_key, check_compatibility=False), alias)

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        try:
            async with asyncio.timeout(self._timeout_s):
                return await make()
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"Qdrant {what} for {self.alias} failed: {e}") from e

    async def live(self) -> int | None:
        """The version the alias points at; None when there is no alias yet."""
        aliases = await self._call("list aliases", self._client.get_aliases)
        for a in aliases.aliases:
            if a.alias_name == self.alias:
                return version_of(self.alias, a.collection_name)
        return None

    async def versions(self) -> list[int]:
        response = await self._call("list collections", self._client.get_collections)
        return sorted(v for v in (version_of(self.alias, c.name) for c in response.collections) if v is not None)

    async def swap(self, version: int) -> None:
        """Point the alias at ``version``, atomically (its staging alias stays: the rebuild
        still writes through it until ``unstage``)."""
        ops: list[models.CreateAliasOperation | models.DeleteAliasOperation] = []
        if await self.live() is not None:
            ops.append(models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=self.alias)))
        ops.append(models.CreateAliasOperation(create_alias=models.CreateAlias(
            collection_name=data_name(self.alias, version), alias_name=self.alias)))
        await self._call("swap alias", lambda: self._client.update_collection_aliases(change_aliases_operations=ops))

    async def unstage(self, version: int) -> None:
        """Remove ``version``'s staging alias (the rebuild is done writing through it)."""
        aliases = await self._call("list aliases", self._client.get_aliases)
        name = staging_alias(self.alias, version)
        if version == 1 or not any(a.alias_name == name for a in aliases.aliases):
            return
        op = models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=name))
        await self._call("remove staging alias", lambda: self._client.update_collection_aliases(
            change_aliases_operations=[op]))

    async def drop(self, version: int) -> str:
        """Delete ``version``'s collection (never the live one: ProjectionError)."""
        if version == await self.live():
            raise ProjectionError(f"version {version} of {self.alias} is live; it is not dropped")
        name = data_name(self.alias, version)
        await self._call("delete collection", lambda: self._client.delete_collection(name))
        return name

    async def close(self) -> None:
        await self._client.close()
