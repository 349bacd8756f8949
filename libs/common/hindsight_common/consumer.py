"""The consumer loop every service runs: fetch, handle, then commit.

At-least-once: the position is committed only after the handler's writes
succeeded. A record that cannot be parsed, or that makes the handler fail with
a non-infrastructure error, goes to the group's dead-letter stream with the
reason, and the records behind it flow on. Infrastructure errors (a projection,
provider or the log being down) are retried with backoff, never dead-lettered:
an outage must not turn into lost events.

Telemetry (``hindsight_common.telemetry``): each record continues its trace in a
CONSUMER span (``<stream> process``), and the handler runs in a ``<group> handle``
span (child of the first record's, linked to the others'), so projection writes show
in the trace of the write that caused them. With tracing off, only the handle span is
made, continuing the first record's context, so what the handler appends carries it on. Processed, failed and dead-lettered
records, batch time and freshness are counted per group.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from hindsight_common.errors import PersistenceError, ProjectionError, ProviderError
from hindsight_common.ports.log import EventLog, LogRecord, Position, Subscription
from hindsight_common.streams import dead_letter_stream
from hindsight_common.telemetry import metrics
from hindsight_common.telemetry.tracing import record_carrier, recording, span, start_span, within

log = logging.getLogger(__name__)

Handler = Callable[[Sequence[LogRecord], Position], Awaitable[None]]
TRANSIENT = (ProjectionError, ProviderError, PersistenceError)


def batch_position(records: Sequence[LogRecord]) -> dict[str, int]:
    """Last offset per stream partition among ``records``."""
    out: dict[str, int] = {}
    for r in records:
        out[r.position_key] = max(out.get(r.position_key, 0), r.offset)
    return out


def dead_letter_payload(group: str, record: LogRecord, reason: str) -> bytes:
    return json.dumps(
        {
            "consumer": group,
            "stream": record.stream,
            "partition": record.partition,
            "offset": record.offset,
            "key": record.key,
            "error": reason,
            "payload": record.raw.decode("utf-8", errors="replace"),
            "dead_lettered_at": datetime.now(UTC).isoformat(),
        }
    ).encode()


def not_past(position: Position, committed: Position) -> dict[str, int]:
    """``position`` (what a projection holds), lowered per key to the group's committed
    offset where one is committed: the batch a kill cut off after the projection's own
    write but before the handler finished (its later writes, e.g. the effect audit, and
    the offset commit) is delivered again instead of skipped. A key with no commit keeps
    the projection's offset (a group whose offsets expired does not replay everything);
    a key the projection lacks stays missing (read from the beginning)."""
    return {k: min(v, committed[k]) if k in committed else v for k, v in position.items()}


class Consumer:
    """Runs one consumer group over some streams with one handler."""

    def __init__(
        self,
        log_: EventLog,
        group: str,
        streams: Sequence[str],
        handler: Handler,
        *,
        resume_from: Callable[[], Awaitable[Position]] | None = None,
        not_past_commit: bool = False,
        on_idle: Callable[[], Awaitable[None]] | None = None,
        batch_size: int = 256,
        poll_timeout_s: float = 0.5,
        max_backoff_s: float = 30.0,
    ) -> None:
        self.group = group
        self.streams = list(streams)
        self._log = log_
        self._handler = handler
        self._resume_from = resume_from
        self._not_past_commit = not_past_commit
        self._on_idle = on_idle
        self._batch = batch_size
        self._poll = poll_timeout_s
        self._max_backoff = max_backoff_s
        self.processed = 0
        self.dead_lettered = 0
        self.position: dict[str, int] = {}
        self.ready = asyncio.Event()
        # Liveness (``health``): when a fetch last returned, and since when and why the
        # loop keeps failing (set by ``supervise``, cleared by the next fetch).
        self.last_poll_at: float | None = None
        self.failure: tuple[float, str] | None = None
        self._sub: Subscription | None = None

    async def run(self, stop: asyncio.Event) -> None:
        sub = await self._log.subscribe(self.group, self.streams)
        self._sub = sub
        try:
            if self._resume_from is not None:
                # The projection says what it holds; if it is behind the group's
                # committed offset (files deleted, new version), rebuild from there.
                position = await self._resume_from()
                if self._not_past_commit:
                    position = not_past(position, await sub.committed())
                await sub.seek(position)
                self.position = dict(position)
            else:
                self.position = dict(await sub.committed())
            self.ready.set()
            while not stop.is_set():
                records = await sub.fetch(self._batch, self._poll)
                self.last_poll_at, self.failure = time.monotonic(), None
                if not records:
                    if self._on_idle is not None:
                        await self._on_idle()  # time-based work (e.g. idle sessions)
                    continue
                await self._process(records, stop)
                await sub.commit(records)
                self.position.update(batch_position(records))
                self.processed += len(records)
                for stream, n in Counter(r.stream for r in records).items():
                    metrics.EVENTS_PROCESSED.labels(self.group, stream).inc(n)
        finally:
            self._sub = None
            await sub.close()

    def failed(self, reason: str) -> None:
        """Record that the loop failed (kept from the first failure until a fetch works)."""
        if self.failure is None:
            self.failure = (time.monotonic(), reason)

    def health(self, max_silence_s: float) -> str | None:
        """Why this consumer is not making progress, or None: it has been failing, or no
        fetch has returned, for ``max_silence_s``, or its subscription reports a stall
        (e.g. Kafka has not answered for its window). For liveness checks."""
        now = time.monotonic()
        if self.failure is not None and now - self.failure[0] >= max_silence_s:
            return f"{self.group}: failing for {now - self.failure[0]:.0f} s: {self.failure[1]}"
        if self.last_poll_at is not None and now - self.last_poll_at >= max_silence_s:
            return f"{self.group}: no fetch from the log has returned for {now - self.last_poll_at:.0f} s"
        problem = self._sub.health() if self._sub is not None else None
        return f"{self.group}: {problem}" if problem else None

    async def _process(self, records: Sequence[LogRecord], stop: asyncio.Event) -> None:
        position = batch_position(records)
        good = []
        for r in records:
            if r.skipped:  # its user was erased (security/sealed_log.py): nothing to do
                continue
            if r.event is None:
                await self._dead_letter(r, r.error or "unparseable record")
            else:
                good.append(r)
        # A span per record only when spans are recorded (reading each record's context
        # costs more than a no-op handler); otherwise the first record's context passes on.
        spans = [start_span(f"{r.stream} process", {
            "messaging.consumer.group.name": self.group, "messaging.destination.name": r.stream,
            "messaging.destination.partition.id": str(r.partition), "messaging.message.id": str(r.offset),
            "hindsight.event.type": r.event.type if r.event else ""},
            kind=SpanKind.CONSUMER, parent=record_carrier(r)) for r in good] if recording() else []
        parent: Span | dict[str, str] | None = spans[0] if spans else (record_carrier(good[0]) if good else None)
        try:
            # One span for the handling, retries included (their log lines carry its ids).
            with span(f"{self.group} handle", {"messaging.batch.message_count": len(good)},
                      parent=parent, links=spans[1:]):
                await self._handle(good, position, stop, spans)
        finally:
            for s in spans:
                s.end()

    async def _handle(self, good: Sequence[LogRecord], position: Position, stop: asyncio.Event,
                      spans: Sequence[Span]) -> None:
        backoff = 0.1
        while True:
            try:
                with metrics.PROCESSING_SECONDS.labels(self.group).time():
                    await self._handler(good, position)
                _observe_freshness(self.group, good)
                return
            except TRANSIENT as e:
                metrics.EVENTS_FAILED.labels(self.group, "transient").inc(len(good))
                trace.get_current_span().record_exception(e)
                if stop.is_set():
                    raise
                log.warning("%s: transient failure, retrying in %.1fs: %s", self.group, backoff, e)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self._max_backoff)
            except Exception as e:  # handler boundary: isolate the record at fault
                metrics.EVENTS_FAILED.labels(self.group, "error").inc(len(good))
                trace.get_current_span().record_exception(e)
                log.exception("%s: batch failed; retrying records one by one", self.group)
                await self._one_by_one(good, spans)
                # Records are handled; record the batch position on a no-op write.
                await self._handler([], position)
                _observe_freshness(self.group, good)
                return

    async def _one_by_one(self, records: Sequence[LogRecord], spans: Sequence[Span]) -> None:
        for i, r in enumerate(records):
            record_span = spans[i] if spans else trace.get_current_span()
            with within(record_span):  # its writes and its dead letter in its own trace
                try:
                    await self._handler([r], batch_position([r]))
                except TRANSIENT:
                    raise
                except Exception as e:  # handler boundary: dead-letter with the reason
                    record_span.record_exception(e)
                    record_span.set_status(Status(StatusCode.ERROR, "dead-lettered"))
                    await self._dead_letter(r, f"{type(e).__name__}: {e}")

    async def _dead_letter(self, record: LogRecord, reason: str) -> None:
        log.error(
            "%s: dead-lettering %s offset %s: %s", self.group, record.stream, record.offset, reason
        )
        await self._log.append_raw(
            dead_letter_stream(self.group), record.key, dead_letter_payload(self.group, record, reason)
        )
        self.dead_lettered += 1
        metrics.DEAD_LETTERS.labels(self.group).inc()


def _observe_freshness(group: str, records: Sequence[LogRecord]) -> None:
    """Seconds from each event's recorded_at (acknowledged) to now (handled)."""
    now = datetime.now(UTC)
    histogram = metrics.FRESHNESS_SECONDS.labels(group)
    for r in records:
        if r.event is not None:
            histogram.observe(max(0.0, (now - r.event.recorded_at).total_seconds()))


async def supervise(consumer: Consumer, stop: asyncio.Event) -> None:
    """Run ``consumer`` until ``stop``; a crash is logged and the consumer restarts
    from its committed position, so nothing is lost and other tasks keep going."""
    backoff = 0.5
    while not stop.is_set():
        polled = consumer.last_poll_at
        try:
            await consumer.run(stop)
            return
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if stop.is_set() or (task is not None and task.cancelling()):
                raise  # a real cancellation of this task
            # A cancellation nobody asked this task for (a driver leaking one, as aiokafka's
            # consumer stop did in issue 14's outage) would end the consumer in silence.
            log.error("consumer %s was cancelled from inside; restarting in %.1fs", consumer.group, backoff,
                      exc_info=True)
            consumer.failed("cancelled from inside (a driver timeout)")
        except Exception as e:  # task boundary: log and restart
            log.exception("consumer %s crashed; restarting in %.1fs", consumer.group, backoff)
            consumer.failed(f"{type(e).__name__}: {e}")
        if consumer.last_poll_at != polled:
            backoff = 0.5  # it was working until now: a new failure starts with a short wait
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, 30.0)
