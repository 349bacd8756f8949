"""The namespace alias of the Neo4j graph projection (see ``neo4j_graph``'s docstring):
a ``(:NamespaceAlias {name, target})`` node named after the configured namespace points
at the namespace that is live; an online rebuild moves it with one write."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from neo4j import AsyncManagedTransaction

T = TypeVar("T")
_READ_ALIAS = "MATCH (a:NamespaceAlias {name: $name}) RETURN a.target AS target"
_WRITE_ALIAS = "MERGE (a:NamespaceAlias {name: $name}) SET a.target = $target"


class NamespaceAliases:
    """Mixed into ``Neo4jGraph``, which provides ``namespace``, ``_resolved`` and ``_tx``."""

    namespace: str
    _resolved: tuple[float, str] | None

    async def _tx(self, write: bool, fn: Callable[[AsyncManagedTransaction], Awaitable[T]], what: str) -> T:
        raise NotImplementedError

    async def alias_target(self) -> str | None:
        """Where the alias named after this store's namespace points; None: no alias."""
        async def fn(tx: AsyncManagedTransaction) -> list[dict[str, Any]]:
            result = await tx.run(_READ_ALIAS, name=self.namespace)
            return await result.data()

        rows = await self._tx(False, fn, "alias read")
        return str(rows[0]["target"]) if rows and rows[0]["target"] else None

    async def point_alias(self, target: str) -> None:
        """Make the alias named after this store's namespace point at ``target`` (one
        write; readers follow within ``ALIAS_TTL_S``)."""
        async def fn(tx: AsyncManagedTransaction) -> None:
            await (await tx.run(_WRITE_ALIAS, name=self.namespace, target=target)).consume()

        await self._tx(True, fn, "alias write")
        self._resolved = None

    async def namespaces(self) -> list[str]:
        """Every namespace that holds a position (written by some projection), sorted."""
        rows = await self._read_any("MATCH (p:ProjectionPosition) RETURN DISTINCT p.ns AS ns")
        return sorted(str(r["ns"]) for r in rows if r["ns"])

    async def _read_any(self, query: str) -> list[dict[str, Any]]:
        async def fn(tx: AsyncManagedTransaction) -> list[dict[str, Any]]:
            return await (await tx.run(query)).data()

        return await self._tx(False, fn, "read")
