"""What embed does with a batch of events: embed their documents, upsert vectors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from hindsight_common.documents import documents_of, last_states
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.ports.effects import EffectAudit
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.ports.projection import Embedded, VectorIndex
from hindsight_common.telemetry import span


_PAGE = 500


class Embed:
    def __init__(self, embedder: Embedder, index: VectorIndex, audit: EffectAudit | None = None,
                 follow: Callable[[], Awaitable[None]] | None = None) -> None:
        """``follow``: awaited before each batch; in the cluster it switches ``embedder``
        to the live vector version's model (``rebuild/follow.py``)."""
        self._embedder = embedder
        self._index = index
        self._audit = audit  # notes each applied record once the upsert succeeded
        self._follow = follow

    async def purge(self, tenant: str, user: str) -> None:
        """An erased user's vectors and payloads (``hindsight_common/erasure.py``), and their
        documents' entries in the embedding cache (found through the index, before it
        forgets them; the index has no listing by user, so the tenant's ids are read)."""
        if isinstance(self._embedder, CachedEmbedder):
            ids = await self._index.ids(tenant)
            texts = [d.search_text for start in range(0, len(ids), _PAGE)
                     for d in await self._index.get(tenant, ids[start:start + _PAGE]) if d.user == user]
            await self._embedder.forget(texts)
        await self._index.purge_user(tenant, user)

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        """Idempotent: a redelivered event overwrites its own point (same id). A forgotten
        memory keeps its content (re-typed "forgotten", see ``documents_of``), looked up
        in this index; so does a quarantined item (re-typed "quarantined")."""
        if self._follow is not None:
            await self._follow()  # before the model id is read (the cache keys by it)
        docs = last_states(await documents_of(records, self._index.get))
        vectors = await self._embedder.embed([d.search_text for d in docs])
        model = self._embedder.model_id
        with span("projection write vector", {"hindsight.projection": "vector", "hindsight.documents": len(docs)}):
            await self._index.upsert(
                [Embedded(d, v, model) for d, v in zip(docs, vectors, strict=True)], position)
        if self._audit is not None:
            await self._audit.record("vector", records)
