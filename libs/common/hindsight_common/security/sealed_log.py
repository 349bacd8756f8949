"""An ``EventLog`` that seals content with per-user data keys, around any log adapter.

Every event appended to the interactions and memories streams (the streams that carry
what users said and what was learned from it), but the few that hold no content
(``CLEAR_TYPES``), is replaced by a ``SealedEvent``: the
envelope in clear, the whole inner event AES-256-GCM-encrypted with its user's data key
(``data_keys.py``), bound to the event id, tenant, user, type and key id as associated
data. Reads (``read`` and every subscription's ``fetch``) open them back, so consumers,
``hindsight replay`` and ``hindsight verify`` see the events they always saw, and the
signatures (made over the plaintext before the append) still verify.

A record whose key was destroyed (its user was erased) comes back with ``event=None``
and ``skipped`` set: the consumer loop passes over it without dead-lettering it, and it
is counted (``hindsight_erased_records_skipped``) and logged by stream and offset only.
A sealed record that does not open with its key (tampered) is a poison record
(``error``), dead-lettered like any other. ``SubjectErased`` passing through a read drops
the user's keys from this process's cache at once.

Control and audit events are not sealed: they carry no content (the audit never does).
"""

from __future__ import annotations

import base64
import binascii
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from hindsight_common.errors import InvalidInput
from hindsight_common.events import Event, parse_event, serialize_event
from hindsight_common.events.erasure import SealedEvent, SubjectErased
from hindsight_common.ports.log import Appended, EventLog, IdempotencyKey, LogRecord, Position, Subscription
from hindsight_common.security.data_keys import DataKey, DataKeys, SealError, sealer, unseal
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_common.telemetry.metrics import ERASED_SKIPPED

log = logging.getLogger(__name__)
SEALED_STREAMS = frozenset({INTERACTIONS, MEMORIES})
#: Types of those streams that carry no content (ids and times only) travel in clear.
#: Access counts (``MemoryAccessed``) are sealed although they hold only ids and counts: in
#: clear, an access store rebuilt from the log counted an erased user's accesses again (a
#: SubjectErased read before them purges nothing yet); sealed, they are skipped once the
#: key is gone. The price: an access batch flushed after an erasure gives that user a new
#: key, which seals nothing but counts of documents no longer there.
CLEAR_TYPES = frozenset({"SessionClosed", "MemoryReinforced"})
ERASED = "erased: its data key was destroyed"


def _aad(event_id: str, tenant: str, user: str, sealed_type: str, key_id: str) -> bytes:
    return "\x00".join(("hindsight-sealed-event", event_id, tenant, user, sealed_type, key_id)).encode()


def _sealable(event: Event) -> bool:
    return not isinstance(event, SealedEvent) and event.type not in CLEAR_TYPES


def _seal(event: Event, key: DataKey, seal: Callable[[bytes, bytes], bytes]) -> SealedEvent:
    """``event`` sealed with ``key`` (``seal``: the :func:`sealer` of that key)."""
    aad = _aad(str(event.event_id), event.tenant, event.user, event.type, key.key_id)
    ciphertext = seal(serialize_event(event), aad)
    return SealedEvent(
        event_id=event.event_id, tenant=event.tenant, user=event.user, occurred_at=event.occurred_at,
        recorded_at=event.recorded_at, trace=event.trace, sealed_type=event.type, key_id=key.key_id,
        ciphertext=base64.b64encode(ciphertext).decode("ascii"))


class SealedLog(EventLog):
    """Delegates to ``inner``, sealing on append and opening on read; attributes beyond
    the port (an adapter's own) pass through."""

    def __init__(self, inner: EventLog, keys: DataKeys, *, reader: str = "log") -> None:
        self.inner = inner
        self.keys = keys
        self.reader = reader

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def append(
        self, stream: str, events: Sequence[Event], *, idempotency: IdempotencyKey | None = None
    ) -> list[Appended]:
        if stream not in SEALED_STREAMS:
            return await self.inner.append(stream, events, idempotency=idempotency)
        keys: dict[tuple[str, str], DataKey] = {}  # one vault lookup per user of the batch
        for e in events:
            if _sealable(e) and (e.tenant, e.user) not in keys:
                keys[(e.tenant, e.user)] = await self.keys.for_write(e.tenant, e.user)
        return await self.inner.append(stream, self.seal_batch(events, keys), idempotency=idempotency)

    @staticmethod
    def seal_batch(events: Sequence[Event], keys: dict[tuple[str, str], DataKey]) -> list[Event]:
        """``events`` with each sealable one sealed by its user's key in ``keys`` (one
        cipher set up per user, not per event)."""
        ciphers = {user: sealer(key.secret) for user, key in keys.items()}
        return [_seal(e, keys[(e.tenant, e.user)], ciphers[(e.tenant, e.user)]) if _sealable(e) else e
                for e in events]

    async def open_records(self, records: Sequence[LogRecord]) -> list[LogRecord]:
        """``records`` with sealed events opened (or marked skipped or poison)."""
        opened = [await self._open(r) for r in records]
        skipped = [r for r in opened if r.skipped]
        if skipped:
            ERASED_SKIPPED.labels(self.reader).inc(len(skipped))
            log.info("%s: skipped %d record(s) of erased users (%s offsets %s..%s)", self.reader,
                     len(skipped), skipped[0].stream, skipped[0].offset, skipped[-1].offset)
        return opened

    async def _open(self, record: LogRecord) -> LogRecord:
        event = record.event
        if isinstance(event, SubjectErased):
            self.keys.forget(event.tenant, event.user)
        if not isinstance(event, SealedEvent):
            return record
        key = await self.keys.for_read(event.tenant, event.user, event.key_id)
        if key is None:
            return replace(record, event=None, skipped=ERASED)
        try:
            plain = unseal(key.secret, base64.b64decode(event.ciphertext, validate=True),
                           _aad(str(event.event_id), event.tenant, event.user, event.sealed_type, event.key_id))
            inner = parse_event(plain)
        except (SealError, InvalidInput, binascii.Error, ValueError) as e:
            return replace(record, event=None, error=f"sealed event {event.event_id} does not open: {e}")
        if (inner.event_id, inner.tenant, inner.user, inner.type) != (
                event.event_id, event.tenant, event.user, event.sealed_type):
            return replace(record, event=None, error=f"sealed event {event.event_id} holds another event")
        return replace(record, event=inner)

    async def append_raw(self, stream: str, key: str, payload: bytes) -> Appended:
        return await self.inner.append_raw(stream, key, payload)

    async def read(
        self, stream: str, *, after: int | None = None, limit: int = 1000, partition: int = 0
    ) -> list[LogRecord]:
        # Without ``after``, the adapter's own default (offsets start at 1 in SQLite, 0 in Kafka).
        records = (await self.inner.read(stream, limit=limit, partition=partition) if after is None
                   else await self.inner.read(stream, after=after, limit=limit, partition=partition))
        return await self.open_records(records)

    async def head(self, stream: str) -> Position:
        return await self.inner.head(stream)

    async def group_position(self, group: str, streams: Sequence[str]) -> Position:
        return await self.inner.group_position(group, streams)

    async def subscribe(self, group: str, streams: Sequence[str]) -> Subscription:
        return _SealedSubscription(await self.inner.subscribe(group, streams), self)

    async def destroy_subject_keys(self, tenant: str, user: str) -> int:
        return await self.keys.destroy(tenant, user)

    async def close(self) -> None:
        await self.inner.close()
        await self.keys.close()


class _SealedSubscription(Subscription):
    def __init__(self, inner: Subscription, log_: SealedLog) -> None:
        self._inner = inner
        self._log = log_

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def fetch(self, max_records: int, timeout_s: float) -> list[LogRecord]:
        return await self._log.open_records(await self._inner.fetch(max_records, timeout_s))

    async def commit(self, records: Sequence[LogRecord]) -> None:
        await self._inner.commit(records)

    async def seek(self, position: Position) -> None:
        await self._inner.seek(position)

    async def committed(self) -> Position:
        return await self._inner.committed()

    def health(self) -> str | None:
        return self._inner.health()

    async def close(self) -> None:
        await self._inner.close()
