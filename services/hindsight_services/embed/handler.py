"""What embed does with a batch of events: embed their documents, upsert vectors."""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.documents import documents_of, last_states
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.ports.projection import Embedded, VectorIndex
from hindsight_common.telemetry import span


class Embed:
    def __init__(self, embedder: Embedder, index: VectorIndex) -> None:
        self._embedder = embedder
        self._index = index

    async def purge(self, tenant: str, user: str) -> None:
        """An erased user's vectors and payloads (``hindsight_common/erasure.py``)."""
        await self._index.purge_user(tenant, user)

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        """Idempotent: a redelivered event overwrites its own point (same id). A forgotten
        memory keeps its content (re-typed "forgotten", see ``documents_of``), looked up
        in this index; so does a quarantined item (re-typed "quarantined")."""
        docs = last_states(await documents_of(records, self._index.get))
        vectors = await self._embedder.embed([d.search_text for d in docs])
        model = self._embedder.model_id
        with span("projection write vector", {"hindsight.projection": "vector", "hindsight.documents": len(docs)}):
            await self._index.upsert(
                [Embedded(d, v, model) for d, v in zip(docs, vectors, strict=True)], position)
