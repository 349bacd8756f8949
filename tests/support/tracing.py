"""Spans recorded in memory, for tests that read back a trace.

The tracer provider is process-wide and can be installed only once, so the first test
that asks for ``spans`` installs an SDK provider with an in-memory exporter. Its sampler
records only while such a test runs: the tests after it get non-recording spans, as
without tracing, and nothing piles up in memory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import Decision, Sampler, SamplingResult
from opentelemetry.trace import Link, SpanKind
from opentelemetry.util.types import Attributes

from hindsight_common.telemetry import configure_tracing

_EXPORTER = InMemorySpanExporter()


class _WhileRecording(Sampler):
    """Samples every span while ``on``; drops them otherwise."""

    on = False

    def should_sample(self, parent_context: Context | None, trace_id: int, name: str,
                      kind: SpanKind | None = None, attributes: Attributes = None,
                      links: Sequence[Link] | None = None, trace_state: trace.TraceState | None = None,
                      ) -> SamplingResult:
        return SamplingResult(Decision.RECORD_AND_SAMPLE if self.on else Decision.DROP, attributes)

    def get_description(self) -> str:
        return "WhileRecording"


_SAMPLER = _WhileRecording()


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
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(TracerProvider(sampler=_SAMPLER))
        configure_tracing("test", {}, processor=SimpleSpanProcessor(_EXPORTER))  # keeps ours, adds it
    _EXPORTER.clear()
    _SAMPLER.on = True
    try:
        yield Spans()
    finally:
        _SAMPLER.on = False
        _EXPORTER.clear()
