"""The versions of one Elasticsearch projection behind its alias, for an online rebuild.

Version 1 is the index the adapters create first, ``<alias>_v1``. A rebuild fills
version N (N > 1) through a staging alias ``<alias>_v<N>`` (the adapter, given that
alias, creates its index ``<alias>_v<N>_v1``), then moves ``<alias>`` onto it and removes
the staging alias in ONE ``_aliases`` request, which Elasticsearch applies atomically:
every search and write through ``<alias>`` goes to the old index before and to the new
one after. A staging index the alias does not point at is a rebuild under way (it is
resumed, from the position it holds).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from elastic_transport import HttpxAsyncHttpNode
from elasticsearch import ApiError, AsyncElasticsearch, NotFoundError, TransportError

from hindsight_common.errors import ProjectionError
from hindsight_common.projection_versions import data_name, staging_alias, version_of

T = TypeVar("T")
_DRIVER_ERRORS = (ApiError, TransportError, TimeoutError)


class ElasticsearchVersions:
    def __init__(self, url: str, alias: str, timeout_s: float = 30.0) -> None:
        self.alias = alias
        self._url = url
        self._timeout_s = timeout_s
        self._client = AsyncElasticsearch(url, node_class=HttpxAsyncHttpNode, request_timeout=timeout_s)

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        try:
            async with asyncio.timeout(self._timeout_s):
                return await make()
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"Elasticsearch {what} for {self.alias} at {self._url} failed: {e}") from e

    async def live(self) -> int | None:
        """The version the alias points at; None when there is no alias yet."""
        try:
            response = await self._call("get alias", lambda: self._client.indices.get_alias(name=self.alias))
        except ProjectionError as e:
            if isinstance(e.__cause__, NotFoundError):
                return None
            raise
        versions = [v for v in (version_of(self.alias, i) for i in response.body) if v is not None]
        return max(versions) if versions else None

    async def versions(self) -> list[int]:
        """Every version with an index, sorted."""
        response = await self._call("list indices", lambda: self._client.indices.get(
            index=f"{self.alias}_v*", allow_no_indices=True, expand_wildcards="open"))
        return sorted(v for v in (version_of(self.alias, i) for i in response.body) if v is not None)

    async def swap(self, version: int) -> None:
        """Point the alias at ``version``, atomically (its staging alias stays: the rebuild
        still writes through it until ``unstage``)."""
        target = data_name(self.alias, version)
        current = await self.live()
        actions: list[dict[str, dict[str, str]]] = []
        if current is not None:
            actions.append({"remove": {"index": data_name(self.alias, current), "alias": self.alias}})
        actions.append({"add": {"index": target, "alias": self.alias}})
        await self._call("swap alias", lambda: self._client.indices.update_aliases(actions=actions))

    async def unstage(self, version: int) -> None:
        """Remove ``version``'s staging alias (the rebuild is done writing through it)."""
        if version == 1:
            return
        name = staging_alias(self.alias, version)
        await self._call("remove staging alias", lambda: self._client.indices.update_aliases(
            actions=[{"remove": {"index": data_name(self.alias, version), "alias": name, "must_exist": False}}]))

    async def drop(self, version: int) -> str:
        """Delete ``version``'s index (never the live one: refused with ProjectionError)."""
        if version == await self.live():
            raise ProjectionError(f"version {version} of {self.alias} is live; it is not dropped")
        index = data_name(self.alias, version)
        await self._call("delete index", lambda: self._client.indices.delete(index=index))
        return index

    async def close(self) -> None:
        await self._client.close()
