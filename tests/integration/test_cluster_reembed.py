"""Re-embedding in the cluster while it serves, over real Kafka, PostgreSQL and
Elasticsearch (kNN vectors): ``rebuild_cluster`` fills a new vector version with another
embedder and moves the alias; the live embed consumer and a query gateway's embedder,
built as the cluster processes build them (``Parts(follow=True)``), follow the new model
by themselves, and nothing is restarted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hindsight_common.adapters.elasticsearch_versions import ElasticsearchVersions
from hindsight_common.consumer import supervise
from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import make_log, make_vector_index
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Scope
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services import compose
from hindsight_services.rebuild.cluster import rebuild_cluster
from hindsight_services.rebuild.embedded import RebuildRequest
from hindsight_services.rebuild.follow import FollowingEmbedder
from tests.integration.test_cluster_rebuild import SAID, TENANT, Traffic, _caught_up, _turn
from tests.integration.test_cluster_verify import _settings
from tests.integration.test_online_rebuild import Renamed


async def test_re_embedding_while_the_cluster_serves_the_services_follow_the_new_model(
    tmp_path: Path, embedder: Embedder,
) -> None:
    settings: Settings = _settings(tmp_path).model_copy(update={"rebuild_batch": 10, "poll_timeout_s": 0.2})
    renamed = Renamed(embedder)
    made = {embedder.model_id: embedder, renamed.model_id: renamed}
    embed_parts = compose.Parts(settings, make_log(settings), embedder=embedder, follow=True,
                                make_embedder=made.__getitem__)
    query_parts = compose.Parts(settings, make_log(settings), embedder=embedder, follow=True,
                                make_embedder=made.__getitem__)
    stop = asyncio.Event()
    workers: list[asyncio.Task[None]] = []
    try:
        live = await compose.embed(embed_parts)
        workers.append(asyncio.create_task(supervise(live, stop)))
        log = embed_parts.log
        await log.append(INTERACTIONS, [_turn("ann", n, SAID[n % len(SAID)] + f" ({n})") for n in range(30)])
        await _caught_up(log, [live])
        vectors = await query_parts.vectors()
        assert await vectors.live_model() == embedder.model_id  # recorded when the index was made
        queries = await query_parts.query_embedder()  # what compose.query gives recall
        assert isinstance(queries, FollowingEmbedder)
        scope = Scope(tenant=TENANT, user="ann")

        async def answer() -> list[str]:
            query = (await queries.embed_queries(["greyhound Pixel"]))[0]
            return [h.document.id for h in await vectors.search(scope, query, 5)]

        before = await answer()
        assert before

        async def answered() -> bool:
            return bool(await answer())

        traffic = Traffic(log, answered, writes=40)
        result = await traffic.during(rebuild_cluster(
            settings, RebuildRequest(("vector",), drop_old=True), embedder=renamed))
        searched, failures, written = traffic.searched, traffic.failures, traffic.written
        assert result["versions"] == {"vector": 2}, result
        assert searched > 0 and failures == []
        assert written
        await _caught_up(log, [live])
        await answer()  # the gateway reads the model at most a second old: a second later it has followed
        await asyncio.sleep(1.1)
        await answer()

        # The alias moved onto the new model's version, and both services followed it.
        versions = ElasticsearchVersions(str(settings.elasticsearch_url), settings.elasticsearch_vector_index)
        try:
            assert await versions.live() == 2 and await versions.versions() == [2]
        finally:
            await versions.close()
        assert await vectors.live_model() == renamed.model_id
        assert embed_parts.follower is not None and embed_parts.follower.embedder.model_id == renamed.model_id
        assert queries.model_id == renamed.model_id
        # Every vector of the live version, the writer's included, is the new model's:
        # none of the old model's vectors came through the cache or a live batch.
        assert await vectors.other_models(renamed.model_id) == (0, [])
        held = set(await vectors.ids(TENANT))
        assert set(written) <= held and len(held) == 30 + len(written)
        distinct = {SAID[n % len(SAID)] + f" ({n})" for n in range(30)}
        assert distinct <= {t.split(": ", 1)[-1] for t in renamed.inner.texts}
        assert await answer() == before  # the same network under another name: the same answers

        # A process started now with HINDSIGHT_EMBEDDER's model follows the recorded one
        # at start, and the start-up check passes.
        restarted = compose.Parts(settings, make_log(settings), embedder=embedder, follow=True,
                                  make_embedder=made.__getitem__)
        try:
            await restarted.vectors()
            assert (await restarted.embedder()).model_id == renamed.model_id
        finally:
            await restarted.close()
            await restarted.log.close()

        # Resuming an unfinished version with another model is refused, not mixed.
        unfinished = make_vector_index(
            settings.model_copy(update={"elasticsearch_vector_index": settings.elasticsearch_vector_index + "_v3"}),
            renamed.dim, renamed.model_id)
        await unfinished.upsert([], {})
        await unfinished.close()
        with pytest.raises(ConfigurationError, match="started with"):
            await rebuild_cluster(settings, RebuildRequest(("vector",)), embedder=embedder)
    finally:
        stop.set()
        await asyncio.gather(*workers, return_exceptions=True)
        for parts in (embed_parts, query_parts):
            await parts.close()
        await embed_parts.log.close()
        await query_parts.log.close()
