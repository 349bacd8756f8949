"""Plumbing shared by the Elasticsearch projections (text: ``elasticsearch``, vectors:
``elasticsearch_vectors``). Not a port: each adapter holds an :class:`AliasedIndex` and
implements its own port on top of it.

Layout (one index for every tenant; the tenant is a filter, enforced by the adapters):

- the data lives in a versioned index, ``<alias>_v<N>``, reached through an alias,
  ``<alias>``, so a rebuild can fill ``_v<N+1>`` and swap the alias atomically. Every
  read and write goes through the alias (writes with ``require_alias``, so a missing
  alias never auto-creates a stray index), except a vector write to an index that
  records its model, which names the index the model was read from
  (``ElasticsearchVectorIndex.upsert``). On first use :class:`AliasedIndex` creates
  ``_v<N>`` together with its alias in one request; when the alias exists it is used as
  it is (moving it is the rebuild's job).
- the log position is kept in the same index, one reserved document per position key
  (``_id`` ``position:<stream#partition>``, a ``meta`` field, no ``tenant``), so it
  moves with the data on a swap. Every query filters on the tenant, so they never show
  up.

Set-up runs lazily, once, under an ``asyncio.Lock``; ``__init__`` does no I/O, which
keeps the factory sync. Every call has a timeout, and driver errors become
:class:`ProjectionError` here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from elastic_transport import HttpxAsyncHttpNode
from elasticsearch import ApiError, AsyncElasticsearch, TransportError

from hindsight_common.adapters.elasticsearch_expunge import deleted_documents, expunge
from hindsight_common.documents import from_payload, in_order, to_payload
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Document, Scope

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 10.0
MAX_WINDOW = 10_000  # index.max_result_window's default

KEYWORD_FIELDS = ("id", "tenant", "user", "session", "agent", "type", "kind", "key", "speaker")
_META_FIELD = "meta"
_POSITION = "position"
_POSITION_ID = "position:"  # + key; document ids are UUIDs, so never collide
_PAGE = 1000
_DRIVER_ERRORS = (ApiError, TransportError, TimeoutError)


def scope_filter(scope: Scope) -> list[dict[str, Any]]:
    """Filter clauses for a scope; the tenant clause is always there. Same conditions as
    the embedded adapters': since inclusive, until exclusive."""
    clauses: list[dict[str, Any]] = [{"term": {"tenant": scope.tenant}}]
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            clauses.append({"term": {name: value}})
    if scope.types:
        clauses.append({"terms": {"type": list(scope.types)}})
    if scope.speakers:
        clauses.append({"terms": {"speaker": list(scope.speakers)}})
    if scope.since is not None or scope.until is not None:
        bounds: dict[str, float] = {}
        if scope.since is not None:
            bounds["gte"] = scope.since.timestamp()
        if scope.until is not None:
            bounds["lt"] = scope.until.timestamp()
        clauses.append({"range": {"ts": bounds}})
    return clauses


def document_fields(doc: Document) -> dict[str, Any]:
    """The indexed fields every projection has (filters, sorting) and the stored payload
    the document is rebuilt from. Adapters add their own (terms, vector)."""
    payload = to_payload(doc)
    fields = {name: payload[name] for name in KEYWORD_FIELDS}
    fields.update(occurred_at=payload["occurred_at"], ts=payload["ts"], offset=doc.offset,
                  tags=payload["tags"], payload=payload)
    return fields


def mappings(own: Mapping[str, Any]) -> dict[str, Any]:
    """The mapping of :func:`document_fields` and the position documents, plus ``own``
    (the adapter's field properties)."""
    return {
        # Unknown fields are an error, not a silently guessed mapping.
        "dynamic": "strict",
        "properties": {
            **{name: {"type": "keyword"} for name in KEYWORD_FIELDS},
            "occurred_at": {"type": "date"},
            # double, not float: epoch seconds in a float32 are only ~2 minutes precise.
            "ts": {"type": "double"},
            "offset": {"type": "long"},
            "tags": {"type": "keyword"},
            **own,
            "payload": {"type": "object", "enabled": False},
            _META_FIELD: {"type": "keyword"},
            "position_key": {"type": "keyword"},
        },
    }


class AliasedIndex:
    """One Elasticsearch index behind an alias: the client, error translation, lazy
    set-up, bulk writes, position documents, and tenant counts and ids.

    ``kind`` names the projection in messages ("text index"). ``settings`` and
    ``mappings`` are those of the index created when the alias does not exist yet.
    ``verify``, when given, checks the live index's mapping properties once after
    set-up (e.g. a vector's dimension) and raises ProjectionError when they cannot work.
    ``timeout_s`` bounds every call (the client's request timeout and an asyncio
    timeout around it).
    """

    def __init__(
        self,
        url: str,
        *,
        alias: str,
        version: int,
        kind: str,
        settings: Mapping[str, Any],
        mappings: Mapping[str, Any],
        timeout_s: float = DEFAULT_TIMEOUT_S,
        verify: Callable[[Mapping[str, Any]], None] | None = None,
    ) -> None:
        self.url = url
        self.alias = alias
        self.versioned = f"{alias}_v{version}"
        self._kind = kind
        self._settings = dict(settings)
        self._mappings = dict(mappings)
        self._verify = verify
        self._timeout_s = timeout_s
        try:
            # httpx (a dependency already) rather than aiohttp, the async default.
            self.client = AsyncElasticsearch(url, node_class=HttpxAsyncHttpNode, request_timeout=timeout_s)
        except (ValueError, TransportError) as e:
            raise ProjectionError(f"cannot use Elasticsearch at {url}: {e}") from e
        self._ready_flag = False
        self._setup_lock = asyncio.Lock()
        self._closed = False

    async def call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        """One client call with a timeout; driver errors become ProjectionError."""
        if self._closed:
            raise ProjectionError(f"the Elasticsearch {self._kind} {self.alias} is closed")
        try:
            async with asyncio.timeout(self._timeout_s):
                return await make()
        except _DRIVER_ERRORS as e:
            raise ProjectionError(
                f"Elasticsearch {what} on {self.alias} at {self.url} failed: {e}"
            ) from e

    async def ready(self) -> None:
        """Create the index and its alias unless the alias exists (once per object)."""
        if self._ready_flag:
            return
        if self._closed:
            raise ProjectionError(f"the Elasticsearch {self._kind} {self.alias} is closed")
        async with self._setup_lock:
            if not self._ready_flag:
                await self._set_up()
                if self._verify is not None:
                    self._verify(await self._live_properties())
                self._ready_flag = True

    async def bulk(self, what: str, operations: list[dict[str, Any]], refresh: str,
                   require_alias: bool = True) -> None:
        """Send bulk ``operations``; any failed item is a ProjectionError naming the first.
        ``require_alias=False`` for operations aimed at a concrete index (``live_index``)."""
        response = await self.call(what, lambda: self.client.bulk(
            operations=operations, refresh=refresh, require_alias=require_alias))
        if not response["errors"]:
            return
        failed = [item for entry in response["items"] for item in entry.values()
                  if "error" in item]
        first = failed[0]
        error = first["error"]
        raise ProjectionError(
            f"Elasticsearch {what} on {self.alias}: {len(failed)} of {len(response['items'])} "
            f"operations failed; first, {first.get('_id')}: {error.get('type')}: "
            f"{error.get('reason')}"
        )

    async def write_position(self, position: Position, index: str | None = None) -> None:
        """Record ``position``, keeping the highest offset per key: a redelivered older
        batch must not move it back. Call after the data, so it is never ahead of it;
        ``index``: the concrete index the data went to (default: the alias).

        Then refreshes that index, once: the batch's data (written before, without a
        refresh) and its position become searchable together, so ``position`` needs no
        refresh of its own and a status poll costs the index nothing."""
        if not position:
            return
        target = index or self.alias
        # A realtime get sees the last write without a refresh. (No scripted max: the
        # integ-test distribution has no painless.)
        ids = {key: _POSITION_ID + key for key in position}
        response = await self.call("read position", lambda: self.client.mget(
            index=target, ids=list(ids.values()), source_includes=["offset"]))
        current = {d["_id"]: int(d["_source"]["offset"]) for d in response["docs"] if d.get("found")}
        operations: list[dict[str, Any]] = []
        for key, offset in position.items():
            if offset > current.get(ids[key], -1):
                operations += [{"index": {"_index": target, "_id": ids[key]}},
                               {_META_FIELD: _POSITION, "position_key": key, "offset": int(offset)}]
        if operations:
            await self.bulk("write position", operations, refresh="false", require_alias=index is None)
        # Every shard of the index, not only those this bulk touched. "wait_for" on the
        # data instead waited for the next scheduled refresh (refresh_interval, 1 s by
        # default): 0.6-0.7 s of every batch, most of the cluster's freshness.
        await self.refresh(target)

    async def refresh(self, index: str | None = None) -> None:
        """Make what was written to ``index`` (default: the alias) searchable now."""
        target = index or self.alias
        await self.call("refresh", lambda: self.client.indices.refresh(index=target))

    async def position(self) -> Position:
        """The recorded log position (empty when none)."""
        await self.ready()
        # No refresh: write_position refreshed after writing them.
        response = await self.call("read position", lambda: self.client.search(
            index=self.alias,
            query={"term": {_META_FIELD: _POSITION}},
            size=MAX_WINDOW,
            source_includes=["position_key", "offset"],
        ))
        return {str(h["_source"]["position_key"]): int(h["_source"]["offset"])
                for h in response["hits"]["hits"]}

    async def documents(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        """The port's ``get``: the documents of ``tenant`` with these ids, in that order."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        await self.ready()
        # A realtime multi-get; the tenant is checked in in_order (mget cannot filter),
        # and position documents, which have no payload, are left out here.
        response = await self.call("get", lambda: self.client.mget(
            index=self.alias, ids=wanted, source_includes=["payload"]))
        found = [from_payload(d["_source"]["payload"]) for d in response["docs"]
                 if d.get("found") and "payload" in d["_source"]]
        return in_order(tenant, wanted, found)

    async def count(self, tenant: str) -> int:
        """How many documents ``tenant`` has (position documents have no tenant)."""
        await self.ready()
        response = await self.call("count", lambda: self.client.count(
            index=self.alias, query={"term": {"tenant": tenant}}))
        return int(response["count"])

    async def ids(self, tenant: str) -> list[str]:
        """Every document id of ``tenant``, sorted, paged with search_after."""
        return await self._ids({"term": {"tenant": tenant}})

    async def _ids(self, query: dict[str, Any]) -> list[str]:
        await self.ready()
        out: list[str] = []
        after: list[Any] | None = None
        while True:
            page_after = after
            response = await self.call("list ids", lambda: self.client.search(
                index=self.alias,
                query=query,
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

    async def purge_user(self, tenant: str, user: str) -> int:
        """Delete one user's documents, then make the deletion physical (see
        :mod:`elasticsearch_expunge`: deleted documents otherwise stay in the segments and
        the translog). By id, in bulk, rather than with _delete_by_query: that needs the
        reindex module, which a minimal Elasticsearch (deploy/local) does not have. A
        retry after a failed expunge finds no ids but still expunges what is left."""
        ids = await self._ids({"bool": {"filter": [{"term": {"tenant": tenant}}, {"term": {"user": user}}]}})
        for start in range(0, len(ids), _PAGE):
            await self.bulk("purge user", [{"delete": {"_index": self.alias, "_id": i}}
                                           for i in ids[start:start + _PAGE]], refresh="true")
        if ids or await deleted_documents(self):
            await expunge(self)
        return len(ids)

    async def close(self) -> None:
        """Close the client. Idempotent; every later call raises ProjectionError."""
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self.client.close(), self._timeout_s)
        except _DRIVER_ERRORS as e:
            raise ProjectionError(f"closing Elasticsearch at {self.url} failed: {e}") from e

    # -- internals ------------------------------------------------------------

    async def _set_up(self) -> None:
        if await self.call("check alias", lambda: self.client.indices.exists_alias(name=self.alias)):
            await self._add_missing_fields()
            return
        log.info("creating Elasticsearch index %s behind alias %s", self.versioned, self.alias)
        try:
            await self.call("create index", lambda: self.client.indices.create(
                index=self.versioned,
                settings=self._settings,
                mappings=self._mappings,
                aliases={self.alias: {}},
            ))
        except ProjectionError as e:
            if not _already_exists(e):
                raise
            # Another process created it first, or the index is there without its
            # alias: point the alias at it (a no-op when it already does).
            await self.call("create alias", lambda: self.client.indices.put_alias(
                index=self.versioned, name=self.alias))

    async def _add_missing_fields(self) -> None:
        """Fields added to the mapping since the live index was created (``speaker``,
        ``context``) are added to it; a changed field is never touched. If the index
        cannot take them (another analysis, say), writes name the problem and the fix is
        a rebuild into a new version."""
        live = await self._live_properties()
        missing = {name: spec for name, spec in self._mappings["properties"].items() if name not in live}
        if not missing:
            return
        try:
            await self.call("add fields", lambda: self.client.indices.put_mapping(
                index=self.alias, properties=missing))
            log.info("added fields %s to %s", sorted(missing), self.alias)
        except ProjectionError as e:
            log.warning("cannot add fields %s to %s (rebuild it into a new version): %s",
                        sorted(missing), self.alias, e)

    async def live_index(self) -> tuple[str, dict[str, Any]]:
        """The index the alias points at now, and its mapping's ``_meta`` (empty when
        none), read in one call."""
        await self.ready()
        response = await self.call("read mapping", lambda: self.client.indices.get_mapping(
            index=self.alias))
        [(name, index)] = response.body.items()  # the alias points at one index
        return str(name), dict(index["mappings"].get("_meta") or {})

    async def _live_properties(self) -> dict[str, Any]:
        response = await self.call("read mapping", lambda: self.client.indices.get_mapping(
            index=self.alias))
        # The alias points at one index (a swap moves it atomically).
        [index] = response.body.values()
        properties: dict[str, Any] = index["mappings"].get("properties", {})
        return properties


def _already_exists(e: ProjectionError) -> bool:
    cause = e.__cause__
    return isinstance(cause, ApiError) and cause.error == "resource_already_exists_exception"
