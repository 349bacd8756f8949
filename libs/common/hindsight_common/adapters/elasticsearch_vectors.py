"""Cluster vector projection: ``dense_vector`` kNN on an Elasticsearch 8 server.

An alternative to the Qdrant server adapter (:mod:`hindsight_common.adapters.qdrant`),
for clusters that run Elasticsearch anyway (and for machines that cannot run a Qdrant
server): several processes share one index, so the embed service's writes are seen by
the query gateway in another process.

Layout, set-up and the position documents are
:mod:`hindsight_common.adapters.elasticsearch_base`'s: the data lives in
``hindsight_vectors_v1`` behind the alias ``hindsight_vectors``, created lazily on first
use; one index for every tenant, the tenant a filter enforced here; the log position as
reserved documents (no vector, no tenant) in the same index.

The ``vector`` field is ``dense_vector`` with ``similarity: cosine`` and HNSW on the raw
float32 vectors (``index_options: hnsw``). Elasticsearch 8.14+ would otherwise default to
``int8_hnsw``, whose scores come from quantized vectors: the port promises the cosine
similarity, and the tests compare it with numpy's. The price is 4 bytes per dimension in
the HNSW graph's memory instead of 1. The dimension and similarity of an existing index
are checked on first use; a mismatch needs a rebuild into a new ``_v<N>``.

An index created with ``model`` records it in its mapping's ``_meta``
(``embedding_model``): the embed and query services read it to follow a re-embedding
rebuild (``live_model``), and writes of another model's vectors are refused.

Search is a top-level ``knn`` with the scope as its ``filter``: Elasticsearch applies it
while it walks the graph (not after), so a scope with few matching documents still gets
its nearest ones.

:meth:`ElasticsearchVectorIndex.__init__` does no I/O, which keeps the factory sync.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from hindsight_common.adapters.elasticsearch_base import (
    DEFAULT_TIMEOUT_S,
    MAX_WINDOW,
    AliasedIndex,
    document_fields,
    mappings,
    scope_filter,
)
from hindsight_common.documents import from_payload
from hindsight_common.embedder_check import MODEL_META, refuse_other_models
from hindsight_common.errors import ProjectionError
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Document, Embedded, Hit, Scope, VectorIndex

DEFAULT_ALIAS = "hindsight_vectors"
# Candidates each shard gathers from the HNSW graph before the best k are kept: more
# means better recall for more work. 4k, at least 100, at most the server's limit.
_MIN_CANDIDATES = 100
_CANDIDATES_PER_K = 4
_MAX_CANDIDATES = 10_000


def num_candidates(k: int) -> int:
    """``num_candidates`` of a kNN search for ``k`` results."""
    return min(max(_MIN_CANDIDATES, _CANDIDATES_PER_K * k), _MAX_CANDIDATES)


def _operations(alias: str, items: Sequence[Embedded]) -> list[dict[str, Any]]:
    operations: list[dict[str, Any]] = []
    for item in items:
        source = {**document_fields(item.document), "vector": [float(x) for x in item.vector],
                  "embedding_model": item.model}
        operations += [{"index": {"_index": alias, "_id": item.document.id}}, source]
    return operations


class ElasticsearchVectorIndex(VectorIndex):
    """Vectors, payloads and the log position in one index behind an alias.

    ``dim`` is the embedder's dimension. ``version`` is the index version created when
    the alias does not exist yet; ``shards``, ``replicas`` and ``refresh_interval`` are
    that index's settings. ``timeout_s`` bounds every call.
    """

    def __init__(
        self,
        url: str,
        dim: int,
        *,
        alias: str = DEFAULT_ALIAS,
        version: int = 1,
        shards: int = 1,
        replicas: int = 0,
        refresh_interval: str = "1s",
        timeout_s: float = DEFAULT_TIMEOUT_S,
        model: str | None = None,
    ) -> None:
        self._dim = dim
        self._alias = alias
        vector = {"type": "dense_vector", "dims": dim, "index": True, "similarity": "cosine",
                  "index_options": {"type": "hnsw"}}
        self._es = AliasedIndex(
            url,
            alias=alias,
            version=version,
            kind="vector index",
            settings={"number_of_shards": shards, "number_of_replicas": replicas,
                      "refresh_interval": refresh_interval},
            mappings={**mappings({"vector": vector, "embedding_model": {"type": "keyword"}}),
                      **({"_meta": {MODEL_META: model}} if model else {})},
            timeout_s=timeout_s,
            verify=self._verify,
        )
        self._client = self._es.client

    # -- the port -------------------------------------------------------------

    async def upsert(self, items: Sequence[Embedded], position: Position) -> None:
        """In an index that records its model (``live_model``), vectors of another model
        are refused (ProjectionError: the consumer embeds the batch again once it has
        followed the swap), and the batch goes to the index the model was read from, not
        through the alias: a swap between the read and the write leaves it in the old
        version, which the rebuild's drain covers, never the old model's vectors in the
        new one."""
        await self._es.ready()
        index: str | None = None
        if items:
            live, meta = await self._es.live_index()
            if recorded := meta.get(MODEL_META):
                refuse_other_models(items, str(recorded), f"Elasticsearch index {live} ({self._alias})")
                index = live
            # Turning every vector into a list of floats is CPU work: off the event loop.
            operations = await asyncio.to_thread(_operations, index or self._alias, items)
            # As in the text index: write_position refreshes, data and position
            # together, before the projector acknowledges the log.
            await self._es.bulk("write", operations, refresh="false" if position else "true",
                                require_alias=index is None)
        # After the data, so the recorded position is never ahead of it.
        await self._es.write_position(position, index)

    async def live_model(self) -> str | None:
        model = (await self._es.live_index())[1].get(MODEL_META)
        return str(model) if model else None

    async def search(self, scope: Scope, vector: Sequence[float], k: int) -> list[Hit]:
        if k <= 0:
            return []
        await self._es.ready()
        k = min(k, MAX_WINDOW)
        knn = {
            "field": "vector",
            "query_vector": [float(x) for x in vector],
            "k": k,
            "num_candidates": num_candidates(k),
            # The tenant clause is always in it; position documents have no vector.
            "filter": {"bool": {"filter": scope_filter(scope)}},
        }
        response = await self._es.call("search", lambda: self._client.search(
            index=self._alias,
            knn=knn,
            size=k,
            source_includes=["payload"],
            track_total_hits=False,
        ))
        # For similarity "cosine" Elasticsearch scores (1 + cos) / 2, to keep scores
        # non-negative; the port's score is the cosine itself: cos = 2 * score - 1.
        # The map is increasing, so the server's best-first order stays.
        return [Hit(from_payload(h["_source"]["payload"]), 2.0 * float(h["_score"]) - 1.0)
                for h in response["hits"]["hits"]]

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        return await self._es.documents(tenant, ids)

    async def vectors(self, tenant: str, ids: Sequence[str]) -> dict[str, list[float]]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        await self._es.ready()
        response = await self._es.call("get", lambda: self._es.client.mget(
            index=self._es.alias, ids=wanted, source_includes=["tenant", "vector"]))
        return {
            str(d["_id"]): [float(x) for x in d["_source"]["vector"]]
            for d in response["docs"]
            if d.get("found") and d["_source"].get("tenant") == tenant and "vector" in d["_source"]
        }

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self._es.purge_user(tenant, user)

    async def position(self) -> Position:
        return await self._es.position()

    async def count(self, tenant: str) -> int:
        return await self._es.count(tenant)

    async def other_models(self, model: str) -> tuple[int, list[str]]:
        await self._es.ready()
        query = {"bool": {"filter": [{"exists": {"field": "tenant"}}],
                          "must_not": [{"term": {"embedding_model": model}}]}}
        response = await self._es.call("count models", lambda: self._es.client.search(
            index=self._es.alias, query=query, size=0, track_total_hits=True,
            aggs={"models": {"terms": {"field": "embedding_model", "size": 5, "missing": ""}}}))
        names = sorted(str(b["key"]) for b in response["aggregations"]["models"]["buckets"])
        return int(response["hits"]["total"]["value"]), names

    async def ids(self, tenant: str) -> list[str]:
        return await self._es.ids(tenant)

    async def close(self) -> None:
        await self._es.close()

    # -- internals ------------------------------------------------------------

    def _verify(self, properties: Mapping[str, Any]) -> None:
        """An index made earlier (or by another version) must fit this embedder."""
        vector = properties.get("vector", {})
        dims, similarity = vector.get("dims"), vector.get("similarity")
        if vector.get("type") != "dense_vector" or similarity != "cosine":
            raise ProjectionError(
                f"Elasticsearch index {self._alias} has no cosine dense_vector field 'vector' "
                f"({vector or 'missing'}): rebuild the vector projection into a new version"
            )
        if dims != self._dim:
            raise ProjectionError(
                f"Elasticsearch index {self._alias} holds {dims}-dimensional vectors but the "
                f"embedder makes {self._dim}: rebuild the vector projection into a new version"
            )
