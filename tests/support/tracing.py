"""Spans recorded in memory, for tests that read back a trace.

The tracer provider is process-wide and can be installed only once, so the first test
that asks for ``spans`` installs an SDK provider with an in-memory exporter; each test
starts with the exporter emptied.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from hindsight_common.telemetry import configure_tracing

_EXPORTER = InMemorySpanExporter()
_installed = False


class Spans:
    """The spans finished so far."""

    def all(self) -> list[ReadableSpan]:
        return list(_EXPORTER.get_finished_spans())

    def named(self, name: str) -> list[ReadableSpan]:
        return [s for s in self.all() if s.name == name]

    def of_trace(self, trace_id: int) -> list[ReadableSpan]:
        return [s for s in self.all() if s.context is not None and s.context.trace_id == trace_id]


@pytest.fixture
def spans() -> Iterator[Spans]:
    global _installed
    if not _installed:
        configure_tracing("test", {}, processor=SimpleSpanProcessor(_EXPORTER))
        _installed = True
    _EXPORTER.clear()
    yield Spans()
    _EXPORTER.clear()
