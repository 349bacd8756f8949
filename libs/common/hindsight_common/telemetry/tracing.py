"""OpenTelemetry traces: set-up from the standard ``OTEL_*`` variables, and the W3C
trace context carried by events and Kafka record headers.

Which exporter (:func:`configure_tracing`):

- ``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none``: no spans are recorded;
- ``OTEL_TRACES_EXPORTER=otlp``, or ``OTEL_EXPORTER_OTLP_ENDPOINT`` /
  ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` set: OTLP over HTTP/protobuf (the exporter
  reads the endpoint, headers and timeout variables itself);
- ``OTEL_TRACES_EXPORTER=console``: spans printed as JSON on stdout;
- none of those: off. Both modes start without exporting anything; the cluster's
  Kubernetes config sets the endpoint.

``OTEL_SERVICE_NAME`` overrides the service name (default ``hindsight-<service>``);
``OTEL_RESOURCE_ATTRIBUTES`` adds resource attributes. Tracing is process-wide: the
first call installs the tracer provider, later calls (several apps in one process,
as in tests) keep it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.propagate import extract, inject
from opentelemetry.sdk.resources import OTELResourceDetector, Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter
from opentelemetry.trace import Link, Span, SpanKind

from hindsight_common.errors import ConfigurationError

log = logging.getLogger(__name__)

TRACER_NAME = "hindsight"
TRACE_KEYS = ("traceparent", "tracestate")
EXPORTERS = ("otlp", "console", "none")


def exporter_name(environ: Mapping[str, str]) -> str:
    """Which exporter the ``OTEL_*`` variables ask for: otlp, console or none."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return "none"
    chosen = environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if chosen:
        names = [n.strip() for n in chosen.split(",") if n.strip()]
        unknown = [n for n in names if n not in EXPORTERS]
        if unknown:
            raise ConfigurationError(
                f"OTEL_TRACES_EXPORTER={chosen!r}: unknown exporter {unknown[0]!r}; "
                f"use one of {', '.join(EXPORTERS)}"
            )
        return names[0]
    if environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or environ.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        return "otlp"
    return "none"


def _exporter(name: str) -> SpanExporter | None:
    if name == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter()
    if name == "console":
        return ConsoleSpanExporter()
    return None


def configure_tracing(
    service: str, environ: Mapping[str, str], *, processor: SpanProcessor | None = None
) -> bool:
    """Install the process's tracer provider for ``service`` as ``environ`` asks.

    ``environ`` (the process environment, in the services) chooses the exporter and the
    service name; the OTLP exporter's endpoint, headers and timeout and the resource
    attributes are read from the process environment by the SDK itself.

    ``processor`` replaces the exporter chosen by ``environ`` (tests pass a simple
    processor over an in-memory exporter). Returns whether spans are recorded. When
    a provider is already installed it is kept (and ``processor`` added to it).
    Raises ConfigurationError for an unknown ``OTEL_TRACES_EXPORTER``.
    """
    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider):
        if processor is not None:
            current.add_span_processor(processor)
        return True
    if processor is None:
        name = exporter_name(environ)
        exporter = _exporter(name)
        if exporter is None:
            return False
        processor = BatchSpanProcessor(exporter)
    resource = Resource.create({"service.name": f"hindsight-{service}"}).merge(
        OTELResourceDetector().detect()
    )
    if environ.get("OTEL_SERVICE_NAME"):
        resource = resource.merge(Resource({"service.name": environ["OTEL_SERVICE_NAME"]}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(processor)
    trace.set_tracer_provider(provider)
    log.info("tracing on for %s", service)
    return True


def shutdown_tracing() -> None:
    """Flush and stop the installed provider's exporters (at process exit)."""
    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider):
        current.shutdown()


def recording() -> bool:
    """Whether spans are recorded: a tracer provider is installed."""
    return isinstance(trace.get_tracer_provider(), TracerProvider)


def tracer() -> trace.Tracer:
    return trace.get_tracer(TRACER_NAME)


def current_carrier() -> dict[str, str]:
    """The current trace context as W3C headers (``traceparent``, ``tracestate``);
    empty when no span is active."""
    carrier: dict[str, str] = {}
    inject(carrier)
    return {k: v for k, v in carrier.items() if k in TRACE_KEYS}


def context_of(carrier: Mapping[str, str]) -> otel_context.Context:
    """The trace context that W3C headers carry (an empty context for none)."""
    return extract({k.lower(): v for k, v in carrier.items()})


def record_carrier(record: Any) -> dict[str, str]:
    """The trace context of a log record: its event's ``trace`` field, else the W3C
    headers of a record that has ``headers`` (a Kafka record)."""
    event = getattr(record, "event", None)
    if event is not None and event.trace:
        return dict(event.trace)
    headers: Sequence[tuple[str, bytes]] = getattr(record, "headers", ()) or ()
    return {k: v.decode("latin-1") for k, v in headers if k in TRACE_KEYS}


Parent = Mapping[str, str] | Span | None
Attributes = Mapping[str, str | int | float | bool]


def _parent_context(parent: Parent) -> otel_context.Context | None:
    if parent is None:
        return None
    if isinstance(parent, Span):
        return trace.set_span_in_context(parent)
    return context_of(parent)


@contextmanager
def span(name: str, attributes: Attributes | None = None, *, kind: SpanKind = SpanKind.INTERNAL,
         parent: Parent = None, links: Sequence[Span] = ()) -> Iterator[Span]:
    """A span around a block, current inside it; ``parent``: W3C headers or a span to
    continue (default: the current context). An exception is recorded on the span and
    re-raised."""
    ctx = _parent_context(parent)
    with tracer().start_as_current_span(
        name, context=ctx, kind=kind, attributes=attributes,
        links=[Link(s.get_span_context()) for s in links] or None,
    ) as current:
        yield current


def start_span(name: str, attributes: Attributes | None = None, *, kind: SpanKind = SpanKind.INTERNAL,
               parent: Parent = None) -> Span:
    """A span that the caller ends (``span.end()``); not made current."""
    ctx = _parent_context(parent)
    return tracer().start_span(name, context=ctx, kind=kind, attributes=attributes)


@contextmanager
def within(current: Span) -> Iterator[None]:
    """Make ``current`` the active span inside the block (without ending it)."""
    token = otel_context.attach(trace.set_span_in_context(current))
    try:
        yield
    finally:
        otel_context.detach(token)
