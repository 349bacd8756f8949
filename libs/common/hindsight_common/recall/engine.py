"""Recall: scope, candidate paths run concurrently, fusion, the cross-encoder over
the fused top N, rerank factors and token-budget packing.

Candidate paths (a preset names those it runs, with their fusion weights):

- ``vector``: nearest documents to the query's embedding;
- ``bm25``: keyword match on each document's own text;
- ``bm25_context``: keyword match on each turn's neighbourhood (the turns around it,
  see ``context_windows``), for turns whose topic is named only around them;
- ``speaker``: nearest documents said by a person the query names ("what did Ann
  say about ..." prefers Ann's own turns);
- ``temporal``: nearest documents inside a time window the query names ("last May");
- ``recency``: the newest documents;
- ``graph``: documents that mention entities the query names (and, with hops, their
  neighbours).

A path whose projection fails (``ProjectionError``: its server is down or timed out)
is left out and named in ``Recalled.degraded``; recall answers from the paths that
remain, and fails only when none does.

Each recall is a ``recall`` span with a child span per path, for the query embedding
(``embed_query``) and for the cross-encoder; their times go to the
``hindsight_recall_seconds`` and ``hindsight_recall_stage_seconds`` histograms.

A preset that needs nothing of a candidate but its rank before the cut (``fast``) asks the
indexes for ids (``find_many``) and reads only the documents it returns (``reading``); the
cross-encoder stage is ``cross_encoding``.

Core logic only: it talks to ports, never to a backend. What runs and how it is
weighted comes from a preset (``presets.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import ParamSpec, TypeVar

from opentelemetry.trace import get_current_span

from hindsight_common.errors import ProjectionError
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import (
    Browse, Document, Found, Hit, Scope, TextField, TextIndex, TextSearch, VectorIndex, VectorSearch, found,
)
from hindsight_common.ports.reranker import Reranker
from hindsight_common.recall.cross_encoding import cross_encode
from hindsight_common.recall.fusion import RRF_K, reciprocal_rank_fusion
from hindsight_common.recall.packing import pack
from hindsight_common.recall.presets import DEFAULT_PRESET, PRESETS, Preset, preset
from hindsight_common.recall.reading import Source, read_best
from hindsight_common.recall.rerank import factors, rerank_score
from hindsight_common.recall.temporal import parse_time_window, strip_time_expression
from hindsight_common.security.signed_items import Integrity
from hindsight_common.telemetry.metrics import RECALL_SECONDS, RECALL_STAGE_SECONDS
from hindsight_common.telemetry.tracing import span

# (tenant, document ids) -> times recall returned each (ids never returned are absent).
AccessLookup = Callable[[str, Sequence[str]], Awaitable[Mapping[str, int]]]
# (scope, entity names from the query, depth, hops) -> hits; None when no graph is wired.
PATH_ORDER = ("vector", "bm25", "bm25_context", "speaker", "temporal", "recency", "graph")
# The BM25 paths and the field each searches (asked of the text index at once).
TEXT_PATHS: Mapping[str, TextField] = {"bm25": "content", "bm25_context": "context"}
# The store each path's ids are read from when it found only ids (``find_many``).
STORE_OF = {"vector": "vectors", "speaker": "vectors", "temporal": "vectors", "bm25": "text", "bm25_context": "text"}
GraphSearch = Callable[[Scope, Sequence[str], int, int], Awaitable[list[Hit]]]
EntityExtractor = Callable[[str], Sequence[str]]
T = TypeVar("T")
S = TypeVar("S")
P = ParamSpec("P")


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
class Recalled:
    """What one recall found, and the paths it ran without (their projection failed)."""

    items: list[RecallItem]
    degraded: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecallSettings:
    """Engine-wide settings; per-request behaviour comes from the preset."""

    candidates: int | None = None  # overrides the preset's candidate depth when set
    rrf_k: int = RRF_K


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
        reranker: Reranker | None = None,
        presets: Mapping[str, Preset] = PRESETS,
        integrity: Integrity | None = None,
    ) -> None:
        self._embedder = embedder
        self._vectors = vectors
        self._text = text
        self._settings = settings or RecallSettings()
        self._graph = graph
        self._entities = entities
        self._count = count_tokens or (lambda s: max(1, len(s) // 4))
        self._accesses = accesses
        self._reranker = reranker
        self._presets = presets
        self._integrity = integrity

    async def recall(self, req: RecallRequest) -> list[RecallItem]:
        """The best ``k`` items (see ``recall_degraded`` for the paths that failed)."""
        return (await self.recall_degraded(req)).items

    async def recall_degraded(self, req: RecallRequest) -> Recalled:
        """The best ``k`` items and the paths left out because their projection failed.
        Raises ProjectionError when every path failed."""
        p = preset(req.preset, self._presets)
        with span("recall", {"hindsight.recall.preset": p.name, "hindsight.recall.k": req.k}), \
                RECALL_SECONDS.labels(p.name).time():
            return await self._recall(req, p)

    async def _recall(self, req: RecallRequest, p: Preset) -> Recalled:
        depth = max(self._settings.candidates or p.candidates, req.k)
        if req.kinds or req.keys or req.tags:
            depth *= 4  # memory filters apply after retrieval: look deeper
        reference = req.reference_time or datetime.now(UTC)
        late = self._reads_late(req, p)
        by_path, degraded = await self._candidate_lists(req, p, depth, reference, late)

        # Each store's copy, for verification, and where to read the copies not at hand
        # (paths that found ids only). A list: hashing a Document (every field) for
        # each of a hundred hits cost more than the rest of the fusion; only the top k
        # items' copies are ever looked at, deduplicated then.
        sources: dict[str, list[Source]] = {}
        per_doc: dict[str, dict[str, PathScore]] = {}
        for path, founds in by_path.items():
            for rank, f in enumerate(founds, start=1):
                sources.setdefault(f.id, []).append(STORE_OF[path] if f.document is None else f.document)
                per_doc.setdefault(f.id, {})[path] = PathScore(rank, f.score)
        fused = reciprocal_rank_fusion({path: [f.id for f in founds] for path, founds in by_path.items()},
                                       p.paths, self._settings.rrf_k)
        if late:
            best, unread = await read_best(fused, sources, self._readers(req.scope.tenant),
                                           lambda copies: self._keeps(copies, req, reference), req.k)
            degraded += tuple(path for path in by_path if STORE_OF.get(path) in unread)
            items = [RecallItem(doc, score, per_doc[doc.id], score,
                                factors(doc, reference, p.rerank.half_life_days).as_dict()) for doc, score in best]
        else:
            items = await self._ranked(req, p, fused, sources, per_doc, reference)
        if req.budget_tokens is not None:
            items = pack(items, lambda i: f"{i.document.speaker}: {i.document.content}", self._count,
                         req.budget_tokens)
        return Recalled(items, degraded)

    async def _ranked(self, req: RecallRequest, p: Preset, fused: list[tuple[str, float]],
                      sources: dict[str, list[Source]], per_doc: dict[str, dict[str, PathScore]],
                      reference: datetime) -> list[RecallItem]:
        """The best ``k`` of ``fused`` (every candidate's documents read by its paths)
        after the cross-encoder and the rerank factors, verified."""
        copies = {doc_id: [s for s in sources[doc_id] if isinstance(s, Document)] for doc_id, _ in fused}
        candidates = [(copies[doc_id][0], score) for doc_id, score in fused
                      if _passes(copies[doc_id][0], req) and not _expired(copies[doc_id][0], reference)]
        if p.cross_encoder_top and self._reranker is not None:
            candidates, read = await _staged("cross_encoder", cross_encode, self._reranker, self._text, req.query,
                                             req.scope.tenant, p, candidates)
            for doc_id, (rank, score) in read.items():  # to explain
                per_doc[doc_id]["cross_encoder"] = PathScore(rank, score)
        accesses = await self._access_counts(req.scope.tenant, p, [d.id for d, _ in candidates])
        items = []
        for doc, fused_score in candidates:
            f = factors(doc, reference, p.rerank.half_life_days, accesses.get(doc.id, 0))
            items.append(RecallItem(doc, rerank_score(fused_score, f, p.rerank), per_doc[doc.id],
                                    fused_score, f.as_dict()))
        items.sort(key=lambda i: -i.score)
        return self._verified(items, copies, req.k)

    def _reads_late(self, req: RecallRequest, p: Preset) -> bool:
        """Whether nothing but the candidates' ranks matters before the cut (no
        cross-encoder, rerank factor, turn counting or memory filter): the paths then
        find ids, and only the best ``k`` documents are read (``reading``)."""
        w = p.rerank
        return not ((p.cross_encoder_top and self._reranker is not None) or p.depth_counts_turns
                    or req.kinds or req.keys or req.tags
                    or w.decay or w.confidence or w.importance or w.access or w.trust)

    def _readers(self, tenant: str) -> dict[str, Callable[[Sequence[str]], Awaitable[list[Document]]]]:
        return {"vectors": lambda ids: self._vectors.get(tenant, ids),
                "text": lambda ids: self._text.get(tenant, ids)}

    def _keeps(self, copies: list[Document], req: RecallRequest, reference: datetime) -> bool:
        """A candidate read late is returned: it passes the request's filters, has not
        expired, and every copy verifies (``_verified``)."""
        doc = copies[0]
        if not _passes(doc, req) or _expired(doc, reference):
            return False
        return self._integrity is None or all(self._integrity.accepts(d, "recall") for d in dict.fromkeys(copies))

    def _verified(self, items: list[RecallItem], copies: Mapping[str, Sequence[Document]],
                  k: int) -> list[RecallItem]:
        """The best ``k`` items whose every copy (one per store that returned it) verifies
        against its signature: a document tampered with in any projection is dropped.
        Verified lazily, best first, so a recall checks about ``k`` documents."""
        if self._integrity is None:
            return items[:k]
        kept: list[RecallItem] = []
        for item in items:
            if len(kept) == k:
                break
            if all(self._integrity.accepts(d, "recall") for d in dict.fromkeys(copies[item.document.id])):
                kept.append(item)
        return kept

    async def _candidate_lists(
        self, req: RecallRequest, p: Preset, depth: int, reference: datetime, late: bool = False,
    ) -> tuple[dict[str, list[Found]], tuple[str, ...]]:
        """Each path's hits, ``depth`` of them (``depth`` turns with the memories ranked
        among them when the preset counts turns), and the paths that failed; ids only
        where an index can give them and the documents are ``late`` read."""
        types = set(req.scope.types)
        if not p.depth_counts_turns or (types and (types == {"episodic"} or "episodic" not in types)):
            return await self._run_paths(req, p, depth, reference, late)  # one kind only: nothing to count
        by_path, degraded = await self._run_paths(req, p, 2 * depth, reference, late, said_depth=depth)
        return {path: _first_turns(hits, depth) for path, hits in by_path.items()}, degraded

    async def _run_paths(
        self, req: RecallRequest, p: Preset, depth: int, reference: datetime, late: bool,
        said_depth: int | None = None,
    ) -> tuple[dict[str, list[Found]], tuple[str, ...]]:
        """Each path's first ``depth`` hits (``said_depth`` for the ``speaker`` path, which
        finds turns only), ids only where ``late`` (``find_many``), and the paths that failed."""
        window = parse_time_window(req.query, reference) if "temporal" in p.paths else None
        # Paths that need no query vector start first, so their index work overlaps
        # the embedding (a few ms of CPU that the indexes' threads need not wait for).
        # A job answers one path or several (the vector paths, asked of their index at once).
        jobs: dict[tuple[str, ...], asyncio.Future[list[list[Found]]]] = {}
        words = {path: TextSearch(req.scope, req.query, depth, field) for path, field in TEXT_PATHS.items()
                 if path in p.paths}
        if words:
            find_words = self._text.find_many if late else _documents_read(self._text.search_many)
            jobs[tuple(words)] = asyncio.ensure_future(_staged(tuple(words), find_words, list(words.values())))
        speakers = tuple(self._entities(req.query)) if "speaker" in p.paths and self._entities else ()
        if "recency" in p.paths:
            jobs["recency",] = _alone("recency", self._recent, req.scope, depth)
        if "graph" in p.paths and self._graph is not None and self._entities is not None:
            names = list(self._entities(req.query))
            if names:
                jobs["graph",] = _alone("graph", self._graph, req.scope, names, depth, p.graph_hops)
        try:
            texts = [req.query]
            if window is not None:
                texts.append(strip_time_expression(req.query, window) or req.query)
            if "vector" in p.paths or speakers or window is not None:
                embedded = await _staged("embed_query", self._embedder.embed_queries, texts)
                searches: dict[str, VectorSearch] = {}
                if "vector" in p.paths:
                    searches["vector"] = VectorSearch(req.scope, embedded[0], depth)
                if speakers and (said := _said(req.scope.types)):
                    # "Said by": turns have a speaker; a memory's speaker field is its subject.
                    searches["speaker"] = VectorSearch(
                        replace(req.scope, speakers=speakers, types=said), embedded[0], said_depth or depth)
                if window is not None:
                    since = max(window.start, req.scope.since) if req.scope.since else window.start
                    until = min(window.end, req.scope.until) if req.scope.until else window.end
                    searches["temporal"] = VectorSearch(
                        replace(req.scope, since=since, until=until), embedded[1], depth)
                if searches:
                    find_near = self._vectors.find_many if late else _documents_read(self._vectors.search_many)
                    jobs[tuple(searches)] = asyncio.ensure_future(
                        _staged(tuple(searches), find_near, list(searches.values())))
            results = await asyncio.gather(*jobs.values(), return_exceptions=True)
        except BaseException:
            for job in jobs.values():  # one path failed (or we were cancelled): stop the rest
                job.cancel()
            await asyncio.gather(*jobs.values(), return_exceptions=True)
            raise
        done: dict[str, list[Found]] = {}
        failed: dict[str, ProjectionError] = {}
        for paths, result in zip(jobs, results, strict=True):
            if isinstance(result, ProjectionError):
                failed.update(dict.fromkeys(paths, result))
            elif isinstance(result, BaseException):
                raise result
            else:
                done.update(zip(paths, result, strict=True))
        if failed and not done:
            raise next(iter(failed.values()))
        # A fixed path order, so fusion's ties break the same way whatever finished first.
        return ({path: done[path] for path in PATH_ORDER if path in done},
                tuple(path for path in PATH_ORDER if path in failed))

    async def _access_counts(self, tenant: str, p: Preset, ids: list[str]) -> Mapping[str, int]:
        """How often recall returned each candidate (one read), when the preset weighs it."""
        if p.rerank.access <= 0 or self._accesses is None or not ids:
            return {}
        return await self._accesses(tenant, ids)

    async def _recent(self, scope: Scope, depth: int) -> list[Hit]:
        docs = await self._text.browse(Browse(scope, limit=depth))
        return [Hit(d, 1.0 / rank) for rank, d in enumerate(docs, start=1)]


async def _staged(stage: str | tuple[str, ...], work: Callable[P, Awaitable[T]], *args: P.args,
                  **kwargs: P.kwargs) -> T:
    """``work(*args, **kwargs)`` in a span named after its recall stage, its time in the
    stage histogram (called here, so a job cancelled before it starts leaves nothing
    unawaited). Stages answered by one call (the vector paths) each get a span (siblings)
    and the call's time."""
    stages = (stage,) if isinstance(stage, str) else stage
    parent = get_current_span()
    start = time.perf_counter()
    with ExitStack() as spans:
        for name in stages:
            spans.enter_context(span(f"recall {name}", {"hindsight.recall.stage": name}, parent=parent))
        result = await work(*args, **kwargs)
    for name in stages:
        RECALL_STAGE_SECONDS.labels(name).observe(time.perf_counter() - start)
    return result


def _alone(stage: str, work: Callable[P, Awaitable[list[Hit]]], *args: P.args,
           **kwargs: P.kwargs) -> asyncio.Future[list[list[Found]]]:
    """A job answering one path (``_staged``): its hits as the only list."""
    async def one() -> list[list[Found]]:
        return [found(await _staged(stage, work, *args, **kwargs))]
    return asyncio.ensure_future(one())


def _documents_read(search_many: Callable[[S], Awaitable[list[list[Hit]]]]) -> Callable[[S], Awaitable[list[list[Found]]]]:
    """``search_many`` answering as ``find_many`` (every document read)."""
    async def run(searches: S) -> list[list[Found]]:
        return [found(hits) for hits in await search_many(searches)]
    return run


def _said(types: tuple[str, ...]) -> tuple[str, ...]:
    """The document types among ``types`` that someone said (no filter: episodic only)."""
    return ("episodic",) if not types or "episodic" in types else ()


def _expired(doc: Document, reference: datetime) -> bool:
    """A memory whose expiry (a TTL) has passed is not recalled (a pass forgets it later)."""
    return doc.expires_at is not None and doc.expires_at <= reference


def _passes(doc: Document, req: RecallRequest) -> bool:
    if req.kinds and doc.kind not in req.kinds:
        return False
    if req.keys and doc.key not in req.keys:
        return False
    return all(tag in doc.tags for tag in req.tags)


def _first_turns(hits: list[Found], turns: int) -> list[Found]:
    """``hits`` up to its ``turns``-th turn, with the memories and summaries ranked among
    them (a path fetched twice as deep, so at most that many)."""
    seen = 0
    for cut, hit in enumerate(hits):
        if seen == turns:
            return hits[:cut]
        seen += hit.document is not None and hit.document.type == "episodic"
    return hits
