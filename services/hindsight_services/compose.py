"""The composition root: where the services are put together, for both ways of running them.

:class:`Parts` builds each adapter of one process from the settings (through
``hindsight_common.factory``) the first time it is asked for, keeps it, and closes what it
built in reverse order. One function per service wires that service from the parts:
:func:`embed`, :func:`project`, :func:`reflect`, :func:`consolidate` return the service's
consumer, :func:`query` the gateway's read handler. The embedded runtime
(``embedded.py``) calls all five on one ``Parts``, so the services share one embedder, one
vector index, one text index ...; a cluster process (``process.py``) calls the one for its
service on a ``Parts`` of its own. The recall engine is built here and nowhere else
(``tests/unit/test_module_structure.py`` checks).

Each ``Parts`` method is small and usable alone, e.g. to build a fresh projection adapter
for a rebuild beside the live one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import cached_property
from typing import Protocol, TypeVar

from hindsight_common.consumer import Consumer
from hindsight_common.embedder_check import CLUSTER_REMEDY, check_vectors_model
from hindsight_common.factory import (
    make_access_counts,
    make_effect_audit,
    make_embedder,
    make_embedder_for,
    make_embedding_cache,
    make_graph_store,
    make_llm,
    make_reflect_state,
    make_reflector,
    make_reranker,
    make_text_index,
    make_vector_index,
)
from hindsight_common.ports.access import AccessCounts
from hindsight_common.ports.effects import EffectAudit
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.llm import LLM
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import TextIndex, VectorIndex
from hindsight_common.ports.reflect_state import ReflectState
from hindsight_common.ports.reranker import Reranker
from hindsight_common.recall.access import AccessRecorder, access_lookup
from hindsight_common.recall.engine import RecallEngine, RecallSettings
from hindsight_common.recall.presets import PRESETS, Preset
from hindsight_common.security.signed_items import Integrity
from hindsight_common.security.signing_keys import integrity_from_settings
from hindsight_common.settings import Settings
from hindsight_common.text import extract_entities
from hindsight_common.text.tokens import count_tokens
from hindsight_services.consolidate import wiring as consolidate_wiring
from hindsight_services.embed import wiring as embed_wiring
from hindsight_services.project import wiring as project_wiring
from hindsight_services.query.handler import Query
from hindsight_services.rebuild.follow import FollowingEmbedder, ModelFollower
from hindsight_services.rebuild.live import LiveEmbedder, LiveGraph, LiveTextIndex, LiveVectorIndex
from hindsight_services.reflect import wiring as reflect_wiring
from hindsight_services.status import Positioned

Closer = Callable[[], Awaitable[None]]


class _HasClose(Protocol):
    async def close(self) -> None: ...


_Closable = TypeVar("_Closable", bound=_HasClose | None)


class Parts:
    """The adapters of one process, each built once from ``settings`` when first asked for.

    ``embedder`` and ``reranker`` are already-loaded models to use instead of building
    them (tests and benchmarks share them); ``presets`` are the recall presets.
    ``vectors_where`` and ``vectors_remedy`` name the vector index and what to run when it
    holds another embedder's vectors (the start-up check, ``embedder_check``). ``live`` puts
    the embedder and the projections behind swappable references (``rebuild/live.py``), so
    that an online rebuild can switch a running process to new versions. ``follow`` (the
    cluster's processes) keeps the embedder on the model the live vector index records,
    read at start and before each embed batch or query (``rebuild/follow.py``);
    ``make_embedder`` builds the embedder of a model id for it (default:
    ``factory.make_embedder_for``).
    """

    def __init__(
        self, settings: Settings, log: EventLog, *, embedder: Embedder | None = None,
        reranker: Reranker | None = None, presets: Mapping[str, Preset] = PRESETS,
        vectors_where: str = "the vector index", vectors_remedy: str = CLUSTER_REMEDY, live: bool = False,
        follow: bool = False, make_embedder: Callable[[str], Embedder] | None = None,
    ) -> None:
        self.live = live
        self.follow = follow
        self.follower: ModelFollower | None = None  # set by vectors() when following
        self._make_for = make_embedder or (lambda model: make_embedder_for(settings, model))
        self.settings = settings
        self.log = log
        self.presets = presets
        self._embedder = embedder
        self._reranker = reranker
        self._reranker_ready = False
        self._embedder_ready = False
        self._where = vectors_where
        self._remedy = vectors_remedy
        self._vectors: VectorIndex | None = None
        self._closers: list[Closer] = []
        self.access_recorder: AccessRecorder | None = None  # set by :func:`query`

    def on_close(self, closer: Closer) -> None:
        """Run ``closer`` in :meth:`close` (before what was registered earlier)."""
        self._closers.append(closer)

    async def close(self) -> None:
        """Close everything built here, the last built first. Every closer runs once."""
        closers, self._closers = self._closers, []
        for close in reversed(closers):
            await close()

    async def embedder(self) -> Embedder:
        """The embedder, loaded (one embedding made) before it is returned."""
        if self._embedder is None:
            self._embedder = make_embedder(self.settings)
        if (self.live or self.follow) and not isinstance(self._embedder, LiveEmbedder):
            self._embedder = LiveEmbedder(self._embedder)
        if not self._embedder_ready:  # once: every service asks for the embedder
            await self._embedder.embed(["warm up"])
            self._embedder_ready = True
        return self._embedder

    async def reranker(self) -> Reranker | None:
        """The cross-encoder, loaded, or None when reranking is off."""
        if not self._reranker_ready:
            self._reranker = self._reranker or make_reranker(self.settings)
            if self._reranker is not None:
                await self._reranker.score("warm up", ["warm up"])
            self._reranker_ready = True
        return self._reranker

    async def vectors(self) -> VectorIndex:
        """The vector index, checked to hold the embedder's vectors only (EmbedderMismatch)."""
        if self._vectors is None:
            embedder = await self.embedder()
            vectors = make_vector_index(self.settings, embedder.dim, embedder.model_id)
            try:
                if self.follow:
                    assert isinstance(embedder, LiveEmbedder)
                    self.follower = ModelFollower(vectors, embedder, self._make_for)
                    await self.follower.follow()  # a re-embedded index: its model, not the configured one
                await check_vectors_model(vectors, embedder.model_id, where=self._where, remedy=self._remedy)
            except BaseException:
                await vectors.close()
                raise
            if self.live:
                vectors = LiveVectorIndex(vectors, embedder.model_id)
            self.on_close(vectors.close)  # live: whichever version is live at the end
            self._vectors = vectors
        return self._vectors

    async def query_embedder(self) -> Embedder:
        """What recall embeds its queries with: following the live vector version's model
        (at most a second old) when ``follow``, else the embedder itself."""
        embedder = await self.embedder()
        await self.vectors()  # builds the follower
        return FollowingEmbedder(self.follower) if self.follower is not None else embedder

    # Each built on first access and kept (``cached_property``), its closer registered.

    @cached_property
    def embedding_cache(self) -> EmbeddingCache | None:
        return self._closed_later(make_embedding_cache(self.settings))

    @cached_property
    def text(self) -> TextIndex:
        text = make_text_index(self.settings)
        return self._closed_later(LiveTextIndex(text) if self.live else text)

    @cached_property
    def graph(self) -> GraphStore:
        graph = make_graph_store(self.settings)
        return self._closed_later(LiveGraph(graph) if self.live else graph)

    @cached_property
    def reflect_state(self) -> ReflectState:
        return self._closed_later(make_reflect_state(self.settings))

    @cached_property
    def effect_audit(self) -> EffectAudit | None:
        """What embed and project applied (``HINDSIGHT_EFFECT_AUDIT``), or None."""
        return self._closed_later(make_effect_audit(self.settings))

    @cached_property
    def access_counts(self) -> AccessCounts:
        return self._closed_later(make_access_counts(self.settings))

    @cached_property
    def integrity(self) -> Integrity:
        """What recall verifies with; the embedded mode makes its keyring on first use,
        the cluster raises ConfigurationError without keys."""
        return integrity_from_settings(self.settings)

    @cached_property
    def llm(self) -> LLM | None:
        """The chat model of ``HINDSIGHT_LLM_*`` (None when unset), closed with the process."""
        llm = make_llm(self.settings)
        if llm is not None:
            self.on_close(llm.aclose)
        return llm

    def _closed_later(self, store: _Closable) -> _Closable:
        if store is not None:
            self.on_close(store.close)
        return store

    async def feeds(self) -> dict[str, list[Positioned]]:
        """The stores each consumer group fills that recall reads, by group: what
        ``/v1/status`` holds each group's position down to (``status.py``)."""
        return {"embed": [await self.vectors()], "project": [self.text, self.graph],
                "consolidate": [self.access_counts]}


async def embed(parts: Parts) -> Consumer:
    vectors = await parts.vectors()
    follow = parts.follower.follow if parts.follower is not None else None
    return embed_wiring.consumer(parts.log, await parts.embedder(), vectors, parts.settings,
                                 parts.embedding_cache, parts.effect_audit, follow)


async def project(parts: Parts) -> Consumer:
    return project_wiring.consumer(parts.log, parts.text, parts.settings, graph=parts.graph,
                                   audit=parts.effect_audit)


async def reflect(parts: Parts) -> Consumer:
    return reflect_wiring.consumer(parts.log, parts.reflect_state, make_reflector(parts.settings, parts.llm),
                                   parts.settings)


async def consolidate(parts: Parts) -> Consumer:
    # The embedder finds near-duplicates by meaning; the cache holds what embed embedded.
    return consolidate_wiring.consumer(parts.log, parts.settings, parts.access_counts, await parts.embedder(),
                                       parts.embedding_cache, parts.llm)


CONSUMERS: dict[str, Callable[[Parts], Awaitable[Consumer]]] = {
    "embed": embed, "project": project, "reflect": reflect, "consolidate": consolidate,
}


def recall_engine(parts: Parts, embedder: Embedder, vectors: VectorIndex, reranker: Reranker | None) -> RecallEngine:
    """The one place a recall engine is built."""
    s = parts.settings
    return RecallEngine(
        embedder, vectors, parts.text, RecallSettings(candidates=s.recall_candidates),
        count_tokens=count_tokens, graph=parts.graph.search, entities=extract_entities,
        accesses=access_lookup(parts.access_counts),  # read only: consolidate writes them
        reranker=reranker, presets=parts.presets,
        integrity=parts.integrity,
    )


async def query(parts: Parts) -> Query:
    """The gateway's reads: recall over the projections, browsing, session context. Its
    access recorder is started here and flushed when ``parts`` close."""
    integrity = parts.integrity  # before the models load: fail fast without keys
    embedder = await parts.query_embedder()
    vectors = await parts.vectors()
    reranker = await parts.reranker()
    recorder = parts.access_recorder = AccessRecorder(parts.log, parts.settings.access_flush_s)
    parts.on_close(recorder.stop)  # closed first: its last flush goes out before the log closes
    handler = Query(recall_engine(parts, embedder, vectors, reranker), parts.settings, parts.text,
                    accesses=recorder, integrity=integrity)
    recorder.start()
    return handler
