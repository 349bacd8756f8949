"""Elasticsearch's text index, then Neo4j, unreachable under a cluster: recall keeps
answering from the paths that remain, says which paths it ran without (``degraded``, over
HTTP, the SDK and gRPC), and the projections catch up once the server is back.

The vectors live on an Elasticsearch of their own (``HINDSIGHT_ELASTICSEARCH_VECTOR_URL``,
standing in for the Qdrant server a cluster would use, which cannot run here), so a text
outage leaves the vector paths. The default preset runs no graph path, so a Neo4j outage
leaves recall whole (``degraded`` empty) and only delays the graph projection; the graph
path's degradation is checked on the engine with a graph preset
(tests/integration/test_recall_degraded.py).

The services are real processes (ingest, embed, project, query) over the real Kafka,
PostgreSQL, Elasticsearch and Neo4j. Those servers are shared with other tests, so the
outage is a cut network: the services reach Elasticsearch and Neo4j through a
``FaultProxy`` each (tests/support/fault_proxy.py), and the test cuts one, then restores
it. ``make chaos`` runs the same test against private servers that are really stopped
(Elasticsearch: ``elasticsearch.sh down``) or hung (Neo4j: SIGSTOP; its test harness
empties the graph on a restart) for 30 s (``HINDSIGHT_CHAOS=1``).
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import grpc
import pytest

from hindsight_common.errors import ProjectionError
from hindsight_common.security.signing_keys import create_keyring_file
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from tests.e2e.conftest import free_port
from tests.e2e.test_cluster import Cluster, projection_ids
from tests.servers import server_url
from tests.support.fault_proxy import FaultProxy
from tests.support.private_servers import PrivateElasticsearch, PrivateNeo4j

CHAOS = os.environ.get("HINDSIGHT_CHAOS") == "1"
OUTAGE_S = 30.0 if CHAOS else 4.0
SERVICES = ("ingest", "embed", "project", "query")
QUESTION = "What did Ann say about the Lisbon project?"


@dataclass(frozen=True)
class Outage:
    """How one server goes away and comes back: a cut network to a shared server (CI);
    a private Elasticsearch stopped and started again, a private Neo4j hung and resumed
    (``make chaos``)."""

    begin: Callable[[], None]
    end: Callable[[], None]


class Faulty:
    def __init__(self, cluster: Cluster, tenant: str, outages: dict[str, Outage]) -> None:
        self.cluster = cluster
        self.tenant = tenant
        self.outages = outages


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[Faulty]:
    run = uuid.uuid4().hex[:10]
    tenant = f"faults-{run}"
    closers: list[Any] = []
    outages: dict[str, Outage]
    if CHAOS:
        es, neo4j = PrivateElasticsearch(tmp_path / "infra"), PrivateNeo4j(tmp_path / "infra")
        es.up()
        closers.append(es.down)
        neo4j.up()
        closers.append(neo4j.down)
        es_url, neo4j_uri = es.url, neo4j.uri
        outages = {"elasticsearch": Outage(es.down, es.up), "neo4j": Outage(neo4j.pause, neo4j.resume)}
    else:
        shared_es = urlsplit(server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch"))
        shared_neo4j = urlsplit(server_url("HINDSIGHT_NEO4J_URI", "Neo4j"))
        es_proxy = FaultProxy(shared_es.hostname or "127.0.0.1", shared_es.port or 9200)
        neo4j_proxy = FaultProxy(shared_neo4j.hostname or "127.0.0.1", shared_neo4j.port or 7687)
        closers += [es_proxy.close, neo4j_proxy.close]
        es_url, neo4j_uri = f"http://127.0.0.1:{es_proxy.port}", f"bolt://127.0.0.1:{neo4j_proxy.port}"
        outages = {"elasticsearch": Outage(es_proxy.cut, es_proxy.restore),
                   "neo4j": Outage(neo4j_proxy.cut, neo4j_proxy.restore)}
    env = {
        **os.environ,
        "HINDSIGHT_LOG_BACKEND": "kafka",
        "HINDSIGHT_KAFKA_BOOTSTRAP": server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka"),
        "HINDSIGHT_KAFKA_TOPIC_PREFIX": f"faults-{run}.",
        "HINDSIGHT_KAFKA_PARTITIONS": "1",
        "HINDSIGHT_POSTGRES_DSN": server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        "HINDSIGHT_TEXT_BACKEND": "elasticsearch",
        "HINDSIGHT_VECTOR_BACKEND": "elasticsearch",
        "HINDSIGHT_ELASTICSEARCH_URL": es_url,
        "HINDSIGHT_ELASTICSEARCH_VECTOR_URL": server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch"),
        "HINDSIGHT_ELASTICSEARCH_INDEX": f"faults_{run}_text",
        "HINDSIGHT_ELASTICSEARCH_VECTOR_INDEX": f"faults_{run}_vectors",
        "HINDSIGHT_GRAPH_BACKEND": "neo4j",
        "HINDSIGHT_NEO4J_URI": neo4j_uri,
        "HINDSIGHT_NEO4J_NAMESPACE": f"faults_{run}",
        "HINDSIGHT_NEO4J_TIMEOUT_S": "3",  # a hung graph costs recall this much, not 10 s
        "HINDSIGHT_DATA_DIR": str(tmp_path / "data"),
        "HINDSIGHT_POLL_TIMEOUT_S": "0.2",
        "HINDSIGHT_GRPC_PORT": str(free_port()),
        "HINDSIGHT_SIGNING_KEYRING_FILE": str(tmp_path / "signing.json"),
        "HINDSIGHT_MASTER_KEY": base64.b64encode(os.urandom(32)).decode(),  # required in a cluster
    }
    for name in ("HINDSIGHT_AUTH", "HINDSIGHT_NEO4J_USER", "HINDSIGHT_NEO4J_PASSWORD"):
        env.pop(name, None)
    create_keyring_file(tmp_path / "signing.json")
    cluster = Cluster(env, tmp_path)
    cluster.create_key("writer", tenant, "read,write")
    try:
        for service in SERVICES:
            cluster.start(service)
        yield Faulty(cluster, tenant, outages)
    finally:
        try:
            cluster.stop_all()
        finally:  # the private servers go even when a process would not stop
            for close in reversed(closers):
                close()


def turns(tenant: str, start: int, n: int) -> list[dict[str, Any]]:
    return [{"tenant": tenant, "user": "ann", "session": f"s{i % 3}", "speaker": "Ann",
             "content": f"Note {i}: Ann told Tom the Lisbon project needs a new budget.",
             "occurred_at": "2024-05-01T10:00:00Z", "external_id": f"x{i}"} for i in range(start, start + n)]


def wait_projected(f: Faulty, acked: list[str], timeout_s: float = 240) -> None:
    """Until every acknowledged turn is in the vector, text and graph projections."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            ids = asyncio.run(projection_ids(f.cluster.env, f.tenant))
        except ProjectionError:  # a server only just back (or slow to answer): look again
            ids = {"unreadable": []}
        missing = {name: len(set(acked) - set(got)) for name, got in ids.items()}
        if not any(missing.values()):
            assert all(len(got) == len(acked) for got in ids.values()), ids
            return
        assert time.monotonic() < deadline, f"projections still missing turns: {missing}"
        time.sleep(0.5)


def grpc_recall(f: Faulty) -> pb.RecallResponse:
    async def call() -> pb.RecallResponse:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{f.cluster.env['HINDSIGHT_GRPC_PORT']}") as channel:
            reply: pb.RecallResponse = await pb_grpc.HindsightStub(channel).Recall(
                pb.RecallRequest(query=QUESTION, user="ann", k=5), timeout=60,
                metadata=(("authorization", f"Bearer {f.cluster.keys['writer']}"),))
            return reply

    return asyncio.run(call())


def test_recall_degrades_then_projections_catch_up(faulty: Faulty) -> None:
    f = faulty
    with f.cluster.client() as hs:
        acked = [e.event_id for e in hs.retain_many(turns(f.tenant, 0, 6)).events]
        wait_projected(f, acked)
        healthy = hs.recall(QUESTION, user="ann", k=5)
        assert healthy.items and healthy.degraded == ()

        # The text index out: the vector paths answer.
        f.outages["elasticsearch"].begin()
        try:
            acked += [e.event_id for e in hs.retain_many(turns(f.tenant, 6, 4)).events]
            started = time.monotonic()
            during = hs.recall(QUESTION, user="ann", k=5)
            assert during.degraded == ("bm25", "bm25_context"), during.degraded
            assert during.items and all(set(i.ranks) <= {"vector", "speaker", "cross_encoder"}
                                        for i in during.items)
            assert {i.id for i in during.items} <= set(acked)
            assert set(grpc_recall(f).degraded) == set(during.degraded)
            time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - started)))
        finally:
            f.outages["elasticsearch"].end()
        wait_projected(f, acked)
        assert hs.recall(QUESTION, user="ann", k=5).degraded == ()

        # Neo4j out: the default preset's paths do not read it; its projection waits.
        f.outages["neo4j"].begin()
        try:
            acked += [e.event_id for e in hs.retain_many(turns(f.tenant, 10, 4)).events]
            started = time.monotonic()
            during = hs.recall(QUESTION, user="ann", k=5)
            assert during.degraded == () and during.items
            time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - started)))
        finally:
            f.outages["neo4j"].end()
        wait_projected(f, acked)
        after = hs.recall(QUESTION, user="ann", k=5)
        assert after.degraded == () and after.items
