"""A Kafka outage, as issue 14 found it: the broker stops for ~35 s under a steady
writer and comes back. Run on a PRIVATE broker (tests/support/private_kafka.py), never
the shared one, with the real ingest and project service apps (``create_service_app``;
project's text and graph projections on their embedded adapters, so that no other server
is involved).

What must hold:
- a write during the outage answers promptly (within the append deadline plus a
  margin, well under a client's 15 s timeout) with 201 or 503 + Retry-After, never a
  2xx for an event that is not in the log afterwards;
- project's ``/healthz`` says so (503, with the reason) once the outage has lasted past
  its liveness threshold;
- when the broker is back, project resumes BY ITSELF (same process, no restart), every
  acknowledged event reaches its text projection, and ``/healthz`` is 200 again.

Before the fix, the consumer's task could end silently ~30 s into the outage: a commit
or fetch gave up, the loop stopped its aiokafka consumer, whose ``stop()`` let out the
CancelledError of a fetch task it had cancelled itself, past the supervisor (which
restarted only on ``Exception``); nothing was logged and the consumer never consumed
again. On that code this module fails (checked): the loop test never catches up, and the
service test's ``/healthz`` never says why and its writes wait 30 s.
"""

from __future__ import annotations

import base64

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from hindsight_common.adapters.kafka_log import KafkaLog
from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.consumer import Consumer, supervise
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.http import RETRY_AFTER_S
from hindsight_services.process import create_service_app
from tests.contract.log_contract import turn
from tests.servers import server_url
from tests.support.private_kafka import PrivateKafka

OUTAGE_S = 35.0  # past the consumer's 30.5 s fetch deadline that used to end its task
APPEND_TIMEOUT_S = 3.0
STALL_S = 5.0
TENANT = "default"


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateKafka]:
    kafka = PrivateKafka(tmp_path_factory.mktemp("private-kafka"))
    kafka.up()
    try:
        yield kafka
    finally:
        try:
            kafka.resume()  # in case a failure left it paused
        except (OSError, ValueError):
            pass
        kafka.down()


def cluster_settings(broker: PrivateKafka, data_dir: Path, prefix: str) -> Settings:
    return Settings(
        data_dir=data_dir, log_backend="kafka", kafka_bootstrap=broker.bootstrap, kafka_topic_prefix=prefix,
        kafka_partitions=2, postgres_dsn=server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        text_backend="sqlite_fts", graph_backend="sqlite", grpc_port=0,
        kafka_append_timeout_s=APPEND_TIMEOUT_S, kafka_stall_s=STALL_S, liveness_stall_s=STALL_S,
        # A cluster process signs or verifies: it does not start without keys.
        signing_keys={"recovery": base64.b64encode(b"kafka-recovery-test-key-32-bytes").decode()},
        master_key=base64.b64encode(b"kafka-recovery-master-key-32byte").decode(),
        signing_key_id="recovery",
    )


async def client_of(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test", timeout=15.0)


class Writer:
    """One interaction every 0.2 s through ingest's HTTP API, as the issue's client did."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.acked: list[str] = []
        self.refused = 0
        self.slowest_s = 0.0
        self.other: list[str] = []

    async def run(self, stop: asyncio.Event) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            body = {"interactions": [{"user": f"user-{n % 5}", "session": "s1", "speaker": "Ann",
                                      "role": "user", "content": f"turn number {n}"}]}
            started = time.monotonic()
            answer = await self.client.post("/v1/interactions", json=body)
            self.slowest_s = max(self.slowest_s, time.monotonic() - started)
            if answer.status_code == 201:
                self.acked += [e["event_id"] for e in answer.json()["events"]]
            elif answer.status_code == 503 and answer.headers.get("retry-after") == str(RETRY_AFTER_S):
                self.refused += 1
            else:
                self.other.append(f"{answer.status_code} {answer.text[:200]}")
            await asyncio.sleep(0.2)


async def _nothing() -> str:
    return ""


async def wait_for(check: Any, timeout_s: float, what: str, describe: Any = _nothing) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if await check():
            return
        await asyncio.sleep(0.5)
    raise AssertionError(f"not within {timeout_s:.0f} s: {what} ({await describe()})")


@pytest.fixture
async def apps(broker: PrivateKafka, tmp_path: Path) -> AsyncIterator[tuple[FastAPI, FastAPI, Settings]]:
    prefix = f"test-{uuid.uuid4().hex[:12]}."
    ingest = create_service_app("ingest", cluster_settings(broker, tmp_path / "ingest", prefix))
    project_settings = cluster_settings(broker, tmp_path / "project", prefix)
    project = create_service_app("project", project_settings)
    async with ingest.router.lifespan_context(ingest), project.router.lifespan_context(project):
        yield ingest, project, project_settings


async def test_project_resumes_by_itself_after_kafka_was_down(
    broker: PrivateKafka, apps: tuple[FastAPI, FastAPI, Settings]
) -> None:
    ingest_app, project_app, settings = apps
    ingest, project = await client_of(ingest_app), await client_of(project_app)
    text = SqliteFtsIndex(settings.text_path)  # the projection's own file, read beside it
    writer, stop = Writer(ingest), asyncio.Event()
    writing = asyncio.create_task(writer.run(stop))
    try:
        async def projected(first: int | None = None) -> bool:
            acked = writer.acked[:first]
            return bool(acked) and set(acked) <= set(await text.ids(TENANT))

        await wait_for(lambda: projected(3), 60, "the first writes in the text projection")
        assert (await project.get("/healthz")).status_code == 200

        broker.down()
        down_at, reasons = time.monotonic(), []
        while time.monotonic() - down_at < OUTAGE_S:
            health = await project.get("/healthz")
            if health.status_code != 200:
                reasons.append(health.json().get("reason", health.json()["status"]))
                status = (await project.get("/v1/status")).json()
                assert status["problem"] and status["problem"].startswith("project: "), status
            await asyncio.sleep(1.0)
        acked_before_restart = len(writer.acked)
        broker.up()

        async def written_again() -> bool:
            return len(writer.acked) > acked_before_restart + 3

        await wait_for(written_again, 60, "writes acknowledged again after the outage")
        stop.set()
        await writing
        await wait_for(projected, 120, "every acknowledged write projected after the outage, without a restart")
        await wait_for(lambda: _ok(project), 30, "project's /healthz back to 200")
        assert (await project.get("/v1/status")).json()["problem"] is None
    finally:
        stop.set()
        await writing
        await text.close()
        await ingest.aclose()
        await project.aclose()

    # Liveness said why while Kafka was gone, once that lasted past its threshold (which
    # reason depends on where the outage caught the loop: a commit, a fetch, a rejoin).
    assert reasons and all(r.startswith("project: ") for r in reasons), reasons
    # Writes in the outage were refused promptly, never acknowledged without the log.
    assert writer.refused > 0 and not writer.other, writer.other
    assert writer.slowest_s < APPEND_TIMEOUT_S * 3, writer.slowest_s
    log = KafkaLog(broker.bootstrap, None, topic_prefix=settings.kafka_topic_prefix, timeout_s=15)
    try:
        logged = {str(r.event.event_id) for p in await log.partition_ids(INTERACTIONS)
                  for r in await log.read(INTERACTIONS, partition=p, limit=100_000) if r.event is not None}
    finally:
        await log.close()
    assert set(writer.acked) <= logged


async def _ok(client: httpx.AsyncClient) -> bool:
    return (await client.get("/healthz")).status_code == 200


async def test_the_consumer_loop_resumes_after_kafka_was_down(broker: PrivateKafka) -> None:
    """The loop every worker runs (``consumer.supervise``), over two streams and nine
    partitions like embed's, with a handler that takes its time like an embedder: before
    the fix it never consumed again after this outage."""
    log = KafkaLog(broker.bootstrap, None, topic_prefix=f"test-{uuid.uuid4().hex[:12]}.", partitions=6,
                   other_partitions=3, stall_after_s=STALL_S, append_timeout_s=APPEND_TIMEOUT_S)
    seen: set[str] = set()

    async def handler(records: Sequence[LogRecord], position: Position) -> None:
        await asyncio.sleep(0.3)
        seen.update(str(r.event.event_id) for r in records if r.event is not None)

    consumer = Consumer(log, "embed", [INTERACTIONS, "hindsight.memories.v1"], handler)
    stop, stop_writing, acked = asyncio.Event(), asyncio.Event(), list[str]()

    async def write() -> None:
        n = 0
        while not stop_writing.is_set():
            n += 1
            try:
                appended = await log.append(INTERACTIONS, [turn(f"user-{n % 7}", f"turn {n}")])
                acked.extend(str(a.event_id) for a in appended)
            except PersistenceError:
                pass  # refused: the caller would get its 503 and retry
            await asyncio.sleep(0.2)

    running = asyncio.create_task(supervise(consumer, stop))
    writing = asyncio.create_task(write())
    try:
        await asyncio.wait_for(consumer.ready.wait(), 60)

        async def all_seen(first: int | None = None) -> bool:
            return bool(acked[:first]) and set(acked[:first]) <= seen

        async def counts() -> str:
            return f"{len(acked)} acknowledged, {len(seen)} consumed, {len(set(acked) - seen)} missing"

        await wait_for(lambda: all_seen(3), 60, "the first writes consumed", counts)
        broker.down()
        await asyncio.sleep(OUTAGE_S + 5)
        problem = consumer.health(STALL_S)
        acked_before_restart = len(acked)
        broker.up()

        async def written_again() -> bool:
            return len(acked) > acked_before_restart + 3

        await wait_for(written_again, 60, "writes acknowledged again after the outage", counts)
        stop_writing.set()
        await writing
        await wait_for(all_seen, 120, "every acknowledged event consumed after the outage", counts)
        assert not running.done()
        assert problem is not None and problem.startswith("embed: "), problem
        await wait_for(_healthy(consumer), 30, "the consumer healthy again")
    finally:
        stop.set()
        stop_writing.set()
        await writing
        await asyncio.wait_for(running, 60)
        await log.close()


def _healthy(consumer: Consumer) -> Any:
    async def check() -> bool:
        return consumer.health(STALL_S) is None

    return check
