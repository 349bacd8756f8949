"""The live projections of a running process, behind a swappable reference (the
in-process alias).

The embedded runtime hands these to its consumers and to recall instead of the
adapters themselves. An online rebuild fills a new version beside the live one and
then calls ``swap``: one assignment, with no ``await`` between the swaps of one
rebuild, so every call made after it reaches the new version and no call sees half of
each. A call already running finishes on the version it started on; ``retire`` waits
for those calls before it closes the old version, so no reader fails on a closed store.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

from hindsight_common.errors import ProjectionError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.graph import GraphItem, GraphLinks, GraphStore
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import (
    Browse, Document, Embedded, Found, Hit, Projection, Scope, TextField, TextIndex, TextSearch, VectorIndex,
    VectorSearch,
)

T = TypeVar("T")
P = TypeVar("P", bound=Projection)
RETIRE_TIMEOUT_S = 60.0


class Swappable(Generic[T]):
    """A reference to the live ``T`` and a count of the calls running on each one."""

    def __init__(self, inner: T) -> None:
        self._inner = inner
        self._busy: dict[int, int] = {}

    @property
    def current(self) -> T:
        return self._inner

    def swap(self, new: T) -> T:
        """Make ``new`` the live one (synchronous: atomic for the event loop); returns the old."""
        old, self._inner = self._inner, new
        return old

    @asynccontextmanager
    async def using(self) -> AsyncIterator[T]:
        inner = self._inner
        key = id(inner)
        self._busy[key] = self._busy.get(key, 0) + 1
        try:
            yield inner
        finally:
            self._busy[key] -= 1
            if not self._busy[key]:
                del self._busy[key]

    async def drained(self, old: T, timeout_s: float = RETIRE_TIMEOUT_S) -> None:
        """Return once no call runs on ``old`` any more (or after ``timeout_s``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while self._busy.get(id(old)) and loop.time() < deadline:
            await asyncio.sleep(0.02)


class _Shared(Generic[P]):
    """What every live projection delegates alike (``Projection``'s methods)."""

    ref: Swappable[P]

    async def position(self) -> Position:
        async with self.ref.using() as i:
            return await i.position()

    async def count(self, tenant: str) -> int:
        async with self.ref.using() as i:
            return await i.count(tenant)

    async def ids(self, tenant: str) -> list[str]:
        async with self.ref.using() as i:
            return await i.ids(tenant)

    async def purge_user(self, tenant: str, user: str) -> int:
        async with self.ref.using() as i:
            return await i.purge_user(tenant, user)

    async def close(self) -> None:
        await self.ref.current.close()

    def memory_stats(self) -> dict[str, int] | None:
        """The live index's in-memory per-user cache (``SqliteFtsIndex.memory_stats``,
        ``QdrantEdgeIndex.memory_stats``); None for an index without one."""
        stats = getattr(self.ref.current, "memory_stats", None)
        return stats() if callable(stats) else None


class LiveVectorIndex(_Shared[VectorIndex], VectorIndex):
    """``model``: the embedder the live version's vectors come from. A write of vectors
    made by another model is refused with a ProjectionError, which the consumer retries:
    a live batch embedded just before a re-embedding swap is then embedded again with
    the new model instead of landing in the new version with the old model's vectors."""

    def __init__(self, inner: VectorIndex, model: str) -> None:
        self.ref = Swappable(inner)
        self.model = model

    def swap(self, new: VectorIndex, model: str) -> VectorIndex:
        self.model = model
        return self.ref.swap(new)

    async def upsert(self, items: Sequence[Embedded], position: Position) -> None:
        stale = {item.model for item in items} - {self.model}
        if stale:
            raise ProjectionError(
                f"vectors of {sorted(stale)} offered to the live vector projection of {self.model!r} "
                "(a re-embedding swapped it); the batch is embedded again")
        async with self.ref.using() as i:
            await i.upsert(items, position)

    async def search(self, scope: Scope, vector: Sequence[float], k: int) -> list[Hit]:
        async with self.ref.using() as i:
            return await i.search(scope, vector, k)

    async def search_many(self, searches: Sequence[VectorSearch]) -> list[list[Hit]]:
        async with self.ref.using() as i:
            return await i.search_many(searches)

    async def find_many(self, searches: Sequence[VectorSearch]) -> list[list[Found]]:
        async with self.ref.using() as i:
            return await i.find_many(searches)

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        async with self.ref.using() as i:
            return await i.get(tenant, ids)

    async def vectors(self, tenant: str, ids: Sequence[str]) -> dict[str, list[float]]:
        async with self.ref.using() as i:
            return await i.vectors(tenant, ids)

    async def other_models(self, model: str) -> tuple[int, list[str]]:
        async with self.ref.using() as i:
            return await i.other_models(model)

    async def live_model(self) -> str | None:
        async with self.ref.using() as i:
            return await i.live_model()


class LiveTextIndex(_Shared[TextIndex], TextIndex):
    def __init__(self, inner: TextIndex) -> None:
        self.ref = Swappable(inner)

    async def upsert(self, documents: Sequence[Document], position: Position) -> None:
        async with self.ref.using() as i:
            await i.upsert(documents, position)

    async def search(self, scope: Scope, query: str, k: int, *, field: TextField = "content") -> list[Hit]:
        async with self.ref.using() as i:
            return await i.search(scope, query, k, field=field)

    async def search_many(self, searches: Sequence[TextSearch]) -> list[list[Hit]]:
        async with self.ref.using() as i:
            return await i.search_many(searches)

    async def find_many(self, searches: Sequence[TextSearch]) -> list[list[Found]]:
        async with self.ref.using() as i:
            return await i.find_many(searches)

    async def session_documents(self, tenant: str, user: str, session: str, limit: int) -> list[Document]:
        async with self.ref.using() as i:
            return await i.session_documents(tenant, user, session, limit)

    async def session_turns(
        self, tenant: str, user: str, session: str, first: int, last: int, n: int
    ) -> list[Document]:
        async with self.ref.using() as i:
            return await i.session_turns(tenant, user, session, first, last, n)

    async def browse(self, request: Browse) -> list[Document]:
        async with self.ref.using() as i:
            return await i.browse(request)

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        async with self.ref.using() as i:
            return await i.get(tenant, ids)


class LiveGraph(_Shared[GraphStore], GraphStore):
    def __init__(self, inner: GraphStore) -> None:
        self.ref = Swappable(inner)
        self.max_fanout = inner.max_fanout

    async def upsert(self, items: Sequence[GraphItem], position: Position) -> None:
        async with self.ref.using() as i:
            await i.upsert(items, position)

    async def search(self, scope: Scope, entities: Sequence[str], k: int, hops: int = 1) -> list[Hit]:
        async with self.ref.using() as i:
            return await i.search(scope, entities, k, hops)

    def stored_keys(self, tenant: str, names: Sequence[str]) -> tuple[str, ...]:
        return self.ref.current.stored_keys(tenant, names)

    async def entities_of(self, tenant: str, doc_id: str) -> tuple[str, ...]:
        async with self.ref.using() as i:
            return await i.entities_of(tenant, doc_id)

    async def links_of(self, tenant: str, doc_id: str) -> GraphLinks:
        async with self.ref.using() as i:
            return await i.links_of(tenant, doc_id)


class LiveEmbedder(Embedder):
    """The embedder recall and the live embed consumer use; swapped together with the
    vector index when a rebuild re-embeds with another model."""

    def __init__(self, inner: Embedder) -> None:
        self.ref = Swappable(inner)

    @property
    def model_id(self) -> str:
        return self.ref.current.model_id

    @property
    def dim(self) -> int:
        return self.ref.current.dim

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        async with self.ref.using() as i:
            return await i.embed(texts)

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        async with self.ref.using() as i:
            return await i.embed_queries(texts)

    def load(self) -> None:
        self.ref.current.load()
