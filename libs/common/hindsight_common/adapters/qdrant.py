"""Cluster vector projection on a Qdrant server, through ``qdrant-client``.

Layout (one collection for every tenant; the tenant is a filter, enforced here):

- the data lives in a versioned collection, ``<name>_v<N>`` (``hindsight_vectors_v1``),
  reached through an alias, ``<name>`` (``hindsight_vectors``), so a rebuild can fill
  ``_v2`` and swap the alias atomically (docs/architecture.md, "Rebuilding a
  projection"). Every read and write goes through the alias, so a running process
  follows a swap, except a write to a collection that records its model (metadata
  ``embedding_model``): it goes to the collection the model was read from (``upsert``).
  On the first start the adapter creates ``_v<N>`` and the alias; when the alias already
  exists it is used as it is (moving it is the rebuild's job, never the adapter's).
- the log position is kept in the same collection, one reserved point per position key
  (``stream#partition``), so it moves with the data when the alias is swapped and a
  stateless process finds it again after a restart. Those points carry no ``tenant``
  field; every query filters on the tenant, so they never show up in search, count or
  ids. One point per key (rather than one point for the whole position) means two
  processes that own different partitions never overwrite each other's offsets.

Set-up (create the collection, its payload indexes and the alias; check the dimension)
needs the async client, so it runs lazily on the first call, once, under an
``asyncio.Lock``; :meth:`QdrantIndex.__init__` does no I/O, which keeps the factory sync.

qdrant-client's *local mode* (``":memory:"`` or a directory, no server) runs the same
code; it is what the tests use, since no Qdrant server can be installed on our machines.
Its limits: payload indexes have no effect there (they are created anyway, so the code
path is the one a server runs); one client per directory; it runs on the event loop and
scans linearly, so it is for tests and small development setups only. Local mode in
qdrant-client >= 1.12 keeps aliases; should a client not support them
(``NotImplementedError``), the adapter falls back to the versioned collection name and
logs it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import warnings
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import httpx
from qdrant_client import AsyncQdrantClient, models
from qdrant_client.common.client_exceptions import QdrantException
from qdrant_client.http.exceptions import ApiException, UnexpectedResponse

from hindsight_common.adapters.qdrant_filters import scope_filter, user_filter
from hindsight_common.documents import dense_vector, from_payload, in_order, uuid_ids, vector_payload
from hindsight_common.embedder_check import MODEL_META, refuse_other_models
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Document, Embedded, Hit, Scope, VectorIndex

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_COLLECTION = "hindsight_vectors"
DEFAULT_TIMEOUT_S = 10.0

_KEYWORD_FIELDS = ("tenant", "user", "session", "agent", "type", "speaker")
# Payload of the reserved position points. Documents never have a "meta" field
# (see documents.to_payload), and position points never have a "tenant" field.
_META_FIELD = "meta"
_POSITION = "position"
_POSITION_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "hindsight:vector-index:position")
_SCROLL_PAGE = 1000

# What qdrant-client raises: HTTP errors and bad responses (ApiException and its
# subclasses, httpx errors), its own errors, our timeout; local mode raises plain
# ValueError (e.g. unknown collection, bad id), RuntimeError (closed client, directory
# locked by another client) and OSError (its files).
_DRIVER_ERRORS = (
    ApiException,
    QdrantException,
    httpx.HTTPError,
    TimeoutError,
    ValueError,
    RuntimeError,
    OSError,
)


def _position_filter() -> models.Filter:
    return models.Filter(
        must=[models.FieldCondition(key=_META_FIELD, match=models.MatchValue(value=_POSITION))]
    )


def _position_point_id(key: str) -> str:
    return str(uuid.uuid5(_POSITION_NAMESPACE, key))


class QdrantIndex(VectorIndex):
    """Vectors and payloads in a Qdrant collection behind an alias.

    Give exactly one of ``url`` (a server, ``http(s)://host:6333``), ``path`` (local
    mode, persisted in that directory) or ``in_memory=True`` (local mode, in memory).
    ``version`` is the collection version created when neither the alias nor the
    collection exists yet. ``timeout_s`` bounds every call (HTTP timeout and an
    asyncio timeout around it).
    """

    def __init__(
        self,
        dim: int,
        *,
        url: str | None = None,
        path: str | None = None,
        in_memory: bool = False,
        api_key: str | None = None,
        collection: str = DEFAULT_COLLECTION,
        version: int = 1,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        model: str | None = None,
    ) -> None:
        if sum((url is not None, path is not None, in_memory)) != 1:
            raise ValueError("give exactly one of url=, path= or in_memory=True")
        self._dim = dim
        self._model = model
        self._alias = collection
        self._versioned = f"{collection}_v{version}"
        self._timeout_s = timeout_s
        self._local = url is None
        self._where = url or path or ":memory:"
        try:
            if url is not None:
                # check_compatibility would send a blocking request from a thread at
                # construction and report only through a warning; the lazy set-up
                # below reaches the server and raises ProjectionError if it cannot.
                self._client = AsyncQdrantClient(
                    url=url,
                    api_key=api_key,
                    timeout=max(1, round(timeout_s)),
                    check_compatibility=False,
                )
            elif path is not None:
                self._client = AsyncQdrantClient(path=path)
            else:
                self._client = AsyncQdrantClient(location=":memory:")
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"cannot open Qdrant at {self._where}: {e}") from e
        self._target: str | None = None  # the name every call uses, once set up
        self._setup_lock = asyncio.Lock()
        self._closed = False

    @classmethod
    def from_location(
        cls, location: str, dim: int, *, collection: str = DEFAULT_COLLECTION, model: str | None = None,
    ) -> QdrantIndex:
        """``http(s)://...`` -> a server; ``:memory:`` -> local mode in memory;
        anything else -> local mode persisted in that directory."""
        if location.startswith(("http://", "https://")):
            return cls(dim, url=location, collection=collection, model=model)
        if location == ":memory:":
            return cls(dim, in_memory=True, collection=collection, model=model)
        return cls(dim, path=location, collection=collection, model=model)

    # -- the port -------------------------------------------------------------

    async def upsert(self, items: Sequence[Embedded], position: Position) -> None:
        """In a collection that records its model, another model's vectors are refused
        and the batch goes to that collection (see ``ElasticsearchVectorIndex.upsert``)."""
        target = await self._ready()
        if items:
            collection, recorded = await self._live()
            if recorded is not None:
                refuse_other_models(items, recorded, f"Qdrant collection {collection} ({self._alias})")
                target = collection
        points = [models.PointStruct(id=item.document.id, vector=[float(x) for x in item.vector],
                                     payload=vector_payload(item.document, item.model)) for item in items]
        if points:
            await self._call("upsert", lambda: self._client.upsert(collection_name=target, points=points, wait=True))
        # After the data, so the recorded position is never ahead of it.
        await self._record_position(target, position)

    async def live_model(self) -> str | None:
        return (await self._live())[1]

    async def _live(self) -> tuple[str, str | None]:
        """The collection the alias points at now and the model it records (None: none)."""
        target = await self._ready()
        collection = target
        if target == self._alias:
            aliases = await self._call("list aliases", self._client.get_aliases)
            collection = next((a.collection_name for a in aliases.aliases if a.alias_name == target), target)
        info = await self._call("get collection", lambda: self._client.get_collection(collection))
        model = (getattr(info.config, "metadata", None) or {}).get(MODEL_META)
        return collection, str(model) if model else None

    async def purge_user(self, tenant: str, user: str) -> int:
        target = await self._ready()
        where = user_filter(tenant, user)
        gone = await self._call("count", lambda: self._client.count(collection_name=target, count_filter=where,
                                                                      exact=True))
        await self._call("delete", lambda: self._client.delete(
            collection_name=target, points_selector=models.FilterSelector(filter=where), wait=True))
        return int(gone.count)

    async def search(self, scope: Scope, vector: Sequence[float], k: int) -> list[Hit]:
        target = await self._ready()
        response = await self._call(
            "query",
            lambda: self._client.query_points(
                collection_name=target,
                query=[float(x) for x in vector],
                query_filter=scope_filter(scope),
                limit=k,
                with_payload=True,
            ),
        )
        return [Hit(from_payload(dict(p.payload or {})), float(p.score)) for p in response.points]

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        points = uuid_ids(ids)  # a point id is a UUID: any other id names nothing
        if not points:
            return []
        target = await self._ready()
        records = await self._call(
            "retrieve",
            lambda: self._client.retrieve(
                collection_name=target, ids=points, with_payload=True, with_vectors=False
            ),
        )
        # Position points have no tenant: in_order leaves them out with other tenants'.
        found = [from_payload(dict(r.payload or {})) for r in records if (r.payload or {}).get("tenant")]
        return in_order(tenant, ids, found)

    async def vectors(self, tenant: str, ids: Sequence[str]) -> dict[str, list[float]]:
        points = uuid_ids(ids)
        if not points:
            return {}
        target = await self._ready()
        records = await self._call(
            "retrieve",
            lambda: self._client.retrieve(
                collection_name=target, ids=points, with_payload=["tenant"], with_vectors=True
            ),
        )
        found = {str(r.id): dense_vector(r.vector) for r in records if (r.payload or {}).get("tenant") == tenant}
        return {doc_id: v for doc_id, v in found.items() if v is not None}

    async def position(self) -> Position:
        target = await self._ready()
        records = await self._scroll(target, _position_filter(), ["key", "offset"])
        return {
            str(payload["key"]): int(payload["offset"])
            for payload in (r.payload or {} for r in records)
        }

    async def count(self, tenant: str) -> int:
        target = await self._ready()
        result = await self._call(
            "count",
            lambda: self._client.count(
                collection_name=target, count_filter=scope_filter(Scope(tenant=tenant)), exact=True
            ),
        )
        return int(result.count)

    async def other_models(self, model: str) -> tuple[int, list[str]]:
        target = await self._ready()
        where = models.Filter(must_not=[
            models.FieldCondition(key="embedding_model", match=models.MatchValue(value=model)),
            models.FieldCondition(key=_META_FIELD, match=models.MatchValue(value=_POSITION)),
        ])
        result = await self._call(
            "count", lambda: self._client.count(collection_name=target, count_filter=where, exact=True))
        if not result.count:
            return 0, []
        records, _ = await self._call("scroll", lambda: self._client.scroll(
            collection_name=target, scroll_filter=where, limit=100, with_payload=["embedding_model"]))
        names = sorted({str((r.payload or {}).get("embedding_model") or "") for r in records})
        return int(result.count), names[:5]

    async def ids(self, tenant: str) -> list[str]:
        target = await self._ready()
        records = await self._scroll(target, scope_filter(Scope(tenant=tenant)), ["id"])
        return sorted(str((r.payload or {})["id"]) for r in records)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self._client.close(), self._timeout_s)
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"closing Qdrant at {self._where} failed: {e}") from e

    # -- internals ------------------------------------------------------------

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        """Run one client call with a timeout; driver errors become ProjectionError."""
        try:
            async with asyncio.timeout(self._timeout_s):
                return await make()
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"Qdrant {what} on {self._where} failed: {e}") from e

    async def _scroll(
        self, target: str, where: models.Filter, fields: list[str]
    ) -> list[models.Record]:
        out: list[models.Record] = []
        # The client types the next-page offset as REST or gRPC point ids depending
        # on its version; we only pass it back unchanged.
        offset: Any = None
        while True:
            page_offset = offset
            records, offset = await self._call(
                "scroll",
                lambda: self._client.scroll(
                    collection_name=target,
                    scroll_filter=where,
                    limit=_SCROLL_PAGE,
                    offset=page_offset,
                    with_payload=fields,
                ),
            )
            out += records
            if offset is None:
                return out

    async def _record_position(self, target: str, position: Position) -> None:
        if not position:
            return
        # Keep the highest offset per key, like the embedded position file: a
        # redelivered older batch must not move the position back.
        ids = {key: _position_point_id(key) for key in position}
        existing = await self._call(
            "retrieve position",
            lambda: self._client.retrieve(
                collection_name=target, ids=list(ids.values()), with_payload=True
            ),
        )
        current = {str((r.payload or {})["key"]): int((r.payload or {})["offset"]) for r in existing}
        # Position points need a vector (the collection has one unnamed vector); any
        # non-zero one will do, they are never searched (no tenant field).
        unit = [1.0] + [0.0] * (self._dim - 1)
        points = [
            models.PointStruct(
                id=ids[key],
                vector=unit,
                payload={_META_FIELD: _POSITION, "key": key, "offset": int(offset)},
            )
            for key, offset in position.items()
            if offset > current.get(key, -1)
        ]
        if points:
            await self._call(
                "write position",
                lambda: self._client.upsert(collection_name=target, points=points, wait=True),
            )

    async def _ready(self) -> str:
        """The collection name to use, after the one-time set-up."""
        if self._target is not None:
            return self._target
        if self._closed:
            raise ProjectionError(f"the Qdrant index at {self._where} is closed")
        async with self._setup_lock:
            if self._target is None:
                self._target = await self._set_up()
        return self._target

    async def _set_up(self) -> str:
        try:
            aliases = await self._call("list aliases", self._client.get_aliases)
        except NotImplementedError:
            log.warning(
                "this Qdrant client keeps no aliases; using collection %s directly",
                self._versioned,
            )
            await self._create_collection()
            await self._check_dimension(self._versioned)
            return self._versioned
        if not any(a.alias_name == self._alias for a in aliases.aliases):
            await self._create_collection()
            await self._create_alias()
        await self._check_dimension(self._alias)
        return self._alias

    async def _create_collection(self) -> None:
        if await self._call(
            "collection exists", lambda: self._client.collection_exists(self._versioned)
        ):
            return
        log.info("creating Qdrant collection %s (dim %d, cosine)", self._versioned, self._dim)
        try:
            await self._call(
                "create collection",
                lambda: self._client.create_collection(
                    collection_name=self._versioned,
                    vectors_config=models.VectorParams(size=self._dim, distance=models.Distance.COSINE),
                    metadata={MODEL_META: self._model} if self._model else None,
                ),
            )
        except ProjectionError as e:
            if not _is_conflict(e):  # another process created it first: fine
                raise
        schemas: list[tuple[str, models.PayloadSchemaType]] = [
            (name, models.PayloadSchemaType.KEYWORD) for name in (*_KEYWORD_FIELDS, _META_FIELD)
        ]
        schemas.append(("ts", models.PayloadSchemaType.FLOAT))
        for name, schema in schemas:
            await self._create_payload_index(name, schema)

    async def _create_payload_index(self, name: str, schema: models.PayloadSchemaType) -> None:
        with warnings.catch_warnings():
            # Local mode warns that payload indexes have no effect there; they matter
            # on a server, and creating them in local mode keeps one code path.
            warnings.filterwarnings(
                "ignore", message="Payload indexes have no effect", category=UserWarning
            )
            await self._call(
                f"create payload index {name}",
                lambda: self._client.create_payload_index(
                    collection_name=self._versioned, field_name=name, field_schema=schema, wait=True
                ),
            )

    async def _create_alias(self) -> None:
        log.info("creating Qdrant alias %s -> %s", self._alias, self._versioned)
        operation = models.CreateAliasOperation(
            create_alias=models.CreateAlias(collection_name=self._versioned, alias_name=self._alias)
        )
        try:
            await self._call(
                "create alias", lambda: self._client.update_collection_aliases([operation])
            )
        except ProjectionError as e:
            if not _is_conflict(e):  # another process created it first: fine
                raise

    async def _check_dimension(self, name: str) -> None:
        info = await self._call("get collection", lambda: self._client.get_collection(name))
        vectors: Any = info.config.params.vectors
        size = getattr(vectors, "size", None)
        if size is not None and size != self._dim:
            raise ProjectionError(
                f"Qdrant collection {name} holds {size}-dimensional vectors but the embedder "
                f"makes {self._dim}: rebuild the vector projection into a new version"
            )


def _is_conflict(e: ProjectionError) -> bool:
    cause = e.__cause__
    return isinstance(cause, UnexpectedResponse) and cause.status_code == 409
