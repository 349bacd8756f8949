"""What projections hold, and the ports of the vector and text indexes.

A projection document is derived from one event (an interaction today, a
semantic memory later). Writes are idempotent (keyed by document id) and carry
the log position they reflect, so a projection knows where to resume and can
be dropped and rebuilt from the log at any time.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Literal

from hindsight_common.ports.log import Position

#: The most turns ``TextIndex.session_turns`` returns between two offsets (a bound on
#: one read, far above what a batch of one session spans).
MAX_SESSION_TURNS = 10_000


TextField = Literal["content", "context"]


@dataclass(frozen=True)
class Document:
    """One recallable item as the projections store it."""

    id: str
    tenant: str
    user: str
    session: str
    type: str  # "episodic" (an interaction), "semantic" (a memory), "summary" (of a session)
    speaker: str
    role: str
    content: str
    occurred_at: datetime
    agent: str | None = None
    external_id: str | None = None
    event_ids: tuple[str, ...] = ()
    external_ids: tuple[str, ...] = ()
    stream: str = ""
    offset: int = 0
    # Semantic memories only: what kind of memory, its key, confidence and tags.
    kind: str | None = None
    key: str | None = None
    confidence: float | None = None
    tags: tuple[str, ...] = ()
    # Semantic memories, set by consolidation (``hindsight_common.consolidation``): how
    # often later evidence confirmed the memory and when last, and which memory replaced
    # it ("superseded") or absorbed it ("merged"), or which it replaced / absorbed.
    reinforced_count: int = 0
    last_reinforced_at: datetime | None = None
    superseded_by: str | None = None
    supersedes: tuple[str, ...] = ()
    merged_into: str | None = None
    merged_from: tuple[str, ...] = ()
    # Semantic memories: pinned by someone (``MemoryPinned``), so never forgotten by a pass.
    pinned: bool = False
    # Semantic memories: when it expires (``MemoryExpirySet``): recall leaves it out after.
    expires_at: datetime | None = None
    # Text indexes only: an episodic turn's neighbourhood (the turns around it in its
    # session, itself included), searched by recall's ``bm25_context`` path. Empty
    # elsewhere; see ``context_windows``.
    context: str = ""
    # The signature of the event it was projected from ("kid:hex", see
    # security/signed_items.py), checked where recall and browsing read it; None: unsigned.
    signature: str | None = None
    # The provenance the signature covers, when it can grow afterwards (a memory: the
    # event ids it was extracted from; consolidation adds reinforcing ones to event_ids).
    signed_provenance: tuple[str, ...] | None = None
    # Quarantined documents only (type "quarantined"): why screening held it back, and
    # its score (see ``security.screening``); shown to an admin who includes them.
    quarantine_reasons: tuple[str, ...] = ()
    quarantine_score: float | None = None

    def but(self, **changes: Any) -> Document:
        """A copy with ``changes``: ``dataclasses.replace`` without its call of
        ``__init__`` with every field, a sixth of the cost (the text projection makes one
        per turn it indexes). Raises TypeError for a name that is not a field."""
        unknown = changes.keys() - _DOCUMENT_FIELDS
        if unknown:
            raise TypeError(f"Document has no field {', '.join(sorted(unknown))}")
        copy = object.__new__(Document)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    @property
    def search_text(self) -> str:
        # Questions name people ("what did Caroline say ..."); indexing the speaker
        # with the words lets both BM25 and the embedding see who said it.
        return f"{self.speaker}: {self.content}"


_DOCUMENT_FIELDS = frozenset(f.name for f in fields(Document))


@dataclass(frozen=True)
class Scope:
    """Which documents a query may see. The tenant is always required."""

    tenant: str
    user: str | None = None
    session: str | None = None
    agent: str | None = None
    types: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    # Documents said by one of these speakers (recall's speaker path); empty: anyone.
    speakers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Browse:
    """A listing of documents (newest first) inside a scope, with memory filters."""

    scope: Scope
    kinds: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True)
class Hit:
    document: Document
    score: float


@dataclass(frozen=True)
class Found:
    """A search's answer whose document may not be read yet (``find_many``): recall
    fuses ids and reads only the documents it returns. ``document`` is set where the
    index had it at hand anyway."""

    id: str
    score: float
    document: Document | None = None


def found(hits: Sequence[Hit]) -> list[Found]:
    """``hits`` as ``Found``, documents kept."""
    return [Found(h.document.id, h.score, h.document) for h in hits]


def as_hits(founds: Sequence[Found]) -> list[Hit]:
    """The ``Found`` whose documents were read, as hits."""
    return [Hit(f.document, f.score) for f in founds if f.document is not None]


@dataclass(frozen=True)
class VectorSearch:
    """One of several searches asked of a vector index at once (``search_many``)."""

    scope: Scope
    vector: Sequence[float] = field(repr=False)
    k: int


@dataclass(frozen=True)
class TextSearch:
    """One of several searches asked of a text index at once (``search_many``)."""

    scope: Scope
    query: str
    k: int
    field: TextField = "content"


@dataclass(frozen=True)
class Embedded:
    document: Document
    vector: Sequence[float] = field(repr=False)
    # The embedder's ``model_id``, stored with the vector (payload ``embedding_model``):
    # re-embedding with another model is a rebuild, and it must know what it replaces.
    model: str = ""


class Projection(ABC):
    """What every projection can do besides its own writes and searches."""

    @abstractmethod
    async def position(self) -> Position:
        """The log position this projection reflects (empty when new)."""

    @abstractmethod
    async def count(self, tenant: str) -> int:
        """How many documents of ``tenant`` it holds."""

    @abstractmethod
    async def ids(self, tenant: str) -> list[str]:
        """Every document id of ``tenant`` (for verification and tests), sorted."""

    @abstractmethod
    async def purge_user(self, tenant: str, user: str) -> int:
        """Delete every document of (tenant, user) for good, once their erasure
        (``SubjectErased``) reached this projection: nothing of theirs is left to read, in
        the store or (embedded) in its files. Other users' documents are untouched.
        Idempotent; returns how many documents were removed. Raises ProjectionError."""

    @abstractmethod
    async def close(self) -> None:
        """Flush and release. Idempotent."""

    def defer_caches(self) -> None:
        """A bulk of writes comes before any search (a rebuild filling a new version):
        an in-memory copy of users' data (embedded stores) stops following the writes of
        users it does not hold yet; each user's is read from the store when first
        searched instead. Nothing to do for a store without one."""


class VectorIndex(Projection):
    """Dense-vector projection (Qdrant Edge embedded, Qdrant server in the cluster)."""

    @abstractmethod
    async def upsert(self, items: Sequence[Embedded], position: Position) -> None:
        """Insert or replace ``items`` by document id and record ``position``.

        Idempotent. Durable on return. Raises ProjectionError.
        """

    @abstractmethod
    async def search(self, scope: Scope, vector: Sequence[float], k: int) -> list[Hit]:
        """Up to ``k`` nearest documents inside ``scope`` (tenant enforced here),
        best first, score = cosine similarity. Raises ProjectionError."""

    async def search_many(self, searches: Sequence[VectorSearch]) -> list[list[Hit]]:
        """Each search's hits, as ``search`` gives them, in the order asked (recall's
        paths over this index: the query, its speakers, its time window). Here they run
        side by side; an index that can answer them in one pass overrides it. Raises
        ProjectionError if any fails."""
        return list(await asyncio.gather(*(self.search(s.scope, s.vector, s.k) for s in searches)))

    async def find_many(self, searches: Sequence[VectorSearch]) -> list[list[Found]]:
        """``search_many``'s answers, where the index can give them without reading
        the documents (their ids and scores; ``get`` reads the ones wanted). Here the
        hits with their documents. Raises ProjectionError if any fails."""
        return [found(hits) for hits in await self.search_many(searches)]

    @abstractmethod
    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        """The documents of ``tenant`` with these ids (missing ones left out), in the
        order asked, without their vectors. Raises ProjectionError."""

    @abstractmethod
    async def vectors(self, tenant: str, ids: Sequence[str]) -> dict[str, list[float]]:
        """The stored (unit-length) vectors of ``tenant``'s documents with these ids,
        by id; missing ones and other tenants' are left out. Recall's diversity step
        reads them instead of embedding its candidates again. Raises ProjectionError."""

    @abstractmethod
    async def other_models(self, model: str) -> tuple[int, list[str]]:
        """How many stored vectors (every tenant) were NOT made by ``model`` (payload
        ``embedding_model``, a missing one included), and up to a few of their model
        names ("" for a vector that records none). Start-up compares the configured
        embedder with this: vectors of two models in one index give wrong results.
        Raises ProjectionError."""

    async def live_model(self) -> str | None:
        """The embedder model the live version was made for, read now from the store
        (cluster indexes record it when they are created, so a process can follow a
        re-embedding swap: ``rebuild/follow.py``); None where nothing is recorded (an
        index made before models were recorded, the embedded stores, whose model is in
        ``versions.json``). Raises ProjectionError."""
        return None


class TextIndex(Projection):
    """Keyword (BM25) projection (SQLite FTS5 embedded, Elasticsearch in the cluster)."""

    @abstractmethod
    async def upsert(self, documents: Sequence[Document], position: Position) -> None:
        """Insert or replace ``documents`` by id and record ``position``.

        Idempotent. Durable on return. Raises ProjectionError.
        """

    @abstractmethod
    async def search(self, scope: Scope, query: str, k: int, *, field: TextField = "content") -> list[Hit]:
        """Up to ``k`` documents matching ``query`` inside ``scope`` (tenant enforced
        here), best first, score = BM25 (higher is better). ``field`` "content" matches
        the document's own text (speaker and content), "context" its neighbourhood
        (``Document.context``). Raises ProjectionError."""

    async def search_many(self, searches: Sequence[TextSearch]) -> list[list[Hit]]:
        """Each search's hits, as ``search`` gives them, in the order asked (recall's
        BM25 paths: the turn's own text and its neighbourhood). Here they run side by
        side; an index that can answer them in one pass overrides it. Raises
        ProjectionError if any fails."""
        return list(await asyncio.gather(*(self.search(s.scope, s.query, s.k, field=s.field) for s in searches)))

    async def find_many(self, searches: Sequence[TextSearch]) -> list[list[Found]]:
        """``search_many``'s answers, where the index can give them without reading
        the documents (their ids and scores; ``get`` reads the ones wanted). Here the
        hits with their documents. Raises ProjectionError if any fails."""
        return [found(hits) for hits in await self.search_many(searches)]

    @abstractmethod
    async def session_documents(
        self, tenant: str, user: str, session: str, limit: int
    ) -> list[Document]:
        """The session's newest ``limit`` documents (turns and summaries), newest
        first. Raises ProjectionError."""

    @abstractmethod
    async def session_turns(
        self, tenant: str, user: str, session: str, first: int, last: int, n: int
    ) -> list[Document]:
        """The session's episodic turns around log offsets ``first`` .. ``last``, in
        offset order (a session's turns share one partition, so their offsets compare):
        the ``n`` before ``first``, every one from ``first`` to ``last`` (at most
        ``MAX_SESSION_TURNS``) and the ``n`` after ``last``. What the text index's
        turn neighbourhoods are computed from (``context_windows``).
        Raises ProjectionError."""

    @abstractmethod
    async def browse(self, request: Browse) -> list[Document]:
        """Documents in ``request.scope`` (tenant enforced here) matching every given
        kind, key and tag filter, newest first, paged by limit/offset.
        Raises ProjectionError."""

    @abstractmethod
    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        """The documents of ``tenant`` with these ids (missing ones left out), in the
        order asked. Raises ProjectionError."""
