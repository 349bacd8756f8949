"""The Prometheus metrics every Hindsight process exposes on ``GET /metrics``.

One registry per process (``REGISTRY``); each metric is incremented by the code named
beside it. Consumer lag is a gauge set when ``/metrics`` is scraped (the log's heads
are read then, see :func:`observe_lag`). Every name here is what the alert rules and
the Grafana dashboard in ``deploy/`` refer to (``tests/unit/test_monitoring.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import (
    GC_COLLECTOR as _GC,
)
from prometheus_client import (
    PLATFORM_COLLECTOR as _PLATFORM,
)
from prometheus_client import (
    PROCESS_COLLECTOR as _PROCESS,
)

__all__ = ["CONTENT_TYPE_LATEST", "DEFINED", "REGISTRY", "exposition", "observe_lag"]

REGISTRY = CollectorRegistry(auto_describe=True)
for _collector in (_PROCESS, _PLATFORM, _GC):
    REGISTRY.register(_collector)

# Every Hindsight metric: name -> (type, label names), what deploy/ may refer to.
DEFINED: dict[str, tuple[str, tuple[str, ...]]] = {}


def _counter(name: str, doc: str, labels: Sequence[str]) -> Counter:
    DEFINED[name] = ("counter", tuple(labels))
    return Counter(name, doc, labels, registry=REGISTRY)


def _histogram(name: str, doc: str, labels: Sequence[str], buckets: Sequence[float]) -> Histogram:
    DEFINED[name] = ("histogram", tuple(labels))
    return Histogram(name, doc, labels, buckets=buckets, registry=REGISTRY)


def _gauge(name: str, doc: str, labels: Sequence[str]) -> Gauge:
    DEFINED[name] = ("gauge", tuple(labels))
    return Gauge(name, doc, labels, registry=REGISTRY)


# Seconds: consumer batches and projection writes are milliseconds to seconds; freshness
# (recorded -> recallable) up to minutes when a consumer is behind.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)

# HTTP (services/hindsight_services/observability.py, RequestMetrics: every service's app).
HTTP_REQUESTS = _counter(
    "hindsight_http_requests", "HTTP requests answered, by route template and status.",
    ["service", "method", "route", "status"])
HTTP_SECONDS = _histogram(
    "hindsight_http_request_seconds", "Time to answer an HTTP request.",
    ["service", "method", "route"], _FAST)

# The log (telemetry/traced_log.py: every append through a service's log).
EVENTS_APPENDED = _counter(
    "hindsight_events_appended",
    "Events appended durably to the log, by stream (an idempotent retry's answer not counted).",
    ["stream"])

# Consumers (hindsight_common/consumer.py).
EVENTS_PROCESSED = _counter(
    "hindsight_events_processed", "Records a consumer group handled and committed.",
    ["group", "stream"])
EVENTS_FAILED = _counter(
    "hindsight_events_failed",
    "Records in a handler attempt that failed: kind=transient (an outage; retried with "
    "backoff) or kind=error (the batch is retried record by record; the failing record "
    "is dead-lettered).",
    ["group", "kind"])
DEAD_LETTERS = _counter(
    "hindsight_dead_letters", "Records a consumer group put on its dead-letter stream.", ["group"])
PROCESSING_SECONDS = _histogram(
    "hindsight_processing_seconds", "Time a consumer group's handler took for one batch.",
    ["group"], _FAST)
FRESHNESS_SECONDS = _histogram(
    "hindsight_freshness_seconds",
    "From an event's recorded_at (the write acknowledged) to the moment the group's "
    "handler finished with it (for embed and project: recallable).",
    ["group"], _SLOW)
CONSUMER_LAG = _gauge(
    "hindsight_consumer_lag",
    "Offsets between the group's position and the log's head, per stream partition, at "
    "scrape; 0 = caught up. On Kafka: the records behind. On the embedded SQLite log the "
    "offsets are shared by all streams, so it is an upper bound.",
    ["group", "stream", "partition"])

# Recall (hindsight_common/recall/engine.py).
RECALL_SECONDS = _histogram(
    "hindsight_recall_seconds", "Time of one recall, end to end inside the engine.", ["preset"], _FAST)
RECALL_STAGE_SECONDS = _histogram(
    "hindsight_recall_stage_seconds",
    "Time of one recall stage: each candidate path (vector, bm25, ...), embed_query and cross_encoder.",
    ["stage"], _FAST)

# Integrity (hindsight_common/security/signed_items.py, Integrity: recall, browse, session).
INTEGRITY_FAILURES = _counter(
    "hindsight_integrity_failures",
    "Projection documents dropped because their signature did not verify (reason=mismatch: "
    "tampered; unknown_key; malformed; unsigned when signatures are required), by reader.",
    ["where", "reason"])
UNSIGNED_ITEMS = _counter(
    "hindsight_unsigned_items",
    "Unsigned projection documents read (written before signing); dropped only when "
    "HINDSIGHT_REQUIRE_SIGNATURES is set.",
    ["where"])

# Erasure (security/sealed_log.py): sealed records whose data key is destroyed.
ERASED_SKIPPED = _counter(
    "hindsight_erased_records_skipped",
    "Log records passed over because their user was erased (their data key is destroyed), by reader.",
    ["reader"])
SUBJECTS_ERASED = _counter("hindsight_subjects_erased", "Users whose data keys were destroyed.", [])

# LLM calls (hindsight_common/llm/accounting.py, LLMCounters).
LLM_CALLS = _counter("hindsight_llm_calls", "LLM calls (complete_json).", ["model"])
LLM_FAILURES = _counter("hindsight_llm_failures", "LLM calls that ended in a provider error.", ["model"])
LLM_REQUESTS = _counter("hindsight_llm_requests", "HTTP requests made to the model server.", ["model"])
LLM_RETRIES = _counter("hindsight_llm_retries", "Requests that repeated a failed one.", ["model"])
LLM_TOKENS = _counter("hindsight_llm_tokens", "Tokens used, kind=prompt or completion.", ["model", "kind"])
LLM_COST = _counter(
    "hindsight_llm_cost_usd", "Cost of the LLM requests in US dollars (from the configured prices).",
    ["model"])


def observe_lag(group: str, position: Mapping[str, int], heads: Mapping[str, int]) -> None:
    """Set the lag gauges of ``group``: for each ``stream#partition`` head (its last
    offset), how far the group's position (the last offset it applied) is behind it; a
    partition the group has applied nothing of counts from offset 0."""
    for key, head in heads.items():
        stream, _, partition = key.rpartition("#")
        CONSUMER_LAG.labels(group, stream, partition).set(max(0, head - position.get(key, -1)))


def exposition() -> bytes:
    """The registry in the Prometheus text format."""
    return generate_latest(REGISTRY)
