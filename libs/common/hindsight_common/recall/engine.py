"""Recall: scope, candidate paths run concurrently, fusion, rerank, diversity,
context expansion and token-budget packing.

Core logic only: it talks to ports, never to a backend. What runs and how it is
weighted comes from a preset (``presets.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Browse, Document, Hit, Scope, TextIndex, VectorIndex
from hindsight_common.recall.diversity import mmr
from hindsight_common.recall.fusion import RRF_K, reciprocal_rank_fusion
from hindsight_common.recall.packing import pack
from hindsight_common.recall.presets import DEFAULT_PRESET, Preset, preset
from hindsight_common.recall.rerank import factors, rerank_score
from hindsight_common.recall.temporal import parse_time_window, strip_time_expression

# (tenant, document ids) -> times recall returned each (ids never returned are absent).
AccessLookup = Callable[[str, Sequence[str]], Awaitable[Mapping[str, int]]]
# (scope, entity names from the query, depth, hops) -> hits; None when no graph is wired.
PATH_ORDER = ("vector", "bm25", "temporal", "recency", "graph")
GraphSearch = Callable[[Scope, Sequence[str], int, int], Awaitable[list[Hit]]]
EntityExtractor = Callable[[str], Sequence[str]]


@dataclass(frozen=True)
class RecallRequest:
    scope: Scope
    query: str
    k: int = 10
    preset: str = DEFAULT_PRESET
    reference_time: datetime | None = None  # "last week" is relative to this; default now
    kinds: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    budget_tokens: int | None = None


@dataclass(frozen=True)
class PathScore:
    rank: int
    score: float


@dataclass(frozen=True)
class RecallItem:
    document: Document
    score: float
    paths: dict[str, PathScore] = field(default_factory=dict)
    fused: float = 0.0
    factors: dict[str, float] = field(default_factory=dict)
    context_for: str | None = None  # set on neighbouring turns added by expansion


@dataclass(frozen=True)
class RecallSettings:
    """Engine-wide settings; per-request behaviour comes from the preset."""

    candidates: int | None = None  # overrides the preset's candidate depth when set
    rrf_k: int = RRF_K
    time_window: timedelta = timedelta(minutes=30)  # neighbours for context expansion


class RecallEngine:
    def __init__(
        self,
        embedder: Embedder,
        vectors: VectorIndex,
        text: TextIndex,
        settings: RecallSettings | None = None,
        *,
        graph: GraphSearch | None = None,
        entities: EntityExtractor | None = None,
        count_tokens: Callable[[str], int] | None = None,
        accesses: AccessLookup | None = None,
    ) -> None:
        self._embedder = embedder
        self._vectors = vectors
        self._text = text
        self._settings = settings or RecallSettings()
        self._graph = graph
        self._entities = entities
        self._count = count_tokens or (lambda s: max(1, len(s) // 4))
        self._accesses = accesses

    async def recall(self, req: RecallRequest) -> list[RecallItem]:
        p = preset(req.preset)
        depth = max(self._settings.candidates or p.candidates, req.k)
        if req.kinds or req.keys or req.tags:
            depth *= 4  # memory filters apply after retrieval: look deeper
        reference = req.reference_time or datetime.now(UTC)
        by_path = await self._run_paths(req, p, depth, reference)

        docs: dict[str, Document] = {}
        per_doc: dict[str, dict[str, PathScore]] = {}
        for path, hits in by_path.items():
            for rank, hit in enumerate(hits, start=1):
                docs.setdefault(hit.document.id, hit.document)
                per_doc.setdefault(hit.document.id, {})[path] = PathScore(rank, hit.score)
        fused = reciprocal_rank_fusion(
            {path: [h.document.id for h in hits] for path, hits in by_path.items()},
            p.paths, self._settings.rrf_k,
        )
        candidates = [(docs[doc_id], score) for doc_id, score in fused if _passes(docs[doc_id], req)]
        accesses = await self._access_counts(req.scope.tenant, p, [d.id for d, _ in candidates])
        items = []
        for doc, fused_score in candidates:
            f = factors(doc, reference, p.rerank.half_life_days, accesses.get(doc.id, 0))
            items.append(RecallItem(doc, rerank_score(fused_score, f, p.rerank), per_doc[doc.id],
                                    fused_score, f.as_dict()))
        items.sort(key=lambda i: -i.score)
        if p.mmr_lambda is not None and len(items) > req.k:
            items = await self._diversify(items, req.k, p.mmr_lambda, req.scope.tenant)
        items = items[: req.k]
        if p.expand_neighbours:
            items = await self._expand(items, req.scope, p.expand_neighbours)
        if req.budget_tokens is not None:
            items = pack(items, lambda i: f"{i.document.speaker}: {i.document.content}", self._count,
                         req.budget_tokens)
        return items

    async def _run_paths(
        self, req: RecallRequest, p: Preset, depth: int, reference: datetime
    ) -> dict[str, list[Hit]]:
        window = parse_time_window(req.query, reference) if "temporal" in p.paths else None
        # Paths that need no query vector start first, so their index work overlaps
        # the embedding (a few ms of CPU that the indexes' threads need not wait for).
        jobs: dict[str, asyncio.Future[list[Hit]]] = {}
        if "bm25" in p.paths:
            jobs["bm25"] = asyncio.ensure_future(self._text.search(req.scope, req.query, depth))
        if "recency" in p.paths:
            jobs["recency"] = asyncio.ensure_future(self._recent(req.scope, depth))
        if "graph" in p.paths and self._graph is not None and self._entities is not None:
            names = list(self._entities(req.query))
            if names:
                jobs["graph"] = asyncio.ensure_future(self._graph(req.scope, names, depth, p.graph_hops))
        try:
            texts = [req.query]
            if window is not None:
                texts.append(strip_time_expression(req.query, window) or req.query)
            if "vector" in p.paths or window is not None:
                embedded = await self._embedder.embed(texts)
                if "vector" in p.paths:
                    jobs["vector"] = asyncio.ensure_future(self._vectors.search(req.scope, embedded[0], depth))
                if window is not None:
                    since = max(window.start, req.scope.since) if req.scope.since else window.start
                    until = min(window.end, req.scope.until) if req.scope.until else window.end
                    jobs["temporal"] = asyncio.ensure_future(
                        self._vectors.search(replace(req.scope, since=since, until=until), embedded[1], depth))
            results = await asyncio.gather(*jobs.values())
        except BaseException:
            for job in jobs.values():  # one path failed (or we were cancelled): stop the rest
                job.cancel()
            await asyncio.gather(*jobs.values(), return_exceptions=True)
            raise
        done = dict(zip(jobs, results, strict=True))
        # A fixed path order, so fusion's ties break the same way whatever finished first.
        return {path: done[path] for path in PATH_ORDER if path in done}

    async def _access_counts(self, tenant: str, p: Preset, ids: list[str]) -> Mapping[str, int]:
        """How often recall returned each candidate (one read), when the preset weighs it."""
        if p.rerank.access <= 0 or self._accesses is None or not ids:
            return {}
        return await self._accesses(tenant, ids)

    async def _recent(self, scope: Scope, depth: int) -> list[Hit]:
        docs = await self._text.browse(Browse(scope, limit=depth))
        return [Hit(d, 1.0 / rank) for rank, d in enumerate(docs, start=1)]

    async def _diversify(self, items: list[RecallItem], k: int, lam: float, tenant: str) -> list[RecallItem]:
        pool = items[: max(k * 3, k)]
        # The vectors the index already holds (embedding 30 candidates again costs ~100 ms
        # on 2 cores); a candidate it lacks (not yet embedded) is embedded here.
        stored = await self._vectors.vectors(tenant, [i.document.id for i in pool])
        missing = [i.document.search_text for i in pool if i.document.id not in stored]
        fresh = iter(await self._embedder.embed(missing) if missing else [])
        vectors = [stored[i.document.id] if i.document.id in stored else next(fresh) for i in pool]
        order = mmr([i.score for i in pool], vectors, k, lam)
        return [pool[i] for i in order]

    async def _expand(self, items: list[RecallItem], scope: Scope, n: int) -> list[RecallItem]:
        """Add up to ``n`` neighbouring turns before and after each episodic hit."""
        seen = {i.document.id for i in items}
        out: list[RecallItem] = []
        window = self._settings.time_window
        for item in items:
            out.append(item)
            d = item.document
            if d.type != "episodic":
                continue
            around = Scope(tenant=d.tenant, user=d.user, session=d.session, types=("episodic",),
                           since=d.occurred_at - window, until=d.occurred_at + window)
            neighbours = await self._text.browse(Browse(around, limit=4 * n + 1))
            neighbours.sort(key=lambda x: x.occurred_at)
            at = next((i for i, x in enumerate(neighbours) if x.id == d.id), None)
            if at is None:
                continue
            for x in neighbours[max(0, at - n) : at] + neighbours[at + 1 : at + 1 + n]:
                if x.id not in seen:
                    seen.add(x.id)
                    out.append(RecallItem(x, 0.0, {}, 0.0, {}, context_for=d.id))
        return out


def _passes(doc: Document, req: RecallRequest) -> bool:
    if req.kinds and doc.kind not in req.kinds:
        return False
    if req.keys and doc.key not in req.keys:
        return False
    return all(tag in doc.tags for tag in req.tags)
