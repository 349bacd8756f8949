"""What a Hindsight record looks like on Kafka (used by ``kafka_log``).

Value: the event's JSON (``serialize_event``). Key: ``tenant/user``. Headers:
``hindsight-event-type``, ``hindsight-event-id`` and the W3C trace context
(``traceparent``, ``tracestate``) from the event, so tools and tracing can follow a
record without parsing it. A dead letter carries the original record's headers plus
``hindsight-dead-letter-error``, ``-consumer`` and ``-source`` (``stream#partition@offset``).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from hindsight_common.errors import InvalidInput
from hindsight_common.events import Event, parse_event
from hindsight_common.ports.log import Appended, LogRecord

Headers = tuple[tuple[str, bytes], ...]
DEAD_LETTER_PREFIX = "hindsight.deadletter."  # what streams.dead_letter_stream(group) returns
_MAX_HEADER_BYTES = 4096


@dataclass(frozen=True)
class KafkaRecord(LogRecord):
    """A LogRecord with the Kafka record's headers (trace context, dead-letter details)."""

    headers: Headers = ()


def event_headers(event: Event) -> list[tuple[str, bytes]]:
    headers = [("hindsight-event-type", event.type.encode()),
               ("hindsight-event-id", str(event.event_id).encode())]
    return headers + [
        (k, event.trace[k].encode()) for k in ("traceparent", "tracestate") if k in event.trace
    ]


def decode_record(stream: str, r: Any) -> KafkaRecord:
    """An aiokafka ConsumerRecord as a KafkaRecord; bytes that are no valid event give
    ``event=None`` and the reason in ``error`` (a poison record, to dead-letter)."""
    raw = bytes(r.value or b"")
    try:
        event: Event | None = parse_event(raw)
        error = None
    except InvalidInput as e:
        event, error = None, _describe(e)
    headers: Headers = tuple((str(k), bytes(v or b"")) for k, v in (r.headers or ()))
    key = bytes(r.key).decode("utf-8", errors="replace") if r.key else ""
    return KafkaRecord(stream, int(r.partition), int(r.offset), key, raw, event, error, headers=headers)


class RecentHeaders:
    """The headers of the last records fetched, by (stream, partition, offset).

    The Consumer loop hands ``append_raw`` only the dead-letter payload (which names the
    source record), so the log keeps the headers of what it fetched to copy them into
    the dead letter. Bounded: a dead letter is written right after its batch's fetch.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._capacity = capacity
        self._items: OrderedDict[tuple[str, int, int], Headers] = OrderedDict()

    def remember(self, record: KafkaRecord) -> None:
        if not record.headers:
            return
        where = (record.stream, record.partition, record.offset)
        self._items[where] = record.headers
        self._items.move_to_end(where)
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)

    def dead_letter_headers(self, stream: str, payload: bytes) -> list[tuple[str, bytes]]:
        """Headers for a payload from ``consumer.dead_letter_payload``; [] for anything else."""
        if not stream.startswith(DEAD_LETTER_PREFIX):
            return []
        try:
            body = json.loads(payload)
        except ValueError:
            return []
        if not isinstance(body, dict) or "error" not in body:
            return []
        source, partition, offset = str(body.get("stream")), body.get("partition"), body.get("offset")
        original: Headers = ()
        if isinstance(partition, int) and isinstance(offset, int):
            original = self._items.get((source, partition, offset), ())
        return [
            *original,
            ("hindsight-dead-letter-error", str(body["error"]).encode()[:_MAX_HEADER_BYTES]),
            ("hindsight-dead-letter-consumer", str(body.get("consumer", "")).encode()),
            ("hindsight-dead-letter-source", f"{source}#{partition}@{offset}".encode()),
        ]


def _describe(e: InvalidInput) -> str:
    if not e.problems:
        return e.message
    return e.message + ": " + "; ".join(f"{p.field}: {p.message}" for p in e.problems)


def encode_result(appended: list[Appended]) -> str:
    """An append's answer as stored with its idempotency key (as in the SQLite log)."""
    return json.dumps([[str(a.event_id), a.stream, a.partition, a.offset] for a in appended])


def decode_result(text: str) -> list[Appended]:
    return [Appended(UUID(e), s, int(p), int(o)) for e, s, p, o in json.loads(text)]
