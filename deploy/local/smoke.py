#!/usr/bin/env python3
"""Smoke test for the servers started by deploy/local/infra.sh, through the real clients.

    python deploy/local/smoke.py [postgres|kafka|elasticsearch|neo4j ...]   (default: all)

Needs: aiokafka, asyncpg, 'elasticsearch>=8,<9', neo4j. Addresses come from the variables
that infra.sh writes to <infra dir>/env (source it first) and default to the same values.
Each check makes uniquely named objects and removes them again. Exit status 0 only when every
selected check passed; each failure is printed with the server's name and what went wrong.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

POSTGRES_DSN = os.environ.get(
    "HINDSIGHT_POSTGRES_DSN", "postgresql://hindsight:hindsight@127.0.0.1:55432/hindsight"
)
KAFKA_BOOTSTRAP = os.environ.get("HINDSIGHT_KAFKA_BOOTSTRAP", "127.0.0.1:9092")
ELASTICSEARCH_URL = os.environ.get("HINDSIGHT_ELASTICSEARCH_URL", "http://127.0.0.1:9200")
NEO4J_URI = os.environ.get("HINDSIGHT_NEO4J_URI", "bolt://127.0.0.1:7687")
NEO4J_USER = os.environ.get("HINDSIGHT_NEO4J_USER")
NEO4J_PASSWORD = os.environ.get("HINDSIGHT_NEO4J_PASSWORD")

CHECK_TIMEOUT_S = float(os.environ.get("HINDSIGHT_SMOKE_TIMEOUT", "90"))
RUN_ID = uuid.uuid4().hex[:10]


class SmokeFailure(Exception):
    """A server answered, but not as expected."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


async def check_postgres() -> str:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES_DSN, timeout=10)
    try:
        expect(await conn.fetchval("SELECT 1") == 1, "SELECT 1 did not return 1")
        table = f"smoke_{RUN_ID}"
        await conn.execute(
            f"CREATE TABLE {table} (id bigserial PRIMARY KEY, body text NOT NULL, meta jsonb)"
        )
        try:
            new_id = await conn.fetchval(
                f"INSERT INTO {table} (body, meta) VALUES ($1, $2::jsonb) RETURNING id",
                "hello from smoke.py",
                '{"run": "%s"}' % RUN_ID,
            )
            row = await conn.fetchrow(f"SELECT body, meta->>'run' AS run FROM {table} WHERE id = $1", new_id)
            expect(row is not None, "inserted row not found")
            expect(row["body"] == "hello from smoke.py", f"round-trip body mismatch: {row['body']!r}")
            expect(row["run"] == RUN_ID, f"round-trip jsonb mismatch: {row['run']!r}")
        finally:
            await conn.execute(f"DROP TABLE IF EXISTS {table}")
        version = await conn.fetchval("SHOW server_version")
        user = conn.get_settings().session_authorization
        return f"PostgreSQL {version}, SELECT 1 and a table round-trip as {user}"
    finally:
        await conn.close()


async def check_kafka() -> str:
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic

    topic = f"smoke-{RUN_ID}"
    group = f"smoke-group-{RUN_ID}"
    payloads = [f"event-{i}".encode() for i in range(3)]

    admin = AIOKafkaAdminClient(bootstrap_servers=KAFKA_BOOTSTRAP, request_timeout_ms=20000)
    await admin.start()
    try:
        response = await admin.create_topics(
            [NewTopic(name=topic, num_partitions=1, replication_factor=1)]
        )
        errors = [(name, code) for name, code, *_ in response.topic_errors if code != 0]
        expect(not errors, f"create_topics failed: {errors}")

        producer = AIOKafkaProducer(bootstrap_servers=KAFKA_BOOTSTRAP, acks="all")
        await producer.start()
        try:
            for value in payloads:
                await producer.send_and_wait(topic, value, key=b"smoke")
        finally:
            await producer.stop()

        consumer = AIOKafkaConsumer(
            topic,
            bootstrap_servers=KAFKA_BOOTSTRAP,
            group_id=group,
            auto_offset_reset="earliest",
            enable_auto_commit=False,
        )
        await consumer.start()
        try:
            received: list[bytes] = []
            deadline = time.monotonic() + 45
            while len(received) < len(payloads) and time.monotonic() < deadline:
                batches = await consumer.getmany(timeout_ms=1000)
                for records in batches.values():
                    received.extend(r.value for r in records)
            expect(received == payloads, f"consumed {received!r}, expected {payloads!r}")
            await consumer.commit()
            committed = await consumer.committed(TopicPartition(topic, 0))
            expect(committed == len(payloads), f"committed offset {committed}, expected {len(payloads)}")
        finally:
            await consumer.stop()

        # A new consumer in the same group resumes after the committed offset: nothing to read.
        resumed = AIOKafkaConsumer(
            topic, bootstrap_servers=KAFKA_BOOTSTRAP, group_id=group, enable_auto_commit=False
        )
        await resumed.start()
        try:
            await resumed.getmany(timeout_ms=2000)
            tp = TopicPartition(topic, 0)
            position = await resumed.position(tp)
            expect(position == len(payloads), f"resumed group at offset {position}, expected {len(payloads)}")
        finally:
            await resumed.stop()

        await admin.delete_topics([topic])
    finally:
        await admin.close()
    return (
        f"topic {topic}: created, 3 records produced, consumed by group {group}, "
        "offset 3 committed and resumed"
    )


def _elasticsearch_sync() -> str:
    from elasticsearch import Elasticsearch

    es = Elasticsearch(ELASTICSEARCH_URL, request_timeout=30)
    index = f"smoke-{RUN_ID}"
    try:
        # ping()/info() use GET|HEAD /, which infra.sh's own hindsight-rest-root module serves.
        expect(es.ping(), "ping() (HEAD /) failed")
        version = es.info()["version"]["number"]
        health = es.cluster.health(wait_for_status="yellow", timeout="30s")
        expect(health["status"] in ("green", "yellow"), f"cluster health {health['status']}")
        es.indices.create(
            index=index,
            settings={"number_of_shards": 1, "number_of_replicas": 0},
            mappings={"properties": {"body": {"type": "text"}, "kind": {"type": "keyword"}}},
        )
        try:
            docs = {
                "1": "the quick brown fox jumps over the lazy dog",
                "2": "an event sourced memory service for agents",
                "3": "memory of a memory: recall what the agent saw",
            }
            for doc_id, body in docs.items():
                es.index(index=index, id=doc_id, document={"body": body, "kind": "smoke"})
            es.indices.refresh(index=index)
            result = es.search(index=index, query={"match": {"body": "memory service"}})
            hits = result["hits"]["hits"]
            expect(len(hits) == 2, f"BM25 search returned {len(hits)} hits, expected 2")
            expect(hits[0]["_id"] == "2", f"BM25 ranked {hits[0]['_id']} first, expected 2")
            expect(hits[0]["_score"] > hits[1]["_score"] > 0, "BM25 scores not ordered")
        finally:
            es.indices.delete(index=index)
        return (
            f"Elasticsearch {version}: ping/info, index created, 3 docs indexed, refresh, "
            "BM25 match ranked as expected"
        )
    finally:
        es.close()


async def check_elasticsearch() -> str:
    return await asyncio.to_thread(_elasticsearch_sync)


async def check_neo4j() -> str:
    from neo4j import AsyncGraphDatabase

    auth = (NEO4J_USER, NEO4J_PASSWORD) if NEO4J_USER else None
    driver = AsyncGraphDatabase.driver(NEO4J_URI, auth=auth)
    try:
        await driver.verify_connectivity()
        await driver.execute_query(
            "CREATE (:SmokeTest {run: $run, name: 'hindsight'})", run=RUN_ID
        )
        records, _, _ = await driver.execute_query(
            "MATCH (n:SmokeTest {run: $run}) RETURN n.name AS name", run=RUN_ID
        )
        expect([r["name"] for r in records] == ["hindsight"], f"MATCH returned {records!r}")
        await driver.execute_query("MATCH (n:SmokeTest {run: $run}) DETACH DELETE n", run=RUN_ID)
        info = await driver.get_server_info()
        return f"{info.agent} ({'auth' if auth else 'no auth'}): node created and matched"
    finally:
        await driver.close()


CHECKS: dict[str, Callable[[], Awaitable[str]]] = {
    "postgres": check_postgres,
    "kafka": check_kafka,
    "elasticsearch": check_elasticsearch,
    "neo4j": check_neo4j,
}

ADDRESSES = {
    "postgres": POSTGRES_DSN,
    "kafka": KAFKA_BOOTSTRAP,
    "elasticsearch": ELASTICSEARCH_URL,
    "neo4j": NEO4J_URI,
}


async def run_one(name: str) -> tuple[str, bool, str]:
    started = time.monotonic()
    try:
        detail = await asyncio.wait_for(CHECKS[name](), timeout=CHECK_TIMEOUT_S)
        ok = True
    except asyncio.TimeoutError:
        ok, detail = False, f"no result within {CHECK_TIMEOUT_S:.0f}s"
    except ImportError as exc:
        ok, detail = False, f"client library missing: {exc}"
    except Exception as exc:  # report every failure, whatever its type
        ok, detail = False, f"{type(exc).__name__}: {exc}"
    return name, ok, f"({time.monotonic() - started:.1f}s) {detail}"


async def main(argv: list[str]) -> int:
    names = argv or list(CHECKS)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        print(f"unknown server(s): {', '.join(unknown)}; known: {', '.join(CHECKS)}", file=sys.stderr)
        return 2
    results = await asyncio.gather(*(run_one(n) for n in names))
    failed = []
    for name, ok, detail in results:
        print(f"{'OK  ' if ok else 'FAIL'} {name:<14} {detail}")
        if not ok:
            failed.append(name)
    if failed:
        for name in failed:
            print(
                f"smoke: {name} at {ADDRESSES[name]} failed; is it up? "
                f"(deploy/local/infra.sh status; log in <infra dir>/{name}/)",
                file=sys.stderr,
            )
        return 1
    print(f"smoke: all {len(names)} checks OK ({', '.join(names)})")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
