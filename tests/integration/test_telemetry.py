"""Telemetry of the embedded gateway: one trace from the HTTP write through the log
append to every consumer and projection write; recall's spans per path; /metrics after
traffic; JSON log lines with trace ids and without the content they processed."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import grpc
from opentelemetry.trace import SpanKind
from prometheus_client.parser import text_string_to_metric_families

from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.consumer import Consumer
from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.streams import INTERACTIONS
from hindsight_common.telemetry import JsonFormatter, TracedLog, span
from hindsight_common.telemetry.metrics import REGISTRY
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import build_server
from hindsight_services.ingest.handler import Ingest
from tests.support.auth import open_auth
from tests.integration.conftest import App
from tests.support.tracing import Spans, spans  # noqa: F401 - the fixture

USER = "telemetry-user"


async def ingest_one(app: App, content: str, headers: dict[str, str] | None = None) -> str:
    r = await app.client.post("/v1/interactions", headers=headers or {}, json={"interactions": [
        {"user": USER, "session": "s1", "speaker": "Ann", "role": "user", "content": content}]})
    assert r.status_code == 201, r.text
    await app.runtime.wait_caught_up(timeout_s=30)
    return str(r.json()["events"][0]["event_id"])


Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    """Every sample of a Prometheus text exposition, by (name, labels)."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(found: Samples, name: str, **labels: str) -> float:
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= ls)


def gained(after: Samples, before: Samples, name: str, **labels: str) -> float:
    """How much a sample grew between two scrapes (the registry is per process, so other
    tests in it count too)."""
    return value(after, name, **labels) - value(before, name, **labels)


async def test_one_ingest_is_one_trace_from_http_to_every_projection_write(
    app: App, spans: Spans  # noqa: F811
) -> None:
    await ingest_one(app, "Ann moved to Lisbon in May.")

    [http] = spans.named("POST /v1/interactions")
    assert http.kind == SpanKind.SERVER and http.attributes is not None
    assert http.attributes["http.response.status_code"] == 201
    assert http.context is not None
    trace = spans.of_trace(http.context.trace_id)
    names = {s.name for s in trace}
    assert f"{INTERACTIONS} publish" in names  # the append
    consumers = {s.attributes["messaging.consumer.group.name"] for s in trace
                 if s.name == f"{INTERACTIONS} process" and s.attributes is not None}
    assert {"embed", "project", "reflect"} <= consumers
    assert {"embed handle", "project handle", "reflect handle"} <= names
    assert {"projection write vector", "projection write text", "projection write graph"} <= names
    # Parents chain up to the HTTP span: nothing in the trace is orphaned.
    ids = {s.context.span_id for s in trace if s.context is not None}
    assert all(s.parent is None or s.parent.span_id in ids for s in trace)
    assert [s for s in trace if s.parent is None] == [http]
    # The event on the log carries the trace context (W3C traceparent of this trace).
    [record] = await app.runtime.log.read(INTERACTIONS)
    assert record.event is not None
    assert record.event.trace["traceparent"].split("-")[1] == f"{http.context.trace_id:032x}"


async def test_an_incoming_traceparent_is_continued(app: App, spans: Spans) -> None:  # noqa: F811
    trace_id = uuid.uuid4().hex
    await ingest_one(app, "Ben plays the cello.", {"traceparent": f"00-{trace_id}-{'1' * 16}-01"})
    trace = spans.of_trace(int(trace_id, 16))
    assert {"POST /v1/interactions", "embed handle", "projection write vector"} <= {s.name for s in trace}


async def test_recall_has_a_span_per_path_and_for_the_cross_encoder(app: App, spans: Spans) -> None:  # noqa: F811
    for text in ("Ann moved to Lisbon in May.", "Ann likes green tea.", "Ben works at the harbour."):
        await ingest_one(app, text)
    spans_before = len(spans.all())
    r = await app.client.post("/v1/recall", json={"user": USER, "query": "Where did Ann move last May?"})
    assert r.status_code == 200 and r.json()["items"]
    [http] = spans.named("POST /v1/recall")
    assert http.context is not None
    recall = {s.name for s in spans.of_trace(http.context.trace_id)}
    assert len(spans.all()) > spans_before
    assert {"recall", "recall embed_query", "recall vector", "recall bm25", "recall bm25_context",
            "recall speaker", "recall cross_encoder"} <= recall


async def test_metrics_after_traffic(app: App) -> None:
    before = samples((await app.client.get("/metrics")).text)  # the registry is per process
    for text in ("Ann moved to Lisbon in May.", "Ann likes green tea."):
        await ingest_one(app, text)
    assert (await app.client.post("/v1/recall", json={"user": USER, "query": "tea"})).status_code == 200

    r = await app.client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    found = samples(r.text)

    for group in ("embed", "project", "reflect"):
        assert gained(found, before, "hindsight_events_processed_total", group=group,
                      stream=INTERACTIONS) >= 2
        assert gained(found, before, "hindsight_freshness_seconds_count", group=group) >= 2
        assert gained(found, before, "hindsight_processing_seconds_count", group=group) >= 1
        lags = {k: v for k, v in found.items() if k[0] == "hindsight_consumer_lag" and ("group", group) in k[1]}
        assert lags, group
        # The registry is per process: a gauge another test's consumer left behind (a Kafka
        # partition this log lacks) keeps its old value; what this runtime set is caught up.
        assert all(v == 0 for k, v in lags.items() if before.get(k) != v), lags  # caught up
    assert gained(found, before, "hindsight_events_appended_total", stream=INTERACTIONS) >= 2
    assert gained(found, before, "hindsight_recall_seconds_count", preset="balanced") >= 1
    assert gained(found, before, "hindsight_recall_stage_seconds_count", stage="vector") >= 1
    assert gained(found, before, "hindsight_recall_stage_seconds_count", stage="cross_encoder") >= 1
    assert gained(found, before, "hindsight_http_requests_total", service="embedded",
                  route="/v1/interactions", status="201") >= 2
    assert gained(found, before, "hindsight_freshness_seconds_sum", group="embed") < 60 * 2


async def test_json_logs_carry_trace_ids_and_never_content(app: App, spans: Spans) -> None:  # noqa: F811
    secret = f"my locker code is {uuid.uuid4().hex}"
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter("embedded"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        await ingest_one(app, secret)
        await app.client.post("/v1/recall", json={"user": USER, "query": secret})
        with span("log check"):
            logging.getLogger("hindsight.test").info("processed event %s", "e-1")
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines, "nothing was logged while processing"
    assert secret not in out.getvalue()
    assert secret.split()[-1] not in out.getvalue()
    for line in lines:
        assert {"timestamp", "level", "logger", "message", "service"} <= set(line)
        assert line["service"] == "embedded"
    [mine] = [line for line in lines if line["logger"] == "hindsight.test"]
    assert mine["message"] == "processed event e-1"
    assert len(mine["trace_id"]) == 32 and len(mine["span_id"]) == 16


async def test_a_grpc_write_is_one_trace_through_the_consumers(app: App, spans: Spans) -> None:  # noqa: F811
    runtime = app.runtime
    gateway = build_server(lambda: runtime.query, lambda: Ingest(runtime.log, runtime.settings),
                           runtime.settings, 0, auth=open_auth())
    await gateway.start()
    trace_id = uuid.uuid4().hex
    try:
        async with grpc.aio.insecure_channel(gateway.address) as channel:
            stub = pb_grpc.HindsightStub(channel)
            turn = pb.Interaction(user=USER, session="s1", speaker="Ann", role="user", content="Ann sails.")
            await stub.Retain(pb.RetainRequest(interactions=[turn]), timeout=30,
                              metadata=(("traceparent", f"00-{trace_id}-{'2' * 16}-01"),))
    finally:
        await gateway.stop(0)
    await runtime.wait_caught_up(timeout_s=30)
    trace = spans.of_trace(int(trace_id, 16))
    [rpc] = [s for s in trace if s.name == "hindsight.v1.Hindsight/Retain"]
    assert rpc.kind == SpanKind.SERVER
    names = {s.name for s in trace}
    assert {f"{INTERACTIONS} publish", f"{INTERACTIONS} process", "embed handle",
            "projection write vector", "projection write text"} <= names


async def test_dead_letters_are_counted_per_group(app: App) -> None:
    before = samples((await app.client.get("/metrics")).text)
    await app.runtime.log.append_raw(INTERACTIONS, "t/u", b"{not an event")
    await app.runtime.wait_caught_up(timeout_s=30)
    after = samples((await app.client.get("/metrics")).text)
    for group in ("embed", "project", "reflect"):
        assert gained(after, before, "hindsight_dead_letters_total", group=group) == 1, group


async def test_a_failing_record_is_dead_lettered_in_its_own_trace(tmp_path: Path, spans: Spans) -> None:  # noqa: F811
    """A handler that cannot process one record (a bug-shaped failure): the batch fails,
    is retried record by record, and the bad one is dead-lettered. Its log line carries
    that record's trace id, its consumer span says so, and the counters count it."""
    log = TracedLog(SqliteLog(tmp_path / "log.sqlite3"))
    traces = {}
    for content in ("fine", "bad", "also fine"):
        with span(f"write {content}") as writer:
            await log.append(INTERACTIONS, [turn(content)])
        traces[content] = writer.get_span_context().trace_id

    async def handle(records: Sequence[LogRecord], position: Position) -> None:
        if any(getattr(r.event, "content", "") == "bad" for r in records):
            raise ValueError("cannot handle this one")

    group = f"g-{uuid.uuid4().hex[:6]}"
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter("test"))
    logging.getLogger("hindsight_common.consumer").addHandler(handler)
    consumer = Consumer(log, group, [INTERACTIONS], handle, poll_timeout_s=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    try:
        for _ in range(200):
            if consumer.processed == 3:
                break
            await asyncio.sleep(0.02)
    finally:
        stop.set()
        await task
        logging.getLogger("hindsight_common.consumer").removeHandler(handler)
        await log.close()
    [line] = [json.loads(x) for x in out.getvalue().splitlines() if "dead-lettering" in x]
    assert line["trace_id"] == f"{traces['bad']:032x}"
    [bad] = [s for s in spans.of_trace(traces["bad"]) if s.name == f"{INTERACTIONS} process"]
    assert not bad.status.is_ok and bad.events and bad.events[0].name == "exception"
    [fine] = [s for s in spans.of_trace(traces["fine"]) if s.name == f"{INTERACTIONS} process"]
    assert fine.status.is_unset
    assert REGISTRY.get_sample_value("hindsight_dead_letters_total", {"group": group}) == 1
    assert REGISTRY.get_sample_value("hindsight_events_failed_total", {"group": group, "kind": "error"}) == 3
    assert REGISTRY.get_sample_value("hindsight_events_processed_total",
                                     {"group": group, "stream": INTERACTIONS}) == 3


def turn(content: str) -> InteractionRecorded:
    return InteractionRecorded(tenant="t", user="u", session="s", speaker="Ann", role="user",
                               content=content, occurred_at=datetime(2024, 1, 1, tzinfo=UTC))
