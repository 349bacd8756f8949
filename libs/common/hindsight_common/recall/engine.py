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
    Browse, Document, Hit, Scope, TextField, TextIndex, TextSearch, VectorIndex, VectorSearch,
)
from hindsight_common.ports.reranker import Reranker
from hindsight_common.recall.fusion import RRF_K, reciprocal_rank_fusion
from hindsight_common.recall.packing import pack
from hindsight_common.recall.presets import DEFAULT_PRESET, PRESETS, Preset, preset
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
GraphSearch = Callable[[Scope, Sequence[str], int, int], Awaitable[list[Hit]]]
EntityExtractor = Callable[[str], Sequence[str]]
T = TypeVar("T")
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
        by_path, degraded = await self._candidate_lists(req, p, depth, reference)

        docs: dict[str, Document] = {}
        # Each store's copy, for verification. A list: hashing a Document (every field) for
        # each of a hundred hits cost more than the rest of the fusion; only the top k
        # items' copies are ever looked at, deduplicated then.
        copies: dict[str, list[Document]] = {}
        per_doc: dict[str, dict[str, PathScore]] = {}
        for path, hits in by_path.items():
            for rank, hit in enumerate(hits, start=1):
                docs.setdefault(hit.document.id, hit.document)
                copies.setdefault(hit.document.id, []).append(hit.document)
                per_doc.setdefault(hit.document.id, {})[path] = PathScore(rank, hit.score)
        fused = reciprocal_rank_fusion(
            {path: [h.document.id for h in hits] for path, hits in by_path.items()},
            p.paths, self._settings.rrf_k,
        )
        candidates = [(docs[doc_id], score) for doc_id, score in fused
                      if _passes(docs[doc_id], req) and not _expired(docs[doc_id], reference)]
        if p.cross_encoder_top and self._reranker is not None:
            candidates = await _staged("cross_encoder", self._cross_encode, req, p, candidates, per_doc)
        accesses = await self._access_counts(req.scope.tenant, p, [d.id for d, _ in candidates])
        items = []
        for doc, fused_score in candidates:
            f = factors(doc, reference, p.rerank.half_life_days, accesses.get(doc.id, 0))
            items.append(RecallItem(doc, rerank_score(fused_score, f, p.rerank), per_doc[doc.id],
                                    fused_score, f.as_dict()))
        items.sort(key=lambda i: -i.score)
        items = self._verified(items, copies, req.k)
        if req.budget_tokens is not None:
            items = pack(items, lambda i: f"{i.document.speaker}: {i.document.content}", self._count,
                         req.budget_tokens)
        return Recalled(items, degraded)

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

    async def _cross_encode(
        self, req: RecallRequest, p: Preset, candidates: list[tuple[Document, float]],
        per_doc: dict[str, dict[str, PathScore]],
    ) -> list[tuple[Document, float]]:
        """The fused top N reordered by the cross-encoder, the rest after them (N turns,
        with the memories fused among them: ``_pool_size``).

        Each turn is read alone and, when the preset weighs it, once more after the turn
        before it (its neighbourhood from the text index); the score is the first plus
        ``cross_encoder_context`` × the second (without ``cross_encoder_alone``, an
        ablation, each turn is read once, after the turn before it). The fused scores stay with the positions
        (the best CE score gets the best fused score), so the rerank factors that follow
        act on the same scale as without the cross-encoder. Each reordered document's CE
        rank and score go to explain.
        """
        cut = _pool_size(candidates, p)
        head, tail = candidates[:cut], candidates[cut:]
        if len(head) < 2:
            return candidates
        assert self._reranker is not None
        passages = [d.search_text for d, _ in head]
        with_prev = await self._after_previous(req, p, head)
        if p.cross_encoder_context and not p.cross_encoder_alone:
            # One reading a turn, on the scale of two (each turn alone while the text index is down).
            read = await self._reranker.score(req.query, with_prev or passages)
            scores = [(1.0 + p.cross_encoder_context) * s for s in read]
        elif with_prev is None:  # the preset does not weigh the second reading, or the text index is down
            scores = await self._reranker.score(req.query, passages)
        else:
            # Both readings in one call: its pairs are cut into runs of equal tokens,
            # which keeps the cores equally busy (two calls made four uneven runs).
            differ = [i for i, text in enumerate(with_prev) if text != passages[i]]
            read = await self._reranker.score(req.query, passages + [with_prev[i] for i in differ])
            scores, again = read[:len(passages)], read[:len(passages)]
            for i, a in zip(differ, read[len(passages):], strict=True):
                again[i] = a  # a turn with nothing before it (or a memory) reads the same
            scores = [s + p.cross_encoder_context * a for s, a in zip(scores, again, strict=True)]
        return self._reordered(head, tail, scores, per_doc)

    @staticmethod
    def _reordered(head: list[tuple[Document, float]], tail: list[tuple[Document, float]], scores: list[float],
                   per_doc: dict[str, dict[str, PathScore]]) -> list[tuple[Document, float]]:
        """``head`` by cross-encoder score (the fused scores stay with the positions),
        then ``tail``; each reordered document's CE rank and score go to explain."""
        order = sorted(range(len(head)), key=lambda i: -scores[i])  # stable on ties
        for rank, i in enumerate(order, start=1):
            per_doc[head[i][0].id]["cross_encoder"] = PathScore(rank, scores[i])
        return [(head[i][0], head[pos][1]) for pos, i in enumerate(order)] + tail

    async def _after_previous(self, req: RecallRequest, p: Preset,
                              head: list[tuple[Document, float]]) -> list[str] | None:
        """Each of ``head`` after the turn before it (itself when it has none); None when
        the preset does not weigh that reading or the text index is down."""
        if not p.cross_encoder_context or (indexed := await self._neighbourhoods(req, head)) is None:
            return None
        return [_after_previous(indexed.get(d.id, d), p.cross_encoder_context_chars) for d, _ in head]

    async def _neighbourhoods(
        self, req: RecallRequest, head: list[tuple[Document, float]]
    ) -> dict[str, Document] | None:
        """The text index's copy of each document (with its neighbourhood); None while the
        text index is down (the cross-encoder then reads each turn alone)."""
        try:
            return {d.id: d for d in await self._text.get(req.scope.tenant, [d.id for d, _ in head])}
        except ProjectionError:
            return None

    async def _candidate_lists(
        self, req: RecallRequest, p: Preset, depth: int, reference: datetime
    ) -> tuple[dict[str, list[Hit]], tuple[str, ...]]:
        """Each path's hits, ``depth`` of them (``depth`` turns with the memories ranked
        among them when the preset counts turns), and the paths that failed."""
        types = set(req.scope.types)
        if not p.depth_counts_turns or (types and (types == {"episodic"} or "episodic" not in types)):
            return await self._run_paths(req, p, depth, reference)  # one kind only: nothing to count
        by_path, degraded = await self._run_paths(req, p, 2 * depth, reference, said_depth=depth)
        return {path: _first_turns(hits, depth) for path, hits in by_path.items()}, degraded

    async def _run_paths(
        self, req: RecallRequest, p: Preset, depth: int, reference: datetime, said_depth: int | None = None,
    ) -> tuple[dict[str, list[Hit]], tuple[str, ...]]:
        """Each path's first ``depth`` hits (``said_depth`` for the ``speaker`` path, which
        finds turns only), and the paths that failed."""
        window = parse_time_window(req.query, reference) if "temporal" in p.paths else None
        # Paths that need no query vector start first, so their index work overlaps
        # the embedding (a few ms of CPU that the indexes' threads need not wait for).
        # A job answers one path or several (the vector paths, asked of their index at once).
        jobs: dict[tuple[str, ...], asyncio.Future[list[list[Hit]]]] = {}
        words = {path: TextSearch(req.scope, req.query, depth, field) for path, field in TEXT_PATHS.items()
                 if path in p.paths}
        if words:
            jobs[tuple(words)] = asyncio.ensure_future(
                _staged(tuple(words), self._text.search_many, list(words.values())))
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
                    jobs[tuple(searches)] = asyncio.ensure_future(
                        _staged(tuple(searches), self._vectors.search_many, list(searches.values())))
            results = await asyncio.gather(*jobs.values(), return_exceptions=True)
        except BaseException:
            for job in jobs.values():  # one path failed (or we were cancelled): stop the rest
                job.cancel()
            await asyncio.gather(*jobs.values(), return_exceptions=True)
            raise
        done: dict[str, list[Hit]] = {}
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
           **kwargs: P.kwargs) -> asyncio.Future[list[list[Hit]]]:
    """A job answering one path (``_staged``): its hits as the only list."""
    async def one() -> list[list[Hit]]:
        return [await _staged(stage, work, *args, **kwargs)]
    return asyncio.ensure_future(one())


def _said(types: tuple[str, ...]) -> tuple[str, ...]:
    """The document types among ``types`` that someone said (no filter: episodic only)."""
    return ("episodic",) if not types or "episodic" in types else ()


def _after_previous(doc: Document, chars: int = 0) -> str:
    """The turn before ``doc`` in its session (its last ``chars`` characters, when set)
    and ``doc`` itself, from its neighbourhood (``Document.context``: the window's texts
    one per line); just ``doc`` without one."""
    own = doc.search_text
    at = doc.context.rfind(own)
    before = doc.context[:at].rstrip("\n") if at > 0 else ""
    if not before:
        return own
    previous = before.rsplit(chr(10), 1)[-1]
    if chars and len(previous) > chars:
        previous = previous[-chars:]
    return f"{previous}\n{own}"


def _expired(doc: Document, reference: datetime) -> bool:
    """A memory whose expiry (a TTL) has passed is not recalled (a pass forgets it later)."""
    return doc.expires_at is not None and doc.expires_at <= reference


def _passes(doc: Document, req: RecallRequest) -> bool:
    if req.kinds and doc.kind not in req.kinds:
        return False
    if req.keys and doc.key not in req.keys:
        return False
    return all(tag in doc.tags for tag in req.tags)


def _first_turns(hits: list[Hit], turns: int) -> list[Hit]:
    """``hits`` up to its ``turns``-th turn, with the memories and summaries ranked among
    them (a path fetched twice as deep, so at most that many)."""
    seen = 0
    for cut, hit in enumerate(hits):
        if seen == turns:
            return hits[:cut]
        seen += hit.document.type == "episodic"
    return hits


def _pool_size(candidates: Sequence[tuple[Document, float]], p: Preset) -> int:
    """How many of the fused candidates the cross-encoder reads: the first
    ``cross_encoder_top`` turns and every memory or summary fused among them, at most
    twice that many items. A memory is a second key to the turns it came from, so it
    must not push a turn out of the reranker's reach (on LoCoMo with reflection, memories
    taking turns' places cost more recall than they added); each is read once (it has no
    turn before it), so its cost is one pair."""
    if not p.cross_encoder_counts_turns:
        return p.cross_encoder_top
    cut = turns = 0
    while cut < len(candidates) and turns < p.cross_encoder_top and cut < 2 * p.cross_encoder_top:
        turns += candidates[cut][0].type == "episodic"
        cut += 1
    return cut
