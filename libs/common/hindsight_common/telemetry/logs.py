"""Log lines as JSON objects (one per line) or plain text.

``HINDSIGHT_LOG_FORMAT=json|text`` (``Settings.log_format``); ``hindsight run`` logs JSON
by default, ``hindsight serve`` text. A JSON line holds ``timestamp`` (UTC, ISO 8601),
``level``, ``logger``, ``message``, ``service``, and the ``trace_id`` and ``span_id`` of
the span active when the line was logged (absent outside a span); an exception adds
``exception`` (its type) and ``traceback``.

Log lines never carry content: Hindsight's own log calls name events by stream, offset,
id and type, never by what was said. The formatter prints only the fields above, so
``extra=`` values passed to a logger do not leak into the output either.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Literal

from opentelemetry import trace

LogFormat = Literal["json", "text"]
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, with the active span's trace and span ids."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, str] = {
            "timestamp": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "service": self.service,
        }
        ctx = trace.get_current_span().get_span_context()
        if ctx.is_valid:
            out["trace_id"] = format(ctx.trace_id, "032x")
            out["span_id"] = format(ctx.span_id, "016x")
        if record.exc_info and record.exc_info[0] is not None:
            out["exception"] = record.exc_info[0].__name__
            out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure_logging(fmt: LogFormat, service: str, level: int = logging.INFO) -> logging.Handler:
    """Send every logger's records to stderr in ``fmt``, replacing the root's handlers
    (uvicorn's loggers included, when uvicorn is started with ``log_config=None``).
    Returns the handler installed."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(service) if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request drowns the output
    return handler
