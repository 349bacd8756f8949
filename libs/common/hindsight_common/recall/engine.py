"""Recall: scope, candidate paths run concurrently, fusion, ranked items.

Core logic only: it talks to ports, never to a backend.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Document, Hit, Scope, TextIndex, VectorIndex
from hindsight_common.recall.fusion import RRF_K, reciprocal_rank_fusion


@dataclass(frozen=True)
class RecallRequest:
    scope: Scope
    query: str
    k: int = 10


@dataclass(frozen=True)
class PathScore:
    rank: int
    score: float


@dataclass(frozen=True)
class RecallItem:
    document: Document
    score: float
    paths: dict[str, PathScore] = field(default_factory=dict)


@dataclass(frozen=True)
class RecallSettings:
    """How recall searches. Data, not code branches: presets are instances."""

    candidates: int = 50  # per path, before fusion
    weights: dict[str, float] = field(default_factory=lambda: {"vector": 1.0, "bm25": 1.0})
    rrf_k: int = RRF_K


class RecallEngine:
    def __init__(
        self,
        embedder: Embedder,
        vectors: VectorIndex,
        text: TextIndex,
        settings: RecallSettings | None = None,
    ) -> None:
        self._embedder = embedder
        self._vectors = vectors
        self._text = text
        self._settings = settings or RecallSettings()

    async def _vector_path(self, req: RecallRequest, depth: int) -> list[Hit]:
        [vector] = await self._embedder.embed([req.query])
        return await self._vectors.search(req.scope, vector, depth)

    async def recall(self, req: RecallRequest) -> list[RecallItem]:
        depth = max(self._settings.candidates, req.k)
        vector_hits, text_hits = await asyncio.gather(
            self._vector_path(req, depth), self._text.search(req.scope, req.query, depth)
        )
        by_path = {"vector": vector_hits, "bm25": text_hits}
        docs: dict[str, Document] = {}
        per_doc: dict[str, dict[str, PathScore]] = {}
        for path, hits in by_path.items():
            for rank, hit in enumerate(hits, start=1):
                docs.setdefault(hit.document.id, hit.document)
                per_doc.setdefault(hit.document.id, {})[path] = PathScore(rank, hit.score)
        fused = reciprocal_rank_fusion(
            {p: [h.document.id for h in hits] for p, hits in by_path.items()},
            self._settings.weights,
            self._settings.rrf_k,
        )
        return [
            RecallItem(docs[doc_id], score, per_doc[doc_id]) for doc_id, score in fused[: req.k]
        ]


