"""Telemetry: OpenTelemetry traces, Prometheus metrics and JSON logs.

- ``tracing``: set-up from the ``OTEL_*`` variables, W3C trace context in and out;
- ``metrics``: the process's Prometheus registry and every Hindsight metric;
- ``logs``: the JSON (or text) log formatter with trace and span ids;
- ``traced_log``: an ``EventLog`` wrapper that traces and counts appends.
"""

from hindsight_common.telemetry.logs import JsonFormatter, LogFormat, configure_logging
from hindsight_common.telemetry.metrics import REGISTRY, exposition, observe_lag
from hindsight_common.telemetry.traced_log import TracedLog
from hindsight_common.telemetry.tracing import (
    configure_tracing,
    current_carrier,
    record_carrier,
    shutdown_tracing,
    span,
    start_span,
    within,
)

__all__ = [
    "REGISTRY",
    "JsonFormatter",
    "LogFormat",
    "TracedLog",
    "configure_logging",
    "configure_tracing",
    "current_carrier",
    "exposition",
    "observe_lag",
    "record_carrier",
    "shutdown_tracing",
    "span",
    "start_span",
    "within",
]
