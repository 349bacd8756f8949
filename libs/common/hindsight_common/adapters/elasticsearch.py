"""Cluster text projection: BM25 on an Elasticsearch 8 server (``AsyncElasticsearch``).

Layout, set-up and the position documents are :mod:`hindsight_common.adapters.elasticsearch_base`'s
(one index for every tenant, the tenant a filter enforced here): the data lives in
``hindsight_text_v1`` behind the alias ``hindsight_text``, created lazily on first use,
with the log position as reserved documents in the same index.

Analysis: the ``body`` field holds the document's English terms, computed in Python by
:mod:`hindsight_common.adapters.elasticsearch_analysis` (folding, possessives, stop
words, Porter stemming), because the integ-test distribution that development and CI
run has no stemmer, no ``asciifolding`` and no ``english`` analyzer. Its server-side
analyzer, ``standard`` tokenizer + ``lowercase``, only splits those terms on spaces,
and queries go through the same functions, so index and query terms always agree.
Changing the analysis changes the terms: rebuild into a new ``_v<N>``.

:meth:`ElasticsearchIndex.__init__` does no I/O, which keeps the factory sync.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from hindsight_common.adapters.elasticsearch_analysis import analyze, search_terms
from hindsight_common.adapters.elasticsearch_base import (
    DEFAULT_TIMEOUT_S,
    MAX_WINDOW,
    AliasedIndex,
    document_fields,
    mappings,
    scope_filter,
)
from hindsight_common.documents import from_payload
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import (
    MAX_SESSION_TURNS, Browse, Document, Hit, Scope, TextField, TextIndex,
)

DEFAULT_ALIAS = "hindsight_text"

# Newest first; equal times in log order (the embedded adapter's insertion order),
# then by id so that every answer is deterministic.
_NEWEST_FIRST = [{"ts": "desc"}, {"offset": "desc"}, {"id": "desc"}]
_ANALYSIS = {"analyzer": {"hindsight_terms": {
    "type": "custom", "tokenizer": "standard", "filter": ["lowercase"]}}}
_MAPPINGS = mappings({"body": {"type": "text", "analyzer": "hindsight_terms"},
                      "context": {"type": "text", "analyzer": "hindsight_terms"}})
_FIELDS = {"content": "body", "context": "context"}


def _source(doc: Document) -> dict[str, Any]:
    return {**document_fields(doc), "body": " ".join(analyze(doc.search_text)),
            "context": " ".join(analyze(doc.context))}


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
        self._es = AliasedIndex(
            url,
            alias=alias,
            version=version,
            kind="text index",
            settings={"number_of_shards": shards, "number_of_replicas": replicas,
                      "refresh_interval": refresh_interval, "analysis": _ANALYSIS},
            mappings=_MAPPINGS,
            timeout_s=timeout_s,
        )
        self._alias = alias
        self._client = self._es.client

    # -- the port -------------------------------------------------------------

    async def upsert(self, documents: Sequence[Document], position: Position) -> None:
        await self._es.ready()
        if documents:
            # Analysis is CPU work: off the event loop.
            operations = await asyncio.to_thread(_operations, self._alias, documents)
            # No refresh here: write_position refreshes the index once, data and
            # position together, before the projector acknowledges the log (and
            # /v1/status says recall sees the write). Durability needs no refresh:
            # the translog is fsynced before the answer.
            await self._es.bulk("write", operations, refresh="false" if position else "true")
        # After the data, so the recorded position is never ahead of it.
        await self._es.write_position(position)

    async def search(self, scope: Scope, query: str, k: int, *, field: TextField = "content") -> list[Hit]:
        terms = search_terms(query)
        if not terms or k <= 0:
            return []
        await self._es.ready()
        match = {"match": {_FIELDS[field]: {"query": " ".join(terms), "operator": "or"}}}
        response = await self._es.call("search", lambda: self._client.search(
            index=self._alias,
            query={"bool": {"filter": scope_filter(scope), "must": [match]}},
            sort=[{"_score": "desc"}, {"id": "asc"}],
            size=min(k, MAX_WINDOW),
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
        await self._es.ready()
        scope = Scope(tenant=tenant, user=user, session=session, types=("episodic", "summary"))
        return await self._newest("session documents", scope_filter(scope), min(limit, MAX_WINDOW), 0)

    async def session_turns(
        self, tenant: str, user: str, session: str, first: int, last: int, n: int
    ) -> list[Document]:
        await self._es.ready()
        where = scope_filter(Scope(tenant=tenant, user=user, session=session, types=("episodic",)))

        async def part(bounds: dict[str, int], order: str, size: int) -> list[Document]:
            if size <= 0:
                return []
            response = await self._es.call("session turns", lambda: self._client.search(
                index=self._alias, query={"bool": {"filter": [*where, {"range": {"offset": bounds}}]}},
                sort=[{"offset": order}, {"id": order}], size=size,
                source_includes=["payload"], track_total_hits=False))
            return [from_payload(h["_source"]["payload"]) for h in response["hits"]["hits"]]

        before, between, after = await asyncio.gather(
            part({"lt": first}, "desc", min(n, MAX_WINDOW)),
            part({"gte": first, "lte": last}, "asc", min(MAX_SESSION_TURNS, MAX_WINDOW)),
            part({"gt": last}, "asc", min(n, MAX_WINDOW)))
        return [*reversed(before), *between, *after]

    async def browse(self, request: Browse) -> list[Document]:
        if request.limit <= 0:
            return []
        await self._es.ready()
        where = scope_filter(request.scope)
        for name, values in (("kind", request.kinds), ("key", request.keys)):
            if values:
                where.append({"terms": {name: list(values)}})
        where += [{"term": {"tags": tag}} for tag in request.tags]  # every tag
        # Paging by from/size: limit + offset beyond index.max_result_window (10,000)
        # is refused by the server (a ProjectionError).
        return await self._newest("browse", where, request.limit, request.offset)

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        return await self._es.documents(tenant, ids)

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self._es.purge_user(tenant, user)

    async def position(self) -> Position:
        return await self._es.position()

    async def count(self, tenant: str) -> int:
        return await self._es.count(tenant)

    async def ids(self, tenant: str) -> list[str]:
        return await self._es.ids(tenant)

    async def close(self) -> None:
        await self._es.close()

    # -- internals ------------------------------------------------------------

    async def _newest(
        self, what: str, where: list[dict[str, Any]], limit: int, offset: int
    ) -> list[Document]:
        response = await self._es.call(what, lambda: self._client.search(
            index=self._alias,
            query={"bool": {"filter": where}},
            sort=_NEWEST_FIRST,
            from_=offset,
            size=limit,
            source_includes=["payload"],
            track_total_hits=False,
        ))
        return [from_payload(h["_source"]["payload"]) for h in response["hits"]["hits"]]
