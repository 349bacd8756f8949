"""Spans leave over OTLP/HTTP when the standard OTEL_* variables say so: a process set
up by ``configure_tracing`` sends them to a real local HTTP endpoint standing in for an
OpenTelemetry collector, which decodes the protobuf it receives."""

from __future__ import annotations

import os
from pathlib import Path
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

PROGRAM = """
import os
from pathlib import Path
from hindsight_common.telemetry import configure_tracing, shutdown_tracing, span
print("recording" if configure_tracing("embed", os.environ) else "off")
with span("embed handle", {"messaging.batch.message_count": 3}):
    pass
shutdown_tracing()
"""


class Collector(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.received: list[tuple[str, bytes]] = []


class _Handler(BaseHTTPRequestHandler):
    server: Collector

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook
        body = self.rfile.read(int(self.headers["content-length"]))
        self.server.received.append((self.path, body))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[Collector]:
    server = Collector()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def run(env: dict[str, str]) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run([sys.executable, "-c", PROGRAM], env={**clean, **env}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_spans_are_exported_over_otlp_http_to_the_endpoint(collector: Collector) -> None:
    endpoint = f"http://127.0.0.1:{collector.server_address[1]}"
    assert run({"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint,
                "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=test"}) == "recording"
    [(path, body)] = collector.received
    assert path == "/v1/traces"
    request = ExportTraceServiceRequest.FromString(body)
    [resource_spans] = request.resource_spans
    resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
    assert resource["service.name"] == "hindsight-embed"
    assert resource["deployment.environment"] == "test"
    [scope] = resource_spans.scope_spans
    assert [s.name for s in scope.spans] == ["embed handle"]


def test_otel_service_name_names_the_service(collector: Collector) -> None:
    endpoint = f"http://127.0.0.1:{collector.server_address[1]}"
    run({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": f"{endpoint}/v1/traces",
         "OTEL_SERVICE_NAME": "memory-embed"})
    [(_, body)] = collector.received
    [resource_spans] = ExportTraceServiceRequest.FromString(body).resource_spans
    resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
    assert resource["service.name"] == "memory-embed"


def test_an_unknown_exporter_stops_hindsight_run_with_a_clear_error() -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run([sys.executable, "-m", "hindsight_services.cli", "run", "ingest"],
                          env={**clean, "OTEL_TRACES_EXPORTER": "zipkin"}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert "OTEL_TRACES_EXPORTER='zipkin': unknown exporter 'zipkin'; use one of otlp, console, none" in done.stderr


def test_nothing_is_exported_without_the_variables_or_with_exporter_none(collector: Collector) -> None:
    endpoint = f"http://127.0.0.1:{collector.server_address[1]}"
    assert run({}) == "off"
    assert run({"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}) == "off"
    assert collector.received == []


PASS_THROUGH = """
import asyncio, sys
from datetime import UTC, datetime
from pathlib import Path
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.consumer import Consumer
from hindsight_common.events import InteractionRecorded
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_common.telemetry import TracedLog, configure_tracing
from hindsight_common.telemetry.tracing import recording
import os
from pathlib import Path

def turn(**kw):
    return InteractionRecorded(tenant="t", user="u", session="s", speaker="A", role="user", content="hi",
                               occurred_at=datetime(2024, 1, 1, tzinfo=UTC), **kw)

async def main():
    assert not configure_tracing("reflect", os.environ) and not recording()
    log = TracedLog(SqliteLog(Path(sys.argv[1])))
    await log.append(INTERACTIONS, [turn(trace={"traceparent": sys.argv[2]})])
    async def handle(records, position):  # what reflect does: append what it learned
        if records:
            await log.append(MEMORIES, [turn()])
    consumer = Consumer(log, "g", [INTERACTIONS], handle, poll_timeout_s=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    while consumer.processed < 1:
        await asyncio.sleep(0.02)
    stop.set()
    await task
    [written] = await log.read(MEMORIES)
    print(written.event.trace.get("traceparent", ""))
    await log.close()

asyncio.run(main())
"""


def test_with_tracing_off_a_consumer_still_passes_the_trace_on(tmp_path: Path) -> None:
    """A service without an exporter records nothing but does not break the trace: what
    its handler appends carries the trace of the record it was handling."""
    trace_id = "4" * 32
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run([sys.executable, "-c", PASS_THROUGH, str(tmp_path / "log.sqlite3"),
                           f"00-{trace_id}-{'5' * 16}-01"], env=clean, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split("-")[1] == trace_id
