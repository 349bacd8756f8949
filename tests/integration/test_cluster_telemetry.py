"""Telemetry of the cluster: the six ``hindsight run <service>`` apps, built in-process
over real Kafka, PostgreSQL, Elasticsearch (text and kNN vectors) and Neo4j.

A write through the gateway is one trace: the gateway's HTTP span, ingest's (the
forwarded ``traceparent``), the Kafka produce, each consumer group's processing (the
context read back from the record) and every projection write. Then each service's
``/metrics`` answers with its metric families and sane values after that traffic.
(In one process the six apps share one Prometheus registry; each scrape still sets the
lag of its own consumer group.)
"""

from __future__ import annotations

import asyncio
import base64
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import httpx
import pytest

from hindsight_common.adapters.kafka_records import KafkaRecord
from hindsight_common.factory import make_log
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_common.telemetry import exposition
from hindsight_services.process import SERVICES, create_service_app
from tests.integration.test_outages import free_port, serving
from tests.integration.test_telemetry import gained, samples
from tests.servers import server_url
from tests.support.tracing import Spans, spans  # noqa: F401 - the fixture

TENANT = f"telemetry-{uuid.uuid4().hex[:8]}"
USER = "ann"


@pytest.fixture
def cluster_settings(tmp_path: Path) -> Settings:
    run = uuid.uuid4().hex[:10]
    return Settings(
        data_dir=tmp_path / "data", log_backend="kafka", grpc_port=0, reranker="none",
        kafka_bootstrap=server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka"),
        kafka_topic_prefix=f"telemetry-{run}.", kafka_partitions=2,
        postgres_dsn=server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        text_backend="elasticsearch", vector_backend="elasticsearch",
        elasticsearch_url=server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch"),
        elasticsearch_index=f"telemetry_{run}_text", elasticsearch_vector_index=f"telemetry_{run}_vectors",
        graph_backend="neo4j", neo4j_uri=server_url("HINDSIGHT_NEO4J_URI", "Neo4j"),
        neo4j_namespace=f"telemetry_{run}", reflect_every_n_turns=1_000_000, poll_timeout_s=0.2,
        access_flush_s=0.2, signing_keys={"t1": base64.b64encode(b"telemetry-test-key-32-bytes-long").decode()},
        master_key=base64.b64encode(b"telemetry-test-master-key-32byte").decode(),
    )


@asynccontextmanager
async def cluster(settings: Settings) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    """Every service's app running; ingest on a real port, the gateway forwarding to it.
    Yields an in-process client per service."""
    port = free_port()
    apps = {s: create_service_app(s, settings.model_copy(
        update={"ingest_url": f"http://127.0.0.1:{port}"} if s == "query" else {})) for s in SERVICES}
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(serving(apps["ingest"], port))
        for service in SERVICES:
            if service != "ingest":
                app = apps[service]
                await stack.enter_async_context(app.router.lifespan_context(app))
        clients = {}
        for service, app in apps.items():
            clients[service] = await stack.enter_async_context(
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test", timeout=60))
        yield clients


async def caught_up(gateway: httpx.AsyncClient, timeout_s: float = 120) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not (await gateway.get("/v1/status")).json()["caught_up"]:
        assert asyncio.get_running_loop().time() < deadline, "projections did not catch up"
        await asyncio.sleep(0.2)


async def test_a_write_is_one_trace_across_kafka_and_every_service_serves_metrics(
    cluster_settings: Settings, spans: Spans  # noqa: F811
) -> None:
    trace_id = uuid.uuid4().hex
    before = samples(exposition().decode())  # one registry per process: count what this test adds
    async with cluster(cluster_settings) as clients:
        gateway = clients["query"]
        r = await gateway.post("/v1/interactions", headers={"traceparent": f"00-{trace_id}-{'3' * 16}-01"},
                               json={"interactions": [{"tenant": TENANT, "user": USER, "session": "s1",
                                                       "speaker": "Ann", "role": "user",
                                                       "content": "Ann keeps bees in Porto."}]})
        assert r.status_code == 201, r.text
        await caught_up(gateway)
        recalled = await gateway.post("/v1/recall", json={"tenant": TENANT, "user": USER, "query": "bees"})
        assert recalled.status_code == 200 and recalled.json()["items"]

        trace = spans.of_trace(int(trace_id, 16))
        names = [s.name for s in trace]
        assert names.count("POST /v1/interactions") == 2  # the gateway's, then ingest's
        assert f"{INTERACTIONS} publish" in names
        groups = {s.attributes["messaging.consumer.group.name"] for s in trace
                  if s.name == f"{INTERACTIONS} process" and s.attributes is not None}
        assert {"embed", "project", "reflect"} <= groups
        assert {"projection write vector", "projection write text", "projection write graph"} <= set(names)

        # The Kafka record carries the same context in its headers.
        log = make_log(cluster_settings)
        try:
            records = [r for p in (0, 1) for r in await log.read(INTERACTIONS, partition=p)]
        finally:
            await log.close()
        [record] = records
        assert isinstance(record, KafkaRecord) and record.event is not None
        headers = dict(record.headers)
        assert headers["traceparent"].decode() == record.event.trace["traceparent"]
        assert headers["traceparent"].decode().split("-")[1] == trace_id

        # consolidate sees the recall's MemoryAccessed (flushed every 0.2 s).
        deadline = asyncio.get_running_loop().time() + 60
        while (await clients["consolidate"].get("/v1/status")).json()["processed"] < 1:
            assert asyncio.get_running_loop().time() < deadline, "consolidate saw no MemoryAccessed"
            await asyncio.sleep(0.2)

        scraped = {}
        for service, client in clients.items():
            answer = await client.get("/metrics")
            assert answer.status_code == 200, service
            scraped[service] = samples(answer.text)

    ingest = scraped["ingest"]
    assert gained(ingest, before, "hindsight_events_appended_total", stream=INTERACTIONS) >= 1
    assert gained(ingest, before, "hindsight_http_requests_total", service="ingest",
                  route="/v1/interactions", status="201") >= 1
    for group, stream in (("embed", INTERACTIONS), ("project", INTERACTIONS), ("reflect", INTERACTIONS),
                          ("consolidate", MEMORIES)):
        found = scraped[group]
        assert gained(found, before, "hindsight_events_processed_total", group=group,
                      stream=stream) >= 1, group
        assert gained(found, before, "hindsight_freshness_seconds_count", group=group) >= 1, group
        assert gained(found, before, "hindsight_processing_seconds_count", group=group) >= 1, group
        lags = {k: v for k, v in found.items() if k[0] == "hindsight_consumer_lag" and ("group", group) in k[1]}
        assert lags, f"{group}: no lag per partition"
        # The registry is per process: a gauge an earlier test's consumer of the same group
        # left behind keeps its old value; every gauge this test's consumers set is caught up.
        assert all(v == 0 for k, v in lags.items() if before.get(k) != v), (group, lags)
        assert gained(found, before, "hindsight_dead_letters_total", group=group) == 0, group
    query = scraped["query"]
    assert gained(query, before, "hindsight_recall_seconds_count") >= 1
    assert gained(query, before, "hindsight_recall_stage_seconds_count", stage="vector") >= 1
    assert gained(query, before, "hindsight_recall_stage_seconds_count", stage="bm25") >= 1
    assert gained(query, before, "hindsight_http_requests_total", service="query", route="/v1/recall",
                  status="200") >= 1
    assert gained(query, before, "hindsight_events_appended_total", stream=MEMORIES) >= 1  # MemoryAccessed
