"""Erasure over the cluster's stores: real Kafka (the log, read back raw), PostgreSQL (key
vault, reflect state), Elasticsearch (text), Neo4j (graph) and Qdrant (qdrant-client's
local mode: no server can be installed here), fed by the real ingest, embed, project and
reflect handlers. After the erasure no Kafka record, Elasticsearch document (its _source
included), Neo4j node, Qdrant payload or PostgreSQL row holds the user's plaintext, and
neither do the files the servers keep on disk (Elasticsearch's segments and translog,
PostgreSQL's pages and WAL, Kafka's segments), read raw; the other user's data is intact,
and feeding the log again does not bring the user back."""

from __future__ import annotations

import base64
import json
import os
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import asyncpg
import httpx
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from neo4j import AsyncGraphDatabase

from hindsight_common.adapters.qdrant import QdrantIndex
from hindsight_common.api import IngestRequest, SessionCloseIn
from hindsight_common.erasure import erasing
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.factory import (
    make_embedding_cache, make_graph_store, make_log, make_reflect_state, make_reflector, make_text_index, make_vector_index,
)
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog, LogRecord, Position
from hindsight_common.ports.projection import Browse, Scope
from hindsight_common.ports.reflect_state import SessionRef
from hindsight_common.security.signing_keys import keyring_from_settings
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, INTERACTIONS, MEMORIES
from hindsight_services.embed.handler import Embed
from hindsight_services.ingest.handler import Ingest
from hindsight_services.project.handler import Project
from hindsight_services.reflect.handler import Reflect
from hindsight_services.reflect.wiring import policy
from tests.servers import ROOT, server_url

Handle = Callable[[Sequence[LogRecord], Position], Awaitable[None]]


def _settings(tmp_path: Path, run: str) -> Settings:
    return Settings(
        data_dir=tmp_path / "data", log_backend="kafka",
        kafka_bootstrap=server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka"), kafka_topic_prefix=f"erase-{run}.",
        kafka_partitions=2, postgres_dsn=server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        text_backend="elasticsearch", elasticsearch_url=server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch"),
        elasticsearch_index=f"erase_{run}_text", vector_backend="qdrant", qdrant_url=str(tmp_path / "qdrant"),
        graph_backend="neo4j", neo4j_uri=server_url("HINDSIGHT_NEO4J_URI", "Neo4j"), neo4j_namespace=f"erase_{run}",
        master_key=base64.b64encode(bytes(range(32))).decode(),
        signing_keys={"e1": base64.b64encode(b"erasure-cluster-test-signing-key").decode()},
    )


async def feed(log: EventLog, stream: str, handlers: Sequence[Handle]) -> None:
    """What the consumers of ``stream`` would apply: every partition, from the start."""
    for key in await log.head(stream):
        records = await log.read(stream, after=-1, limit=1000, partition=int(key.split("#")[1]))
        if records:
            for handle in handlers:
                await handle(records, {key: records[-1].offset})


async def kafka_holding(settings: Settings, mark: bytes) -> list[str]:
    """Every record of this run's topics, read raw, whose key or value holds ``mark``."""
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap)
    await admin.start()
    try:
        topics = [t for t in await admin.list_topics() if t.startswith(settings.kafka_topic_prefix)]
        described = await admin.describe_topics(topics)
    finally:
        await admin.close()
    parts = [TopicPartition(d["topic"], p["partition"]) for d in described for p in d["partitions"]]
    consumer = AIOKafkaConsumer(bootstrap_servers=settings.kafka_bootstrap, enable_auto_commit=False)
    await consumer.start()
    try:
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        ends = await consumer.end_offsets(parts)
        found: list[str] = []
        for tp in parts:
            while await consumer.position(tp) < ends[tp]:
                for r in (await consumer.getmany(tp, timeout_ms=2000)).get(tp, []):
                    if mark in ((r.key or b"") + (r.value or b"")).lower():
                        found.append(f"{tp.topic}#{tp.partition}@{r.offset}")
        assert topics, "no topic of this run was read"
        return found
    finally:
        await consumer.stop()


async def elasticsearch_holding(settings: Settings, mark: str) -> list[str]:
    async with httpx.AsyncClient(base_url=str(settings.elasticsearch_url), timeout=30) as es:
        await es.post(f"/{settings.elasticsearch_index}/_refresh")
        r = await es.post(f"/{settings.elasticsearch_index}/_search",
                          json={"query": {"match_all": {}}, "size": 1000, "_source": True})
        assert r.status_code == 200, r.text
        hits = r.json()["hits"]["hits"]
        assert hits, "the text index holds nothing at all"
        found = [h["_id"] for h in hits if mark in json.dumps(h).lower()]
        q = await es.post(f"/{settings.elasticsearch_index}/_search",
                          json={"query": {"query_string": {"query": f"*{mark}*", "fields": ["*"]}}})
        return found + [h["_id"] for h in q.json()["hits"]["hits"]]


async def neo4j_holding(settings: Settings, mark: str) -> list[str]:
    driver = AsyncGraphDatabase.driver(str(settings.neo4j_uri))
    try:
        async with driver.session() as session:
            result = await session.run("MATCH (n) WHERE n.ns = $ns RETURN labels(n) AS l, properties(n) AS p",
                                       ns=settings.neo4j_namespace)
            rows = await result.data()
    finally:
        await driver.close()
    assert rows, "the graph holds nothing at all"
    return [str(r["l"]) for r in rows if mark in json.dumps(r["p"], default=str).lower()]


async def qdrant_holding(vectors: QdrantIndex, tenant: str, mark: str) -> list[str]:
    payloads = [h.document for h in await vectors.search(Scope(tenant=tenant), [0.1] * 384, 1000)]
    assert payloads, "the vector index holds nothing at all"
    return [d.id for d in payloads if mark in json.dumps(d.content).lower() or mark in d.search_text.lower()]


async def postgres_holding(settings: Settings, mark: str) -> list[str]:
    conn = await asyncpg.connect(settings.postgres_dsn, timeout=10)
    try:
        found = []
        for table in ("reflect_turns", "reflect_memories", "reflect_summaries", "key_vault", "idempotency_keys",
                      "access_counts"):
            rows = await conn.fetch(f"SELECT t::text AS row FROM {table} t")
            found += [table for r in rows if mark in str(r["row"]).lower()]
        return found
    finally:
        await conn.close()


RAW_SCANNED = ("elasticsearch", "postgres", "kafka", "neo4j")


def infra_dir() -> Path:
    """The data directories of the servers deploy/local/infra.sh started (the raw scan
    reads their files); a test FAILS when they are not on this machine."""
    root = Path(os.environ.get("HINDSIGHT_INFRA_DIR", ROOT / ".infra"))
    missing = [s for s in RAW_SCANNED if not (root / s).is_dir()]
    if missing:
        pytest.fail(f"the raw scan needs the data directories of {missing} under {root}: start the "
                    "servers with deploy/local/infra.sh up (or set HINDSIGHT_INFRA_DIR)")
    return root


def files_holding(root: Path, mark: bytes) -> list[str]:
    """Every file under ``root`` whose bytes hold ``mark`` (case-insensitively)."""
    found = []
    for path in sorted(root.rglob("*")):
        try:
            if path.is_file() and mark in path.read_bytes().lower():
                found.append(str(path.relative_to(root)))
        except FileNotFoundError:  # a server deleted it meanwhile (a merge, a trimmed log)
            continue
    return found


async def test_erasure_across_kafka_elasticsearch_neo4j_qdrant_and_postgresql(
        tmp_path: Path, embedder: Embedder) -> None:
    run = uuid.uuid4().hex[:10]
    settings = _settings(tmp_path, run)
    tenant = f"erase-{run}"
    ann_mark, bob_mark = f"zorblax{run}", f"quimbrook{run}"
    log = make_log(settings)
    vectors = make_vector_index(settings, embedder.dim)
    assert isinstance(vectors, QdrantIndex)
    text, graph, state = make_text_index(settings), make_graph_store(settings), make_reflect_state(settings)
    cache = make_embedding_cache(settings)
    assert cache is not None
    embed, project = Embed(CachedEmbedder(embedder, cache), vectors), Project(text, graph)
    reflect = Reflect(log, state, make_reflector(settings), policy(settings), keyring=keyring_from_settings(settings))
    consumers = [erasing(embed.handle, embed.purge, what="embed"), erasing(project.handle, project.purge, what="project")]
    reflecting = erasing(reflect.handle, reflect.purge, what="reflect")
    try:
        turns = [("ann", f"Hi! I love hiking around {ann_mark.title()}vale."), ("ann", f"My sister lives in {ann_mark.title()}."),
                 ("bob", f"I love sailing near {bob_mark.title()}.")]
        await Ingest(log, settings).record(IngestRequest.model_validate({"interactions": [
            {"tenant": tenant, "user": u, "session": "s1", "speaker": u.title(), "content": c,
             "occurred_at": f"2024-05-01T10:0{n}:00Z"} for n, (u, c) in enumerate(turns)]}))
        for user in ("ann", "bob"):
            await Ingest(log, settings).close_session("s1", SessionCloseIn(tenant=tenant, user=user))
        await feed(log, INTERACTIONS, [*consumers, reflecting])
        await feed(log, MEMORIES, consumers)
        memories = await text.browse(Browse(scope=Scope(tenant=tenant, user="ann", types=("semantic",)), limit=10))
        assert memories, "reflection learned nothing from ann's turns"
        # Before: the scans see ann's plaintext where projections and reflect state keep it.
        assert await elasticsearch_holding(settings, ann_mark)
        # Neo4j holds ann's documents and entities, sealed and keyed (never her words, so
        # never in its transaction log either); a search by name still finds them.
        assert await neo4j_holding(settings, tenant)
        assert await neo4j_holding(settings, ann_mark) == []
        found = await graph.search(Scope(tenant=tenant, user="ann"), [ann_mark.title(), f"{ann_mark.title()}vale"], 5)
        assert found and ann_mark in found[0].document.content.lower()
        assert await qdrant_holding(vectors, tenant, ann_mark)
        # PostgreSQL holds ann's reflect state, sealed: her plaintext is never in a row (so
        # never in a page or the WAL either), yet reflect reads it back.
        assert await postgres_holding(settings, tenant)
        assert await postgres_holding(settings, ann_mark) == []
        assert ann_mark in json.dumps([t.content for t in await state.session_turns(SessionRef(tenant, "ann", "s1"))]).lower()
        assert await kafka_holding(settings, ann_mark.encode()) == []  # sealed before the log

        cached_before = await cache.count(embedder.model_id)
        erased = await Ingest(log, settings).erase(tenant, "ann", "test")
        assert erased.keys_destroyed == 1
        await feed(log, CONTROL, [*consumers, reflecting])

        assert await kafka_holding(settings, ann_mark.encode()) == []
        assert await elasticsearch_holding(settings, ann_mark) == []
        assert await neo4j_holding(settings, ann_mark) == []
        assert await qdrant_holding(vectors, tenant, ann_mark) == []
        assert await postgres_holding(settings, ann_mark) == []
        # Raw: no file of Elasticsearch, PostgreSQL, Kafka or Neo4j holds ann's plaintext any
        # more, while bob's (Elasticsearch) and this run's tenant id (all four) are found.
        infra = infra_dir()
        for server in RAW_SCANNED:
            assert files_holding(infra / server, ann_mark.encode()) == [], server
            assert files_holding(infra / server, tenant.encode()), f"the scan of {server} sees nothing of this run"
        assert files_holding(infra / "elasticsearch", bob_mark.encode())
        # The embedding cache topic got tombstones for ann's documents: a fresh reader of
        # the compacted topic no longer finds them; bob's vectors are still there.
        fresh = make_embedding_cache(settings)
        assert fresh is not None
        try:
            assert 0 < await fresh.count(embedder.model_id) == await cache.count(embedder.model_id) < cached_before
        finally:
            await fresh.close()
        # Bob is untouched, in every store.
        assert await elasticsearch_holding(settings, bob_mark)
        assert await graph.search(Scope(tenant=tenant), [bob_mark.title()], 5)
        assert await qdrant_holding(vectors, tenant, bob_mark)
        assert bob_mark in json.dumps([m.content for m in await state.memories(tenant, "bob")]).lower()
        assert await state.session_turns(SessionRef(tenant, "ann", "s1")) == []
        found = await text.search(Scope(tenant=tenant), f"sailing {bob_mark.title()}", 10)
        assert found and {h.document.user for h in found} == {"bob"}

        # Feeding the whole log again (a replay) skips ann's sealed events: she stays gone.
        for stream in (INTERACTIONS, MEMORIES, CONTROL):
            await feed(log, stream, consumers)
        assert await elasticsearch_holding(settings, ann_mark) == []
        assert await qdrant_holding(vectors, tenant, ann_mark) == []
        assert await neo4j_holding(settings, ann_mark) == []
        assert await text.search(Scope(tenant=tenant, user="ann"), ann_mark, 10) == []
    finally:
        for store in (vectors, text, graph, state, cache, log):
            await store.close()
