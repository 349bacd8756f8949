"""An ``EventLog`` that traces and counts appends, around any log adapter.

Each append is a PRODUCER span (``<stream> publish``) inside the caller's trace, and
every event that carries no trace context yet gets that span's (the ``trace`` field of
the envelope, which the Kafka adapter also writes as ``traceparent``/``tracestate``
record headers). Events that already carry one (ingest fills it from the HTTP or gRPC
call) keep it. Events an append wrote (not those an idempotent retry answered with) are counted
in ``hindsight_events_appended``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from opentelemetry.trace import SpanKind

from hindsight_common.events import Event
from hindsight_common.ports.log import Appended, EventLog, IdempotencyKey, LogRecord, Position, Subscription
from hindsight_common.telemetry.metrics import EVENTS_APPENDED
from hindsight_common.telemetry.tracing import current_carrier, span


def with_trace(events: Sequence[Event], carrier: dict[str, str]) -> list[Event]:
    """``events``, each without a trace context given ``carrier``."""
    if not carrier:
        return list(events)
    return [e if e.trace else e.model_copy(update={"trace": carrier}) for e in events]


class TracedLog(EventLog):
    """Delegates to ``inner``; attributes beyond the port (an adapter's own) pass through."""

    def __init__(self, inner: EventLog) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def append(
        self, stream: str, events: Sequence[Event], *, idempotency: IdempotencyKey | None = None
    ) -> list[Appended]:
        attributes: dict[str, str | int] = {"messaging.destination.name": stream, "messaging.batch.message_count": len(events)}
        with span(f"{stream} publish", attributes, kind=SpanKind.PRODUCER):
            sent = with_trace(events, current_carrier())
            appended = await self.inner.append(stream, sent, idempotency=idempotency)
        ids = {e.event_id for e in sent}  # an idempotent replay returns earlier events
        EVENTS_APPENDED.labels(stream).inc(sum(1 for a in appended if a.event_id in ids))
        return appended

    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        return await self.inner.append_raw(stream, key, payload)

    async def read(
        self, stream: str, *, after: int | None = None, limit: int = 1000, partition: int = 0
    ) -> list[LogRecord]:
        # Without ``after``, the adapter's own default: offsets start at 1 in SQLite but at 0
        # in Kafka, so passing the port's 0 on would skip a Kafka partition's first record.
        if after is None:
            return await self.inner.read(stream, limit=limit, partition=partition)
        return await self.inner.read(stream, after=after, limit=limit, partition=partition)

    async def head(self, stream: str) -> Position:
        return await self.inner.head(stream)

    async def group_position(self, group: str, streams: Sequence[str]) -> Position:
        return await self.inner.group_position(group, streams)

    async def subscribe(self, group: str, streams: Sequence[str]) -> Subscription:
        return await self.inner.subscribe(group, streams)

    async def destroy_subject_keys(self, tenant: str, user: str) -> int:
        return await self.inner.destroy_subject_keys(tenant, user)

    async def close(self) -> None:
        await self.inner.close()
