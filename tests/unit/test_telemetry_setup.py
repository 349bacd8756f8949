"""Telemetry's pure parts: which exporter the OTEL_* variables choose, consumer lag,
the JSON log line, LLM accounting into Prometheus, and the trace context of a record."""

from __future__ import annotations

import json
import logging
import sys
import uuid
from datetime import UTC, datetime

import pytest

from hindsight_common.adapters.kafka_records import KafkaRecord, event_headers
from hindsight_common.errors import ConfigurationError
from hindsight_common.events import InteractionRecorded
from hindsight_common.llm.accounting import LLMCounters
from hindsight_common.ports.llm import Usage
from hindsight_common.ports.log import LogRecord
from hindsight_common.settings import Settings
from hindsight_common.telemetry import JsonFormatter, observe_lag, record_carrier, span
from hindsight_common.telemetry.metrics import REGISTRY
from hindsight_common.telemetry.traced_log import with_trace
from hindsight_common.telemetry.tracing import exporter_name
from hindsight_services.observability import setup_process
from tests.support.tracing import Spans, spans  # noqa: F401 - the fixture

TRACEPARENT = f"00-{'a' * 32}-{'b' * 16}-01"


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "none"),
    ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, "otlp"),
    ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, "otlp"),
    ({"OTEL_TRACES_EXPORTER": "otlp"}, "otlp"),
    ({"OTEL_TRACES_EXPORTER": "console"}, "console"),
    ({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, "none"),
    ({"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, "none"),
])
def test_the_exporter_follows_the_otel_variables(environ: dict[str, str], expected: str) -> None:
    assert exporter_name(environ) == expected


def test_an_unknown_exporter_is_a_clear_error() -> None:
    with pytest.raises(ConfigurationError, match="OTEL_TRACES_EXPORTER='zipkin'.*otlp, console, none"):
        exporter_name({"OTEL_TRACES_EXPORTER": "zipkin"})


def lag(group: str, stream: str, partition: str) -> float | None:
    return REGISTRY.get_sample_value("hindsight_consumer_lag",
                                     {"group": group, "stream": stream, "partition": partition})


def test_lag_per_partition_counts_from_the_position_to_the_head() -> None:
    group = f"g-{uuid.uuid4().hex[:6]}"
    observe_lag(group, {"s#0": 7, "s#1": 3}, {"s#0": 7, "s#1": 10, "s#2": 4})
    assert lag(group, "s", "0") == 0  # caught up
    assert lag(group, "s", "1") == 7
    assert lag(group, "s", "2") == 5  # nothing applied: offsets 0..4


def record_of(formatter: logging.Formatter, message: str, *args: object, exc: bool = False,
              **extra: object) -> dict[str, str]:
    info = None
    if exc:
        try:
            raise ValueError("broken")
        except ValueError:
            info = sys.exc_info()
    rec = logging.LogRecord("hindsight.x", logging.WARNING, __file__, 1, message, args, info)
    rec.__dict__.update(extra)
    out: dict[str, str] = json.loads(formatter.format(rec))
    return out


def test_a_json_line_has_the_fields_and_the_span_ids(spans: Spans) -> None:  # noqa: F811
    formatter = JsonFormatter("embed")
    outside = record_of(formatter, "batch of %d", 3)
    assert outside["message"] == "batch of 3" and outside["level"] == "WARNING"
    assert outside["logger"] == "hindsight.x" and outside["service"] == "embed"
    assert datetime.fromisoformat(outside["timestamp"]).tzinfo == UTC
    assert "trace_id" not in outside and "span_id" not in outside
    with span("work") as current:
        inside = record_of(formatter, "inside", exc=True, content="the user's words")
    ctx = current.get_span_context()
    assert inside["trace_id"] == f"{ctx.trace_id:032x}" and inside["span_id"] == f"{ctx.span_id:016x}"
    assert inside["exception"] == "ValueError" and "broken" in inside["traceback"]
    assert "the user's words" not in json.dumps(inside)  # extra= fields are not printed


def test_log_format_defaults_per_command_and_follows_the_setting() -> None:
    root = logging.getLogger()
    kept, level = list(root.handlers), root.level
    try:
        setup_process("embed", Settings(), "json")
        assert isinstance(root.handlers[-1].formatter, JsonFormatter)
        setup_process("embedded", Settings(), "text")
        assert not isinstance(root.handlers[-1].formatter, JsonFormatter)
        setup_process("embedded", Settings(log_format="json"), "text")
        assert isinstance(root.handlers[-1].formatter, JsonFormatter)
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in kept:
            root.addHandler(h)
        root.setLevel(level)


def test_llm_accounting_feeds_the_prometheus_counters() -> None:
    model = f"model-{uuid.uuid4().hex[:6]}"
    counters = LLMCounters(model)
    counters.add(calls=1, requests=2, retries=1)
    counters.add(failures=1, rate_limited=1)
    counters.add_usage(Usage(prompt_tokens=120, completion_tokens=30, total_tokens=150, cost_usd=0.25))

    def sample(name: str, **labels: str) -> float | None:
        return REGISTRY.get_sample_value(name, {"model": model, **labels})

    assert sample("hindsight_llm_calls_total") == 1
    assert sample("hindsight_llm_requests_total") == 2
    assert sample("hindsight_llm_retries_total") == 1
    assert sample("hindsight_llm_failures_total") == 1
    assert sample("hindsight_llm_tokens_total", kind="prompt") == 120
    assert sample("hindsight_llm_tokens_total", kind="completion") == 30
    assert sample("hindsight_llm_cost_usd_total") == pytest.approx(0.25)
    assert counters.totals.calls == 1 and counters.totals.prompt_tokens == 120  # the snapshot as before


def turn(**over: object) -> InteractionRecorded:
    fields: dict[str, object] = {"tenant": "t", "user": "u", "session": "s", "speaker": "Ann", "role": "user",
                                 "content": "hello", "occurred_at": datetime(2024, 5, 1, tzinfo=UTC)}
    fields.update(over)
    return InteractionRecorded.model_validate(fields)


def test_the_trace_context_travels_in_the_event_and_the_kafka_headers() -> None:
    event = turn(trace={"traceparent": TRACEPARENT})
    headers = dict(event_headers(event))
    assert headers["traceparent"] == TRACEPARENT.encode()
    # From the event when it has one; from a Kafka record's headers otherwise.
    assert record_carrier(LogRecord("s", 0, 1, "t/u", b"", event)) == {"traceparent": TRACEPARENT}
    poison = KafkaRecord("s", 0, 2, "t/u", b"{", None, "not JSON", headers=(("traceparent", TRACEPARENT.encode()),))
    assert record_carrier(poison) == {"traceparent": TRACEPARENT}
    assert record_carrier(LogRecord("s", 0, 3, "t/u", b"", turn())) == {}


def test_appending_fills_only_events_without_a_trace() -> None:
    mine, theirs = turn(), turn(trace={"traceparent": TRACEPARENT})
    other = f"00-{'c' * 32}-{'d' * 16}-01"
    filled = with_trace([mine, theirs], {"traceparent": other})
    assert [e.trace["traceparent"] for e in filled] == [other, TRACEPARENT]
    assert filled[0].event_id == mine.event_id
    assert with_trace([mine], {}) == [mine]
