"""Telemetry of a service's HTTP app: metrics per request,
``GET /metrics`` for Prometheus, and the process's tracing and log set-up.

Used by both apps (``embedded.create_app``, ``process.create_service_app``). ``/metrics``
needs no credentials (scrapers and probes have none) and carries no content: counts,
times and offsets only.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastapi import FastAPI, Response
from fastapi.telemetry import TelemetryConfig
from hindsight_common.consumer import Consumer
from hindsight_common.ports.log import EventLog
from hindsight_common.settings import Settings
from hindsight_common.errors import HindsightError
from hindsight_common.telemetry import LogFormat, configure_logging, configure_tracing, exposition, observe_lag
from hindsight_common.telemetry.metrics import CONTENT_TYPE_LATEST, HTTP_REQUESTS, HTTP_SECONDS

ASGIApp = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                   Awaitable[None]]
logger = logging.getLogger(__name__)
# FastAPI's own OpenTelemetry: its HTTP server spans only. Not its OTel metrics (ours are
# Prometheus), not its log events (a validation failure's would carry the request body),
# and no exporters of its own (configure_tracing owns the set-up).
FASTAPI_TELEMETRY: TelemetryConfig = {"tracing": True, "metrics": False, "logs": False,
                                      "auto_configure": False}
# Not counted per request: scrapes and probes would drown the rest.
_QUIET = ("/metrics", "/healthz")


def setup_process(service: str, settings: Settings, default_format: LogFormat) -> None:
    """Logging (``settings.log_format``, else ``default_format``) and tracing (the
    ``OTEL_*`` variables) of a process that serves ``service``."""
    configure_logging(settings.log_format or default_format, service)
    configure_tracing(service, os.environ)


class RequestMetrics:
    """ASGI middleware counting and timing each HTTP request by its route template
    (``/v1/sessions/{session}:close``, never the concrete path) and status.

    The request's SERVER span is FastAPI's own (its native OpenTelemetry support, on
    once a tracer provider is installed): it continues an incoming ``traceparent`` and
    is named ``<METHOD> <route>``; ingest's events and every consumer span follow it."""

    def __init__(self, app: ASGIApp, service: str) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http" or scope.get("path") in _QUIET:
            await self.app(scope, receive, send)
            return
        method = str(scope.get("method", ""))
        status = [500]

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        start = time.perf_counter()
        try:
            await self.app(scope, receive, sending)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            HTTP_REQUESTS.labels(self.service, method, route, str(status[0])).inc()
            HTTP_SECONDS.labels(self.service, method, route).observe(time.perf_counter() - start)


def install_telemetry(app: FastAPI, service: str, log: Callable[[], EventLog | None],
                      consumers: Callable[[], Sequence[Consumer]]) -> None:
    """Trace and count ``app``'s requests, and serve ``GET /metrics``: the process's
    registry, with each of ``consumers``' lag against ``log``'s heads read at scrape."""
    app.add_middleware(RequestMetrics, service=service)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus_metrics() -> Response:
        """Prometheus text format: consumer lag, events, recall latency, LLM usage."""
        event_log = log()
        if event_log is not None:
            for c in consumers():
                heads: dict[str, int] = {}
                try:
                    for stream in c.streams:
                        heads.update(await event_log.head(stream))
                except HindsightError as e:  # the log is down: keep the last lag, still answer
                    logger.warning("metrics: cannot read the log's heads for %s: %s", c.group, e)
                    continue
                observe_lag(c.group, c.position, heads)
        return Response(exposition(), media_type=CONTENT_TYPE_LATEST)
