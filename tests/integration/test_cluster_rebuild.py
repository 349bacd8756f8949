"""Online rebuild in the cluster, over real Kafka, PostgreSQL, Elasticsearch (text and
kNN vectors) and Neo4j: the live embed and project consumers keep applying a writer's
events and readers keep searching through the aliases while ``rebuild_cluster`` fills
new versions and moves the Elasticsearch aliases and the Neo4j namespace alias."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from hindsight_common.adapters.elasticsearch_versions import ElasticsearchVersions
from hindsight_common.adapters.neo4j_graph import Neo4jGraph
from hindsight_common.security.sealed_graph import SealedGraph
from hindsight_common.consumer import Consumer, supervise
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.events import InteractionRecorded
from hindsight_common.factory import make_embedding_cache, make_graph_store, make_log, make_text_index, make_vector_index
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import Scope
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.embed import wiring as embed_wiring
from hindsight_services.project import wiring as project_wiring
from hindsight_services.rebuild.cluster import rebuild_cluster
from hindsight_services.rebuild.embedded import RebuildRequest
from hindsight_services.verify import verify
from tests.integration.test_cluster_verify import _settings

T = TypeVar("T")
TENANT = "rebuild-cluster"
START = datetime(2024, 5, 1, 10, tzinfo=UTC)
SAID = ["I adopted a greyhound called Pixel", "Pixel loves Brighton beach", "Bob visited Lisbon with Carla",
        "Carla prefers green tea", "Ann baked sourdough bread", "We went kayaking on the lake"]


def _turn(user: str, n: int, content: str) -> InteractionRecorded:
    at = START + timedelta(minutes=n)
    return InteractionRecorded(tenant=TENANT, user=user, session=f"{user}-s1", speaker=user.title(), role="user",
                               content=content, occurred_at=at, recorded_at=at)


class Traffic:
    """A reader that searches in a loop (``answered``: whether the answer had hits) and a
    writer that appends up to ``writes`` turns of the user "writer", while some work runs."""

    def __init__(self, log: EventLog, answered: Callable[[], Awaitable[bool]], writes: int) -> None:
        self._log = log
        self._answered = answered
        self._writes = writes
        self.failures: list[str] = []
        self.written: list[str] = []
        self.searched = 0
        self._done = asyncio.Event()

    async def during(self, work: Awaitable[T]) -> T:
        traffic = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]
        try:
            return await work
        finally:
            self._done.set()
            await asyncio.gather(*traffic)

    async def _read(self) -> None:
        while not self._done.is_set():
            try:
                if not await self._answered():
                    self.failures.append("an empty answer")
            except Exception as e:  # the test's boundary: every failed search is recorded
                self.failures.append(f"{type(e).__name__}: {e}")
            self.searched += 1
            await asyncio.sleep(0.05)

    async def _write(self) -> None:
        n = 0
        while not self._done.is_set() and n < self._writes:
            event = _turn("writer", 100 + n, f"Writer note {n} about the harbour")
            await self._log.append(INTERACTIONS, [event])
            self.written.append(str(event.event_id))
            n += 1
            await asyncio.sleep(0.3)


async def test_rebuild_all_while_the_cluster_serves(tmp_path: Path, embedder: Embedder) -> None:
    settings: Settings = _settings(tmp_path).model_copy(update={"rebuild_batch": 10, "poll_timeout_s": 0.2})
    log = make_log(settings)
    cache = make_embedding_cache(settings)
    assert cache is not None
    vectors = make_vector_index(settings, embedder.dim)  # the live stores, through the aliases
    text = make_text_index(settings)
    graph = make_graph_store(settings)
    stop = asyncio.Event()
    live = [embed_wiring.consumer(log, embedder, vectors, settings, cache),
            project_wiring.consumer(log, text, settings, graph=graph)]
    workers = [asyncio.create_task(supervise(c, stop)) for c in live]
    try:
        await log.append(INTERACTIONS, [_turn("ann", n, SAID[n % len(SAID)] + f" ({n})") for n in range(30)])
        await _caught_up(log, live)
        scope = Scope(tenant=TENANT, user="ann")
        query = (await embedder.embed_queries(["greyhound Pixel"]))[0]

        async def answers() -> tuple[list[str], list[str], list[str]]:
            return ([h.document.id for h in await vectors.search(scope, query, 5)],
                    [h.document.id for h in await text.search(scope, "Pixel greyhound", 5)],
                    [h.document.id for h in await graph.search(scope, ["Pixel"], 5)])

        before = await answers()
        assert all(before)

        async def answered() -> bool:
            return all(await answers())

        traffic = Traffic(log, answered, writes=60)  # bounded: each new text is embedded twice on 2 shared cores
        result = await traffic.during(rebuild_cluster(
            settings, RebuildRequest(("vector", "text", "graph"), drop_old=True)))
        searched, failures, written = traffic.searched, traffic.failures, traffic.written
        assert result["versions"] == {"vector": 2, "text": 2, "graph": 2}, result
        assert searched > 0 and failures == []
        assert written

        # The aliases moved: the live stores now read the new versions.
        for alias in (settings.elasticsearch_index, settings.elasticsearch_vector_index):
            versions = ElasticsearchVersions(str(settings.elasticsearch_url), alias)
            try:
                assert await versions.live() == 2 and await versions.versions() == [2]  # v1 dropped
            finally:
                await versions.close()
        assert isinstance(graph, SealedGraph) and isinstance(graph.inner, Neo4jGraph)
        assert await graph.inner.alias_target() == f"{settings.neo4j_namespace}_v2"

        await _caught_up(log, live)
        assert await answers() == before
        for store in (vectors, text, graph):
            assert set(written) <= set(await store.ids(TENANT))
        cached = CachedEmbedder(embedder, cache)
        by_name = {r.projection: r for r in await verify(log, cached, vectors, text, graph)}
        assert by_name["vector"].equal and by_name["graph"].equal
        # Known limit (README, "Operating: online rebuild"): during the drain the live
        # worker and the rebuild both write the writer's session into the new version; two
        # batches that read the session's turns before either wrote can leave a turn next to
        # the seam with a neighbourhood ("context") missing the other's turns. Only that
        # field of the writer's turns may differ; nothing is missing or extra.
        text_report = by_name["text"]
        assert not text_report.missing and not text_report.extra
        assert set(text_report.fields_differing) <= {"context"}
        assert {str(d.user) for d in await text.get(TENANT, [k[1] for k in text_report.different])} <= {"writer"}
        # With no writer racing it, a rebuild of the text projection is equal to the log.
        again = await rebuild_cluster(settings, RebuildRequest(("text",), drop_old=True))
        assert again["versions"] == {"text": 3}
        await _caught_up(log, live)
        assert all(r.equal for r in await verify(log, cached, vectors, text, graph))
    finally:
        stop.set()
        await asyncio.gather(*workers, return_exceptions=True)
        for store in (vectors, text, graph, cache, log):
            await store.close()


async def _caught_up(log: EventLog, consumers: list[Consumer], timeout_s: float = 120) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        heads = await log.head(INTERACTIONS)
        if all(all(c.position.get(k, -1) >= v for k, v in heads.items()) for c in consumers):
            return
        assert asyncio.get_running_loop().time() < deadline, "the live consumers did not catch up"
        await asyncio.sleep(0.2)
