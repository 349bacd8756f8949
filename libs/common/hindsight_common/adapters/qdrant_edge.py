"""Embedded vector projection on Qdrant Edge (the Qdrant engine in-process)."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import qdrant_edge as qe

from hindsight_common.adapters.position_file import read_position, write_position
from hindsight_common.adapters.shard_guard import ShardGuard
from hindsight_common.adapters.user_cache import UserKey
from hindsight_common.adapters.vector_memory import (
    MemoryVectors, UserVectors, VectorPoint, plan_lists, unit, unit_rows)
from hindsight_common.documents import dense_vector, from_payload, in_order, uuid_ids, vector_payload
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import (
    Document, Embedded, Found, Hit, Scope, VectorIndex, VectorSearch, as_hits,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

_KEYWORD_FIELDS = ("tenant", "user", "session", "agent", "type", "speaker")
# Keys Qdrant filters or reads on their own stay top-level; the whole document goes as one
# JSON string besides. The binding converts a payload key by key (about 8 µs a key on the
# 2-core development machine), so the 35 keys of a document were most of an upsert's CPU.
_TOP_LEVEL = (*_KEYWORD_FIELDS, "ts", "id", "embedding_model")
_DOCUMENT = "document"
_BUILD_BATCH = 2048  # points a build reads from the shard at a time


def point_payload(doc: Document, model: str) -> dict[str, Any]:
    """What a point stores: the filtered keys, and the document as JSON."""
    full = vector_payload(doc, model)
    return {**{k: full[k] for k in _TOP_LEVEL}, _DOCUMENT: json.dumps(full)}


def point_document(payload: dict[str, Any]) -> Document:
    """The document a point stores (also one written before the JSON form: every key)."""
    packed = payload.get(_DOCUMENT)
    return from_payload(json.loads(packed) if isinstance(packed, str) else payload)


def scope_filter(scope: Scope) -> qe.Filter:
    """The Qdrant filter for a scope; the tenant condition is always present."""
    must: list[Any] = [qe.FieldCondition(key="tenant", match=qe.MatchValue(scope.tenant))]
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            must.append(qe.FieldCondition(key=name, match=qe.MatchValue(value)))
    if scope.types:
        must.append(qe.FieldCondition(key="type", match=qe.MatchAny(list(scope.types))))
    if scope.speakers:
        must.append(qe.FieldCondition(key="speaker", match=qe.MatchAny(list(scope.speakers))))
    if scope.since is not None or scope.until is not None:
        since, until = scope.since.timestamp() if scope.since else None, scope.until.timestamp() if scope.until else None
        must.append(qe.FieldCondition(key="ts", range=qe.RangeFloat(gte=since, lt=until)))
    return qe.Filter(must=must)


def user_filter(tenant: str, user: str) -> qe.Filter:
    """Every point of one user of one tenant."""
    return qe.Filter(must=[qe.FieldCondition(key="tenant", match=qe.MatchValue(tenant)),
                           qe.FieldCondition(key="user", match=qe.MatchValue(user))])


def finish_rewrite(shard_dir: Path) -> None:
    """Complete or undo a purge's rewrite that a crash interrupted: a new shard not yet
    swapped in is dropped (the purge runs again: its SubjectErased is redelivered, the
    position being recorded only after it), an old one already swapped out is deleted."""
    old_dir, fresh_dir = shard_dir.with_name("shard.old"), shard_dir.with_name("shard.new")
    if old_dir.exists() and not shard_dir.exists():
        if fresh_dir.exists():
            fresh_dir.rename(shard_dir)
        else:
            old_dir.rename(shard_dir)
    shutil.rmtree(fresh_dir, ignore_errors=True)
    shutil.rmtree(old_dir, ignore_errors=True)


def _memory_scoped(scope: Scope) -> bool:
    """A scope the in-memory vectors can answer: one user, no session or agent filter."""
    return bool(scope.user) and scope.session is None and scope.agent is None


class QdrantEdgeIndex(VectorIndex):
    """Vectors and payloads in a Qdrant Edge shard under ``directory``.

    ``memory_bytes`` > 0: the searches of one user are answered from an in-memory copy
    of that user's vectors (``vector_memory``) once it is read from the shard, within
    that budget for all users together; the shard answers until then, and any scope
    with a session or agent filter."""

    def __init__(self, directory: Path, dim: int, *, memory_bytes: int = 0) -> None:
        self._dim = dim
        self._memory = MemoryVectors(memory_bytes, dim) if memory_bytes > 0 else None
        self._tasks: set[asyncio.Task[None]] = set()
        self._planning: set[UserKey] = set()
        self._with_points: set[UserKey] = set()
        self._dir = directory
        self._shard_dir = directory / "shard"
        self._position_path = directory / "position.json"
        self._write_lock = threading.Lock()
        self._guard = ShardGuard()  # reads against purge_user's swap of the shard
        self._config = qe.EdgeConfig(vectors=qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine))
        try:
            finish_rewrite(self._shard_dir)
            if self._shard_dir.exists() and any(self._shard_dir.iterdir()):
                self._shard = qe.EdgeShard.load(str(self._shard_dir), self._config)
            else:
                self._shard = self._create(self._shard_dir)
        except Exception as e:  # the binding raises plain Exceptions
            raise ProjectionError(f"cannot open the Qdrant Edge shard at {directory}: {e}") from e
        self._closed = False

    def _create(self, path: Path) -> Any:
        path.mkdir(parents=True, exist_ok=True)
        shard = qe.EdgeShard.create(str(path), self._config)
        for name in _KEYWORD_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        shard.update(qe.UpdateOperation.create_field_index("ts", qe.PayloadSchemaType.Float))
        shard.flush()
        return shard

    async def purge_user(self, tenant: str, user: str) -> int:
        """Deleted points stay in the shard's payload pages and its WAL (an optimize
        does not drop them), so the shard is rewritten without the user: every other
        point copied into a new shard, which then replaces the old one (see
        ``finish_rewrite`` for a crash in between)."""
        where = user_filter(tenant, user)

        def rewrite() -> int:
            with self._write_lock:
                gone = int(self._shard.count(qe.CountRequest(filter=where, exact=True)))
                if not gone:
                    return 0
                fresh_dir = self._shard_dir.with_name("shard.new")
                shutil.rmtree(fresh_dir, ignore_errors=True)
                fresh = self._create(fresh_dir)
                offset: Any = None
                while True:
                    records, offset = self._shard.scroll(qe.ScrollRequest(
                        offset=offset, limit=500, filter=qe.Filter(must_not=[where]),
                        with_payload=True, with_vector=True))
                    points = [qe.Point(id=r.id, vector=dense_vector(r.vector) or [], payload=dict(r.payload or {}))
                              for r in records]
                    if points:
                        fresh.update(qe.UpdateOperation.upsert_points(points))
                    if offset is None:
                        break
                fresh.flush()
                fresh.close()
                with self._guard.swapping():  # searches wait here for the new shard, not fail
                    self._shard.close()
                    old_dir = self._shard_dir.with_name("shard.old")
                    self._shard_dir.rename(old_dir)
                    fresh_dir.rename(self._shard_dir)
                    self._shard = qe.EdgeShard.load(str(self._shard_dir), self._config)
                shutil.rmtree(old_dir)
                return gone

        try:
            gone = await asyncio.to_thread(rewrite)
        except Exception as e:
            raise ProjectionError(f"Qdrant Edge purge failed: {e}") from e
        if self._memory is not None:
            self._memory.drop((tenant, user))
        self._with_points.discard((tenant, user))
        return gone

    def _read(self, method: str, *args: Any) -> Any:
        with self._guard.reading():
            return getattr(self._shard, method)(*args)

    def _guarded(self, fn: Callable[[], T]) -> T:
        with self._guard.reading():
            return fn()

    def defer_caches(self) -> None:
        if self._memory is not None:
            self._memory.follow_new_users = False

    async def upsert(self, items: Sequence[Embedded], position: Position) -> None:
        points = [
            qe.Point(id=item.document.id, vector=list(item.vector),
                     payload=point_payload(item.document, item.model))
            for item in items
        ]

        memory = self._memory

        def write() -> None:
            with self._write_lock:
                users = {(i.document.tenant, i.document.user) for i in items}
                fresh = memory.fresh(users, self._with_points, lambda key: bool(self._shard.count(
                    qe.CountRequest(filter=user_filter(*key), exact=True)))) if memory else set()
                if points:
                    self._shard.update(qe.UpdateOperation.upsert_points(points))
                self._shard.flush()
                write_position(self._position_path, position)
                if memory is not None:
                    self._remember(memory, fresh, items)

        try:
            await asyncio.to_thread(write)
        except Exception as e:
            raise ProjectionError(f"Qdrant Edge upsert failed: {e}") from e

    @staticmethod
    def _remember(memory: MemoryVectors, fresh: set[UserKey], items: Sequence[Embedded]) -> None:
        """After the write: the points into the in-memory vectors that hold their users."""
        for key in fresh:
            memory.start_empty(key)
        per_user: dict[UserKey, list[VectorPoint]] = {}
        for item in items:
            d = item.document
            key = (d.tenant, d.user)
            if key in per_user or memory.known(key):
                per_user.setdefault(key, []).append(
                    VectorPoint(d.id, unit(item.vector), d.type, d.speaker, d.occurred_at.timestamp()))
        for key, batch in per_user.items():
            memory.apply(key, batch)

    def memory_stats(self) -> dict[str, int] | None:
        """The in-memory vectors: users ready and building, those whose inverted lists are
        being built (``listing``: their searches stay exact meanwhile), points, bytes
        (None: off)."""
        if self._memory is None:
            return None
        return {**self._memory.stats(), "listing": len(self._planning)}

    def _start(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _memory_searches(self, searches: Sequence[VectorSearch], *,
                               read: bool = True) -> list[list[Found]] | None:
        """The searches served from their user's in-memory vectors, all in one worker
        thread (one hop, one lock, one read of the documents they found, unless not
        ``read``: ids and scores only); None when they cannot be (not all of one user,
        see ``_memory_scoped``; not read yet: the first such search starts the read)."""
        memory = self._memory
        keys = {(s.scope.tenant, str(s.scope.user)) for s in searches}
        if memory is None or len(keys) != 1 or not all(_memory_scoped(s.scope) for s in searches):
            return None
        key = keys.pop()
        asked = [(unit(s.vector), s.k, s.scope) for s in searches]

        def find(index: UserVectors) -> tuple[list[list[tuple[str, float]]], bool]:
            found = [index.search(query, k, types=scope.types, speakers=scope.speakers,
                                  since=scope.since.timestamp() if scope.since is not None else None,
                                  until=scope.until.timestamp() if scope.until is not None else None)
                     for query, k, scope in asked]
            return found, index.wants_lists()

        def found_and_read() -> tuple[tuple[list[list[tuple[str, float]]], bool] | None, list[Document]]:
            # The documents are read from the shard in the same worker thread: one
            # hop to a thread and back for all the searches, not two for each.
            answer = memory.read(key, find)
            ids = [] if answer is None else list(dict.fromkeys(i for found in answer[0] for i, _ in found))
            if not ids or not read:
                return answer, []
            try:
                return answer, self._documents(key[0], ids)
            except Exception as e:
                raise ProjectionError(f"Qdrant Edge retrieve failed: {e}") from e

        answer, documents = await asyncio.to_thread(found_and_read)
        if answer is None:
            if memory.claim_build(key):
                self._start(self._build(key))
            return None
        founds, wants_lists = answer
        if wants_lists:
            self._plan_soon(key)
        if not read:  # a point gone from the shard some other way is left out when read
            return [[Found(i, score) for i, score in found] for found in founds]
        docs = {d.id: d for d in documents}
        stale = {i for found in founds for i, _ in found if i not in docs or (docs[i].tenant, docs[i].user) != key}
        if stale:
            memory.remove(key, list(stale))  # gone from the shard some other way: never shown
        return [[Found(i, score, docs[i]) for i, score in found if i not in stale] for found in founds]

    def read_user(self, tenant: str, user: str) -> UserVectors:
        """One user's vectors and filtered keys, read from the shard into a new in-memory
        index (blocking: run it in a worker thread)."""
        index = UserVectors(self._dim)
        where = user_filter(tenant, user)
        offset: Any = None
        while True:
            records, offset = self._guarded(lambda: self._shard.scroll(qe.ScrollRequest(
                offset=offset, limit=_BUILD_BATCH, filter=where,
                with_payload=["id", "type", "speaker", "ts"], with_vector=True)))
            # Only dense vectors of the index's size (all Hindsight writes), converted and
            # normalised per batch: per point, that was most of the read's time.
            dense = [r for r in records if isinstance(r.vector, list) and len(r.vector) == self._dim]
            if dense:
                index.apply(
                    VectorPoint(str(p["id"]), row, str(p.get("type") or ""), p.get("speaker"),
                                float(p.get("ts") or 0.0))
                    for r, row in zip(dense, unit_rows([r.vector for r in dense]), strict=True)
                    for p in [r.payload or {}])
            if offset is None:
                return index

    async def _build(self, key: UserKey) -> None:
        """Read one user's vectors from the shard into a new in-memory index."""
        assert self._memory is not None
        read = asyncio.to_thread(self.read_user, *key)
        if await self._memory.build(key, read, "vectors") is not None:
            if self._memory.read(key, lambda i: i.wants_lists()):
                self._plan_soon(key)

    def _plan_soon(self, key: UserKey) -> None:
        if key not in self._planning:
            self._planning.add(key)
            self._start(self._plan(key))

    async def _plan(self, key: UserKey) -> None:
        """Build the user's inverted lists in a worker thread, then adopt them."""
        assert self._memory is not None
        try:
            snapshot = self._memory.read(key, lambda index: index.snapshot())
            if snapshot is None:
                return
            started = asyncio.get_running_loop().time()
            plan = await asyncio.to_thread(plan_lists, *snapshot)
            await asyncio.to_thread(self._memory.write, key, lambda index: index.adopt_lists(plan))
            log.info("inverted lists of a user's vectors ready: %d lists over %d points in %.1f s",
                     len(plan.centroids), plan.rows, asyncio.get_running_loop().time() - started)
        except Exception:
            log.exception("building a user's inverted lists failed; its searches stay exact")
        finally:
            self._planning.discard(key)

    async def search(self, scope: Scope, vector: Sequence[float], k: int) -> list[Hit]:
        served = await self._memory_searches([VectorSearch(scope, vector, k)])
        if served is not None:
            return as_hits(served[0])
        request = qe.QueryRequest(
            limit=k,
            query=qe.Query.Nearest(list(vector)),
            filter=scope_filter(scope),
            with_payload=True,
        )
        try:
            points = await asyncio.to_thread(self._read, "query", request)
        except Exception as e:
            raise ProjectionError(f"Qdrant Edge query failed: {e}") from e
        return [Hit(point_document(dict(p.payload or {})), float(p.score)) for p in points]

    async def search_many(self, searches: Sequence[VectorSearch]) -> list[list[Hit]]:
        served = await self._memory_searches(searches) if searches else None
        return [as_hits(f) for f in served] if served is not None else await super().search_many(searches)

    async def find_many(self, searches: Sequence[VectorSearch]) -> list[list[Found]]:
        served = await self._memory_searches(searches, read=False) if searches else None
        return served if served is not None else await super().find_many(searches)

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        try:
            return await asyncio.to_thread(self._documents, tenant, ids)
        except Exception as e:
            raise ProjectionError(f"Qdrant Edge retrieve failed: {e}") from e

    def _documents(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        """``get``'s work (blocking: run it in a worker thread)."""
        points: list[Any] = list(uuid_ids(ids))  # a point id is a UUID: no other id names one
        if not points:
            return []
        records = self._read("retrieve", points, True, False)
        return in_order(tenant, ids, [point_document(dict(r.payload or {})) for r in records])

    async def vectors(self, tenant: str, ids: Sequence[str]) -> dict[str, list[float]]:
        points: list[Any] = list(uuid_ids(ids))
        if not points:
            return {}
        try:
            records = await asyncio.to_thread(self._read, "retrieve", points, True, True)
        except Exception as e:
            raise ProjectionError(f"Qdrant Edge retrieve failed: {e}") from e
        found = {str(r.id): dense_vector(r.vector) for r in records if (r.payload or {}).get("tenant") == tenant}
        return {doc_id: v for doc_id, v in found.items() if v is not None}

    async def other_models(self, model: str) -> tuple[int, list[str]]:
        where = qe.Filter(must_not=[qe.FieldCondition(key="embedding_model", match=qe.MatchValue(model))])

        def census() -> tuple[int, list[str]]:
            n = int(self._shard.count(qe.CountRequest(filter=where, exact=True)))
            if not n:
                return 0, []
            records, _ = self._shard.scroll(
                qe.ScrollRequest(limit=100, filter=where, with_payload=["embedding_model"]))
            names = sorted({str((r.payload or {}).get("embedding_model") or "") for r in records})
            return n, names[:5]

        try:
            return await asyncio.to_thread(self._guarded, census)
        except Exception as e:
            raise ProjectionError(f"Qdrant Edge count failed: {e}") from e

    async def position(self) -> Position:
        return read_position(self._position_path)

    async def count(self, tenant: str) -> int:
        request = qe.CountRequest(filter=scope_filter(Scope(tenant=tenant)), exact=True)
        return int(await asyncio.to_thread(self._read, "count", request))

    async def ids(self, tenant: str) -> list[str]:
        def scan() -> list[str]:
            out: list[str] = []
            offset: Any = None
            while True:
                records, offset = self._shard.scroll(
                    qe.ScrollRequest(
                        offset=offset,
                        limit=1000,
                        filter=scope_filter(Scope(tenant=tenant)),
                        with_payload=["id"],
                    )
                )
                out += [str((r.payload or {})["id"]) for r in records]
                if offset is None:
                    return sorted(out)

        return await asyncio.to_thread(self._guarded, scan)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._memory is not None:
            self._memory.drop_all()
        if not self._closed:
            self._closed = True
            with self._write_lock:
                self._shard.flush()
                self._shard.close()
