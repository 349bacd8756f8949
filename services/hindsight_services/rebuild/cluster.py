"""Online rebuild in the cluster (``HINDSIGHT_LOG_BACKEND=kafka``): this process fills
new versions beside the live ones while the services keep serving, then moves the
aliases; the services follow without a restart.

- text (Elasticsearch) and vectors (a Qdrant server, or Elasticsearch): version N fills
  the staging alias ``<alias>_v<N>``; the swap moves ``<alias>`` onto it in one atomic
  request (``adapters/elasticsearch_versions.py``, ``adapters/qdrant_versions.py``);
- graph (Neo4j): version N is the namespace ``<base>_v<N>`` (``hindsight_v2``); the swap
  points the namespace alias named after the configured namespace at it
  (``adapters/neo4j_graph.py``; readers resolve it within a second).

Resumable: an unfinished version (an index or namespace newer than the live one) is
filled further from the position it holds, never started again.

Re-embedding (``--embedder NAME``): the new vector version is created for that model
(the index records it) and filled by it; without ``--embedder`` it is made for the model
the live version records (else ``HINDSIGHT_EMBEDDER``), so a rebuild after a re-embedding
keeps the new model. The embed and query services follow the live version's model by
themselves after the swap (``follow.py``); nothing is restarted.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import (
    make_embedder,
    make_embedder_for,
    make_embedding_cache,
    make_graph_store,
    make_log,
    make_text_index,
    make_vector_index,
    seal_graph,
)
from hindsight_common.ports.embedder import Embedder
from hindsight_common.projection_versions import staging_alias
from hindsight_common.settings import Settings
from hindsight_services.rebuild.embedded import RebuildRequest
from hindsight_services.rebuild.engine import NewVersions, Progress, Rebuild, rebuild_consumers

SETTLE_S = 2.5  # longer than a Neo4j reader's alias cache (ALIAS_TTL_S) and an in-flight write


@dataclass
class Versioned:
    """One projection's swap and drop, once its new version is chosen."""

    projection: str
    live: int
    target: int
    swap: Callable[[], Awaitable[None]]
    drop_old: Callable[[], Awaitable[list[str]]]
    close: Callable[[], Awaitable[None]]
    finish: Callable[[], Awaitable[None]] | None = None  # after the drain


def _next(live: int, existing: list[int]) -> int:
    """An unfinished newer version is resumed; otherwise the one after every existing one."""
    newer = [v for v in existing if v > live]
    return max(newer) if newer else max([live, *existing]) + 1


class AliasVersions(Protocol):
    """``ElasticsearchVersions`` and ``QdrantVersions``."""

    async def live(self) -> int | None: ...
    async def versions(self) -> list[int]: ...
    async def swap(self, version: int) -> None: ...
    async def unstage(self, version: int) -> None: ...
    async def drop(self, version: int) -> str: ...
    async def close(self) -> None: ...


def _versions_of(settings: Settings, projection: str) -> tuple[AliasVersions, str]:
    """The versions behind the projection's alias, and the settings field naming it."""
    if projection == "vector" and settings.vector_backend == "qdrant":
        from hindsight_common.adapters.qdrant_versions import QdrantVersions

        if not (settings.qdrant_url or "").startswith(("http://", "https://")):
            raise ConfigurationError("the online rebuild of Qdrant vectors needs a Qdrant server "
                                     "(HINDSIGHT_QDRANT_URL=http://...): local mode is one process's")
        return QdrantVersions.at(settings.qdrant_url or "", settings.qdrant_collection), "qdrant_collection"
    if projection == "vector" and settings.vector_backend != "elasticsearch":
        raise ConfigurationError(f"no online rebuild for the vector backend {settings.vector_backend!r} in the cluster")
    from hindsight_common.adapters.elasticsearch_versions import ElasticsearchVersions

    if not settings.elasticsearch_url:
        raise ConfigurationError(f"rebuilding the {projection} projection needs HINDSIGHT_ELASTICSEARCH_URL")
    field = "elasticsearch_vector_index" if projection == "vector" else "elasticsearch_index"
    return ElasticsearchVersions(settings.elasticsearch_url, str(getattr(settings, field))), field


async def _aliased(settings: Settings, projection: str) -> tuple[Versioned, Settings]:
    versions, field = _versions_of(settings, projection)
    alias = str(getattr(settings, field))
    live = await versions.live() or 1
    target = _next(live, await versions.versions())

    async def drop_old() -> list[str]:
        return [await versions.drop(v) for v in await versions.versions() if v != target]

    async def swap() -> None:
        await versions.swap(target)

    async def finish() -> None:
        await versions.unstage(target)

    new_settings = settings.model_copy(update={field: staging_alias(alias, target)})
    return Versioned(projection, live, target, swap, drop_old, versions.close, finish), new_settings


async def _neo4j(settings: Settings) -> tuple[Versioned, Settings]:
    from hindsight_common.adapters.neo4j_graph import Neo4jGraph
    from hindsight_common.security.sealed_graph import SealedGraph

    made = make_graph_store(settings)
    alias = made.inner if isinstance(made, SealedGraph) else made
    if not isinstance(alias, Neo4jGraph):
        raise ConfigurationError("the cluster graph rebuild needs HINDSIGHT_GRAPH_BACKEND=neo4j")
    base = re.sub(r"_v\d+$", "", settings.neo4j_namespace)

    def version(ns: str) -> int | None:
        match = re.fullmatch(re.escape(base) + r"_v(\d+)", ns)
        return int(match.group(1)) if match else None

    live_ns = await alias.live_namespace()
    live = version(live_ns) or 1
    target = _next(live, [v for v in map(version, await alias.namespaces()) if v is not None])
    target_ns = f"{base}_v{target}"

    async def swap() -> None:
        await alias.point_alias(target_ns)

    async def drop_old() -> list[str]:
        dropped = []
        for ns in await alias.namespaces():
            if version(ns) is not None and ns != target_ns:
                old = Neo4jGraph(settings.neo4j_uri or "", user=settings.neo4j_user, password=settings.neo4j_password,
                                 namespace=ns, follow_alias=False)
                try:
                    await old.drop()
                finally:
                    await old.close()
                dropped.append(ns)
        return dropped

    new = settings.model_copy(update={"neo4j_namespace": target_ns})
    return Versioned("graph", live, target, swap, drop_old, made.close), new


async def _new_model(settings: Settings, request: RebuildRequest) -> Embedder:
    """The embedder of the new vector version: ``--embedder``, else the live version's
    recorded model, else ``HINDSIGHT_EMBEDDER``. Loads nothing."""
    if request.embedder:
        return make_embedder(settings.model_copy(update={"embedder": request.embedder}))
    configured = make_embedder(settings)
    live = make_vector_index(settings, configured.dim)
    try:
        recorded = await live.live_model()
    finally:
        await live.close()
    return make_embedder_for(settings, recorded) if recorded else configured


async def rebuild_cluster(settings: Settings, request: RebuildRequest,
                          on_progress: Callable[[Progress], None] | None = None, *,
                          embedder: Embedder | None = None) -> dict[str, object]:
    """``embedder``: the new vector version's embedder, instead of the one ``request``
    names (tests)."""
    plans: list[Versioned] = []
    stores = NewVersions()
    if "vector" in request.projections:
        versioned, at = await _aliased(settings, "vector")
        plans.append(versioned)
        embedder = embedder or await _new_model(settings, request)
        vectors = make_vector_index(at, embedder.dim, embedder.model_id)
        stores = NewVersions(vectors=vectors, embedder=embedder)
        # An unfinished version resumed keeps the model it was started with.
        if (made_for := await vectors.live_model()) not in (None, embedder.model_id):
            await vectors.close()
            await versioned.close()
            raise ConfigurationError(
                f"version {versioned.target} of the vector projection was started with {made_for!r}, not "
                f"{embedder.model_id!r}: finish it with the same --embedder, or delete it and start again")
    if "text" in request.projections:
        versioned, at = await _aliased(settings, "text")
        plans.append(versioned)
        stores = NewVersions(stores.vectors, stores.embedder, make_text_index(at), None)
    if "graph" in request.projections:
        from hindsight_common.adapters.neo4j_graph import Neo4jGraph

        versioned, at = await _neo4j(settings)
        plans.append(versioned)
        graph = seal_graph(at, Neo4jGraph(at.neo4j_uri or "", user=at.neo4j_user, password=at.neo4j_password,
                                          namespace=at.neo4j_namespace, timeout_s=at.neo4j_timeout_s,
                                          follow_alias=False))
        stores = NewVersions(stores.vectors, stores.embedder, stores.text, graph)

    log_ = make_log(settings)
    cache = make_embedding_cache(settings)
    lookup = make_text_index(settings)  # the live text index (a forgotten memory's content)

    async def swap() -> None:
        for p in plans:
            await p.swap()

    try:
        consumers = rebuild_consumers(log_, stores, cache, lookup, settings.poll_timeout_s, settings.rebuild_batch)
        progress = await Rebuild(log_, consumers, settle_s=SETTLE_S).run(swap, on_progress)
        for p in plans:
            if p.finish is not None:
                await p.finish()
        dropped = [d for p in plans for d in await p.drop_old()] if request.drop_old else []
    finally:
        for p in plans:
            await p.close()
        await stores.close()
        await lookup.close()
        if cache is not None:
            await cache.close()
        await log_.close()
    return {"rebuilt": [p.projection for p in plans], "versions": {p.projection: p.target for p in plans},
            "resumed": progress.resumed_from > 0, **progress.as_dict(), "dropped": dropped}
