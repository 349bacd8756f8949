"""Cluster text projection: BM25 on an Elasticsearch 8 server (``AsyncElasticsearch``).

Layout (one index for every tenant; the tenant is a filter, enforced here):

- the data lives in a versioned index, ``<alias>_v<N>`` (``hindsight_text_v1``), reached
  through an alias, ``<alias>`` (``hindsight_text``), so a rebuild can fill ``_v2`` and
  swap the alias atomically. Every read and write goes through the alias (writes with
  ``require_alias``, so a missing alias never auto-creates a stray index). On first use
  the adapter creates ``_v<N>`` together with its alias in one request; when the alias
  exists it is used as it is (moving it is the rebuild's job).
- the log position is kept in the same index, one reserved document per position key
  (``_id`` ``position:<stream#partition>``, a ``meta`` field, no ``tenant``), so it moves
  with the data on a swap. Every query filters on the tenant, so they never show up.

Analysis: the ``body`` field holds the document's English terms, computed in Python by
:mod:`hindsight_common.adapters.elasticsearch_analysis` (folding, possessives, stop
words, Porter stemming), because the integ-test distribution that development and CI
run has no stemmer, no ``asciifolding`` and no ``english`` analyzer. Its server-side
analyzer, ``standard`` tokenizer + ``lowercase``, only splits those terms on spaces,
and queries go through the same functions, so index and query terms always agree.
Changing the analysis changes the terms: rebuild into a new ``_v<N>``.

Set-up runs lazily on the first call, once, under an ``asyncio.Lock``;
:meth:`ElasticsearchIndex.__init__` does no I/O, which keeps the factory sync.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from elastic_transport import HttpxAsyncHttpNode
from elasticsearch import ApiError, AsyncElasticsearch, TransportError

from hindsight_common.adapters.elasticsearch_analysis import analyze, search_terms
from hindsight_common.documents import from_payload, to_payload
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Browse, Document, Hit, Scope, TextIndex

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_ALIAS = "hindsight_text"
DEFAULT_TIMEOUT_S = 10.0

_KEYWORD_FIELDS = ("id", "tenant", "user", "session", "agent", "type", "kind", "key")
_META_FIELD = "meta"
_POSITION = "position"
_POSITION_ID = "position:"  # + key; document ids are UUIDs, so never collide
_PAGE = 1000
# Newest first; equal times in log order (the embedded adapter's insertion order),
# then by id so that every answer is deterministic.
_NEWEST_FIRST = [{"ts": "desc"}, {"offset": "desc"}, {"id": "desc"}]
_MAX_WINDOW = 10_000  # index.max_result_window's default
_DRIVER_ERRORS = (ApiError, TransportError, TimeoutError)


# -- queries --------------------------------------------------------------------


def scope_filter(scope: Scope) -> list[dict[str, Any]]:
    """Filter clauses for a scope; the tenant clause is always there. Same conditions as
    the embedded adapter's: since inclusive, until exclusive."""
    clauses: list[dict[str, Any]] = [{"term": {"tenant": scope.tenant}}]
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            clauses.append({"term": {name: value}})
    if scope.types:
        clauses.append({"terms": {"type": list(scope.types)}})
    if scope.since is not None or scope.until is not None:
        bounds: dict[str, float] = {}
        if scope.since is not None:
            bounds["gte"] = scope.since.timestamp()
        if scope.until is not None:
            bounds["lt"] = scope.until.timestamp()
        clauses.append({"range": {"ts": bounds}})
    return clauses


def _source(doc: Document) -> dict[str, Any]:
    payload = to_payload(doc)
    source = {name: payload[name] for name in _KEYWORD_FIELDS}
    source.update(occurred_at=payload["occurred_at"], ts=payload["ts"], offset=doc.offset,
                  tags=payload["tags"],
                  body=" ".join(analyze(doc.search_text)), payload=payload)
    return source


def _operations(alias: str, documents: Sequence[Document]) -> list[dict[str, Any]]:
    operations: list[dict[str, Any]] = []
    for doc in documents:
        operations += [{"index": {"_index": alias, "_id": doc.id}}, _source(doc)]
    return operations


class ElasticsearchIndex(TextIndex):
    """Documents, their terms and the log position in one index behind an alias.

    ``version`` is the index version created when the alias does not exist yet;
    ``shards``, ``replicas`` and ``refresh_interval`` are that index's settings.
    ``timeout_s`` bounds every call (the client's request timeout and an asyncio
    timeout around it).
    """

    def __init__(
        self,
        url: str,
        *,
        alias: str = DEFAULT_ALIAS,
        version: int = 1,
        shards: int = 1,
        replicas: int = 0,
        refresh_interval: str = "1s",
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self._url = url
        self._alias = alias
        self._versioned = f"{alias}_v{version}"
        self._settings = {"number_of_shards": shards, "number_of_replicas": replicas,
                          "refresh_interval": refresh_interval}
        self._timeout_s = timeout_s
        try:
            # httpx (a dependency already) rather than aiohttp, the async default.
            self._client = AsyncElasticsearch(url, node_class=HttpxAsyncHttpNode, request_timeout=timeout_s)
        except (ValueError, TransportError) as e:
            raise ProjectionError(f"cannot use Elasticsearch at {url}: {e}") from e
        self._ready_flag = False
        self._setup_lock = asyncio.Lock()
        self._closed = False

    # -- the port -------------------------------------------------------------

    async def upsert(self, documents: Sequence[Document], position: Position) -> None:
        await self._ready()
        if documents:
            # Analysis is CPU work: off the event loop.
            operations = await asyncio.to_thread(_operations, self._alias, documents)
            # refresh="wait_for": the projector acknowledges the log only after this
            # returns, and /v1/status then says recall sees the write; waiting for the
            # next scheduled refresh (rather than forcing one) keeps segments large.
            # Durability needs no refresh: the translog is fsynced before the answer.
            await self._bulk("write", operations, refresh="wait_for")
        # After the data, so the recorded position is never ahead of it.
        await self._record_position(position)

    async def search(self, scope: Scope, query: str, k: int) -> list[Hit]:
        terms = search_terms(query)
        if not terms or k <= 0:
            return []
        await self._ready()
        match = {"match": {"body": {"query": " ".join(terms), "operator": "or"}}}
        response = await self._call("search", lambda: self._client.search(
            index=self._alias,
            query={"bool": {"filter": scope_filter(scope), "must": [match]}},
            sort=[{"_score": "desc"}, {"id": "asc"}],
            size=min(k, _MAX_WINDOW),
            source_includes=["payload"],
            track_total_hits=False,
        ))
        return [Hit(from_payload(h["_source"]["payload"]), float(h["_score"]))
                for h in response["hits"]["hits"]]

    async def session_documents(
        self, tenant: str, user: str, session: str, limit: int
    ) -> list[Document]:
        if limit <= 0:
            return []
        await self._ready()
        scope = Scope(tenant=tenant, user=user, session=session, types=("episodic", "summary"))
        return await self._newest("session documents", scope_filter(scope), min(limit, _MAX_WINDOW), 0)

    async def browse(self, request: Browse) -> list[Document]:
        if request.limit <= 0:
            return []
        await self._ready()
        where = scope_filter(request.scope)
        for name, values in (("kind", request.kinds), ("key", request.keys)):
            if values:
                where.append({"terms": {name: list(values)}})
        where += [{"term": {"tags": tag}} for tag in request.tags]  # every tag
        # Paging by from/size: limit + offset beyond index.max_result_window (10,000)
        # is refused by the server (a ProjectionError).
        return await self._newest("browse", where, request.limit, request.offset)

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        await self._ready()
        # A realtime multi-get; the tenant is checked here (mget cannot filter), which
        # also leaves out the position documents (they have no payload).
        response = await self._call("get", lambda: self._client.mget(
            index=self._alias, ids=wanted, source_includes=["payload"]))
        found = {
            d["_id"]: from_payload(d["_source"]["payload"])
            for d in response["docs"]
            if d.get("found") and d["_source"].get("payload", {}).get("tenant") == tenant
        }
        return [found[i] for i in wanted if i in found]

    async def position(self) -> Position:
        await self._ready()
        # Position documents are written without waiting for a refresh (see
        # _record_position); make them visible here, where it is rare and cheap.
        await self._call("refresh", lambda: self._client.indices.refresh(index=self._alias))
        response = await self._call("read position", lambda: self._client.search(
            index=self._alias,
            query={"term": {_META_FIELD: _POSITION}},
            size=_MAX_WINDOW,
            source_includes=["position_key", "offset"],
        ))
        return {str(h["_source"]["position_key"]): int(h["_source"]["offset"])
                for h in response["hits"]["hits"]}

    async def count(self, tenant: str) -> int:
        await self._ready()
        response = await self._call("count", lambda: self._client.count(
            index=self._alias, query={"term": {"tenant": tenant}}))
        return int(response["count"])

    async def ids(self, tenant: str) -> list[str]:
        await self._ready()
        out: list[str] = []
        after: list[Any] | None = None
        while True:
            page_after = after
            response = await self._call("list ids", lambda: self._client.search(
                index=self._alias,
                query={"term": {"tenant": tenant}},
                sort=[{"id": "asc"}],
                size=_PAGE,
                source=False,
                search_after=page_after,
                track_total_hits=False,
            ))
            hits = response["hits"]["hits"]
            out += [str(h["sort"][0]) for h in hits]
            if len(hits) < _PAGE:
                return out
            after = hits[-1]["sort"]

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self._client.close(), self._timeout_s)
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"closing Elasticsearch at {self._url} failed: {e}") from e

    # -- internals ------------------------------------------------------------

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        """One client call with a timeout; driver errors become ProjectionError."""
        if self._closed:
            raise ProjectionError(f"the Elasticsearch text index {self._alias} is closed")
        try:
            async with asyncio.timeout(self._timeout_s):
                return await make()
        except _DRIVER_ERRORS as e:
            raise ProjectionError(
                f"Elasticsearch {what} on {self._alias} at {self._url} failed: {e}"
            ) from e

    async def _newest(
        self, what: str, where: list[dict[str, Any]], limit: int, offset: int
    ) -> list[Document]:
        response = await self._call(what, lambda: self._client.search(
            index=self._alias,
            query={"bool": {"filter": where}},
            sort=_NEWEST_FIRST,
            from_=offset,
            size=limit,
            source_includes=["payload"],
            track_total_hits=False,
        ))
        return [from_payload(h["_source"]["payload"]) for h in response["hits"]["hits"]]

    async def _bulk(self, what: str, operations: list[dict[str, Any]], refresh: str) -> None:
        response = await self._call(what, lambda: self._client.bulk(
            operations=operations, refresh=refresh, require_alias=True))
        if not response["errors"]:
            return
        failed = [item for entry in response["items"] for item in entry.values()
                  if "error" in item]
        first = failed[0]
        error = first["error"]
        raise ProjectionError(
            f"Elasticsearch {what} on {self._alias}: {len(failed)} of {len(response['items'])} "
            f"operations failed; first, {first.get('_id')}: {error.get('type')}: "
            f"{error.get('reason')}"
        )

    async def _record_position(self, position: Position) -> None:
        if not position:
            return
        # Keep the highest offset per key: a redelivered older batch must not move the
        # position back. A realtime get sees the last write without a refresh. (No
        # scripted max: this distribution has no painless.)
        ids = {key: _POSITION_ID + key for key in position}
        response = await self._call("read position", lambda: self._client.mget(
            index=self._alias, ids=list(ids.values()), source_includes=["offset"]))
        current = {d["_id"]: int(d["_source"]["offset"]) for d in response["docs"] if d.get("found")}
        operations: list[dict[str, Any]] = []
        for key, offset in position.items():
            if offset > current.get(ids[key], -1):
                operations += [{"index": {"_index": self._alias, "_id": ids[key]}},
                               {_META_FIELD: _POSITION, "position_key": key, "offset": int(offset)}]
        if operations:
            # No refresh wait: position() refreshes before it reads, and mget is realtime.
            await self._bulk("write position", operations, refresh="false")

    async def _ready(self) -> None:
        if self._ready_flag:
            return
        if self._closed:
            raise ProjectionError(f"the Elasticsearch text index {self._alias} is closed")
        async with self._setup_lock:
            if not self._ready_flag:
                await self._set_up()
                self._ready_flag = True

    async def _set_up(self) -> None:
        if await self._call("check alias", lambda: self._client.indices.exists_alias(name=self._alias)):
            return
        log.info("creating Elasticsearch index %s behind alias %s", self._versioned, self._alias)
        try:
            await self._call("create index", lambda: self._client.indices.create(
                index=self._versioned,
                settings={**self._settings, "analysis": {"analyzer": {"hindsight_terms": {
                    "type": "custom", "tokenizer": "standard", "filter": ["lowercase"]}}}},
                mappings=_MAPPINGS,
                aliases={self._alias: {}},
            ))
        except ProjectionError as e:
            if not _already_exists(e):
                raise
            # Another process created it first, or the index is there without its
            # alias: point the alias at it (a no-op when it already does).
            await self._call("create alias", lambda: self._client.indices.put_alias(
                index=self._versioned, name=self._alias))


_MAPPINGS: dict[str, Any] = {
    # Unknown fields are an error, not a silently guessed mapping.
    "dynamic": "strict",
    "properties": {
        **{name: {"type": "keyword"} for name in _KEYWORD_FIELDS},
        "occurred_at": {"type": "date"},
        # double, not float: epoch seconds in a float32 are only ~2 minutes precise.
        "ts": {"type": "double"},
        "offset": {"type": "long"},
        "tags": {"type": "keyword"},
        "body": {"type": "text", "analyzer": "hindsight_terms"},
        "payload": {"type": "object", "enabled": False},
        _META_FIELD: {"type": "keyword"},
        "position_key": {"type": "keyword"},
    },
}


def _already_exists(e: ProjectionError) -> bool:
    cause = e.__cause__
    return isinstance(cause, ApiError) and cause.error == "resource_already_exists_exception"
