"""What ingest does with a write: validate, turn into events, append durably.

The caller is acknowledged only after the log append returned (fsynced / all
in-sync replicas). PII is redacted (or the write rejected) by the tenant's policy
before the events are built (hindsight_common/security/pii.py), and the redacted
turns are signed (hindsight_common/security/signed_items.py); screening and
encryption hook in here too (security issue) before the append.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from dataclasses import replace
from datetime import timedelta
from uuid import UUID

from pydantic import JsonValue

from hindsight_common.api import (
    AppendedOut,
    ConsolidateIn,
    ConsolidateOut,
    ErasureOut,
    ForgetIn,
    IngestRequest,
    IngestResponse,
    ExpireIn,
    MemoryActionIn,
    PlannedForget,
    ReflectIn,
    ReleaseIn,
    SessionCloseIn,
)
from hindsight_common.consolidation.forgetting import ForgetPolicy
from hindsight_common.errors import InvalidInput, Problem
from hindsight_common.events import (
    InteractionRecorded,
    MemoryForgotten,
    ReflectionRequested,
    SessionClosed,
    utcnow,
)
from hindsight_common.events.base import IDENTIFIER_PATTERN
from hindsight_common.events.erasure import SubjectErased
from hindsight_common.events.lifecycle import MemoryExpirySet, MemoryPinned, MemoryRestored, MemoryUnpinned
from hindsight_common.events.security import MemoryQuarantined, MemoryReleased, Source
from hindsight_common.ports.log import EventLog, IdempotencyKey
from hindsight_common.security.pii import COUNTERS as PII_COUNTERS
from hindsight_common.security.pii import OutgrewLimit, PiiPolicy, looked_for, redact_turn
from hindsight_common.security.pii_types import PiiAction, PiiType
from hindsight_common.security.signed_items import sign_events
from hindsight_common.security.signing import Keyring
from hindsight_common.security.signing_keys import keyring_from_settings
from hindsight_common.factory import make_screener
from hindsight_common.security.screening_events import request_sources, screen_interactions
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, INTERACTIONS, MEMORIES
from hindsight_common.telemetry import current_carrier
from hindsight_common.telemetry.metrics import SUBJECTS_ERASED
from hindsight_services.consolidate.on_demand import forget_now


def check_limits(request: IngestRequest, settings: Settings) -> None:
    """Limits that depend on settings (the schema checks the rest)."""
    problems: list[Problem] = []
    if len(request.interactions) > settings.max_batch:
        problems.append(
            Problem(
                "interactions",
                f"at most {settings.max_batch} interactions per request, got "
                f"{len(request.interactions)}; split the batch",
            )
        )
    for i, item in enumerate(request.interactions):
        if len(item.content) > settings.max_content_chars:
            problems.append(
                Problem(
                    f"interactions.{i}.content",
                    f"at most {settings.max_content_chars} characters, got {len(item.content)}",
                )
            )
        if not item.content.strip():
            problems.append(Problem(f"interactions.{i}.content", "must not be blank"))
    if problems:
        raise InvalidInput("request exceeds limits", problems)


def to_events(
    request: IngestRequest, default_tenant: str, pii: PiiPolicy | None = None,
    keyring: Keyring | None = None,
) -> list[InteractionRecorded]:
    """The batch's events, with PII handled by ``pii`` (default: redact every type), each
    signed by ``keyring`` after redaction (None: unsigned).

    Raises InvalidInput naming each value the policy rejects (type, field, position;
    never the value): then nothing of the batch is appended.
    """
    now = utcnow()
    trace = current_carrier()  # the HTTP or gRPC call's trace, followed by every consumer
    policy = pii or PiiPolicy()
    # Each tenant's actions and the detectors they need, worked out once a batch.
    rules: dict[str, tuple[dict[PiiType, PiiAction], frozenset[PiiType]]] = {}
    events, problems = [], []
    for i, item in enumerate(request.interactions):
        tenant = item.tenant or default_tenant
        if tenant not in rules:
            actions = policy.actions(tenant)
            rules[tenant] = actions, looked_for(actions)
        try:
            turn = redact_turn(item.content, item.tool_calls, item.metadata, *rules[tenant])
        except OutgrewLimit as e:
            raise InvalidInput(str(e), [replace(p, field=f"interactions.{i}.{p.field}") for p in e.problems]) from e
        if turn.rejected:
            PII_COUNTERS.count(rejected=turn.rejected)
            problems += [
                replace(r, field=f"interactions.{i}.{r.field}").problem(tenant) for r in turn.rejected
            ]
        if problems:
            continue  # the batch is refused: no event to build
        events.append(InteractionRecorded(
            tenant=tenant,
            user=item.user,
            agent=item.agent,
            session=item.session,
            speaker=item.speaker,
            role=item.role,
            content=turn.content,
            tool_calls=turn.tool_calls,
            external_id=item.external_id,
            metadata=turn.metadata,
            redactions=turn.redactions,
            occurred_at=item.occurred_at or now,
            recorded_at=now,
            trace=trace,
        ))
    if problems:
        raise InvalidInput("the request holds personal data this tenant does not accept", problems)
    return sign_events(keyring, events) if keyring is not None else events


def fingerprint(payload: JsonValue) -> str:
    """A digest of a request's JSON that ignores how it was spelled: key order,
    spacing and escapes do not change it (a retry re-serialized by another client
    library is still the same request)."""
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


class Ingest:
    def __init__(self, log: EventLog, settings: Settings) -> None:
        self._log = log
        self._settings = settings
        self._pii = PiiPolicy(settings.pii_policy)
        self._keyring = keyring_from_settings(settings)  # read once per process
        self._screener = make_screener(settings)
        # What the last ``record`` appended (for its audit): the turns and their quarantines.
        self.recorded: list[InteractionRecorded] = []
        self.held: list[MemoryQuarantined] = []

    async def record(
        self, request: IngestRequest, *, idempotency_key: str | None = None,
        payload: JsonValue | None = None,
    ) -> IngestResponse:
        """Validate and append a batch; returns once it is durable.

        ``payload``: the JSON the request was parsed from, which the idempotency key's
        fingerprint covers (default: the request's own JSON form).
        Raises InvalidInput (nothing appended), IdempotencyConflict, PersistenceError.
        """
        check_limits(request, self._settings)
        sources = request_sources(request)
        # CPU work, off the event loop, in one hop to a worker thread: redaction (the
        # detectors take ~0.1 s over a 32,000-character content), signing, and screening
        # (about a millisecond a turn).
        events, held = await asyncio.to_thread(self._prepare, request, sources)
        tenants = {e.tenant for e in events}
        idempotency = None
        if idempotency_key:
            if len(tenants) != 1:
                raise InvalidInput(
                    "an idempotency key applies to one tenant; send one tenant per batch",
                    [Problem("interactions", "mixes tenants " + ", ".join(sorted(tenants)))],
                )
            idempotency = IdempotencyKey(
                tenant=tenants.pop(),
                key=idempotency_key,
                fingerprint=fingerprint(
                    request.model_dump(mode="json") if payload is None else payload
                ),
            )
        # Quarantines go after every turn of the batch in the same all-or-nothing append
        # (see security/screening_events.py), so the first len(events) entries are the turns.
        appended = (await self._log.append(INTERACTIONS, [*events, *held], idempotency=idempotency))[: len(events)]
        replayed = any(a.event_id != e.event_id for a, e in zip(appended, events, strict=False))
        self.recorded, self.held = ([], []) if replayed else (events, held)
        if not replayed:
            PII_COUNTERS.count(redactions=tuple(r for e in events for r in e.redactions))
        return IngestResponse(
            events=[AppendedOut(event_id=str(a.event_id), offset=a.offset) for a in appended],
            replayed=replayed,
        )

    def _prepare(
        self, request: IngestRequest, sources: list[Source]
    ) -> tuple[list[InteractionRecorded], list[MemoryQuarantined]]:
        """The batch's events (redacted, signed) and the quarantines screening adds."""
        events = to_events(request, self._settings.default_tenant, self._pii, self._keyring)
        if self._screener is None:
            return events, []
        return events, screen_interactions(self._screener, events, sources, request.interactions)

    async def close_session(self, session: str, request: SessionCloseIn) -> AppendedOut:
        event = SessionClosed(
            tenant=request.tenant or self._settings.default_tenant,
            user=request.user,
            agent=request.agent,
            session=session,
            occurred_at=utcnow(),
        )
        [appended] = await self._log.append(INTERACTIONS, [event])
        return AppendedOut(event_id=str(appended.event_id), offset=appended.offset)

    async def request_reflection(self, request: ReflectIn) -> AppendedOut:
        """Append ReflectionRequested; reflect picks it up from the control stream."""
        if request.session and request.task:
            raise InvalidInput("give a session or a task, not both", [Problem("task", "conflicts with session")])
        event = ReflectionRequested(
            tenant=request.tenant or self._settings.default_tenant,
            user=request.user,
            session=request.session or request.task,
            occurred_at=utcnow(),
        )
        [appended] = await self._log.append(CONTROL, [event])
        return AppendedOut(event_id=str(appended.event_id), offset=appended.offset)

    async def forget(self, memory_id: str, request: ForgetIn) -> AppendedOut:
        """Append MemoryForgotten; projections replace the memory with a tombstone."""
        try:
            mid = UUID(memory_id)
        except ValueError as e:
            raise InvalidInput("not a memory id", [Problem("memory_id", "must be a UUID")]) from e
        event = MemoryForgotten(
            tenant=request.tenant or self._settings.default_tenant,
            user=request.user,
            memory_id=mid,
            reason=request.reason,
            occurred_at=utcnow(),
        )
        [appended] = await self._log.append(MEMORIES, [event])
        return AppendedOut(event_id=str(appended.event_id), offset=appended.offset)

    async def release(self, target_id: str, request: ReleaseIn) -> AppendedOut:
        """Append MemoryReleased (the caller checked it is an admin) on the stream of the
        target's quarantine, so it follows that quarantine in log order: a memory's on
        memories, a turn's on interactions. Reflect's memory ids are version-5 UUIDs,
        events' ids version 4, which is what ``target`` defaults from."""
        try:
            tid = UUID(target_id)
        except ValueError as e:
            raise InvalidInput("not a memory or interaction id", [Problem("memory_id", "must be a UUID")]) from e
        target = request.target or ("memory" if tid.version == 5 else "interaction")
        event = MemoryReleased(
            tenant=request.tenant or self._settings.default_tenant, user=request.user, target_id=tid,
            target=target, reason=request.reason, occurred_at=utcnow(),
        )
        [appended] = await self._log.append(MEMORIES if target == "memory" else INTERACTIONS, [event])
        return AppendedOut(event_id=str(appended.event_id), offset=appended.offset)

    async def erase(self, tenant: str, user: str, erased_by: str, reason: str = "") -> ErasureOut:
        """Erase a user: destroy their data keys (durably: from then on none of their
        sealed events opens), then append SubjectErased, on which every projection and
        cache purges them. A retry after a failed append destroys nothing more and
        appends the event again (the purges are idempotent)."""
        if not user.strip() or len(user) > 200 or not re.fullmatch(IDENTIFIER_PATTERN, user):
            raise InvalidInput("not a user id", [Problem("user", "1 to 200 characters, no control characters or '/'")])
        destroyed = await self._log.destroy_subject_keys(tenant, user)
        if destroyed:
            SUBJECTS_ERASED.inc()
        event = SubjectErased(tenant=tenant, user=user, occurred_at=utcnow(), keys_destroyed=destroyed,
                              erased_by=erased_by, reason=reason)
        [appended] = await self._log.append(CONTROL, [event])
        return ErasureOut(
            tenant=tenant, user=user, keys_destroyed=destroyed,
            event=AppendedOut(event_id=str(appended.event_id), offset=appended.offset),
            next="The user's events on the log can no longer be read. Every projection and cache "
                 "deletes what it holds of them when it applies this SubjectErased event "
                 "(GET /v1/status shows how far each one is); replays skip them.")
    async def lifecycle(self, action: str, memory_id: str, request: MemoryActionIn) -> AppendedOut:
        """Append MemoryPinned, MemoryUnpinned or MemoryRestored (``action``: pin, unpin,
        restore) on the memories stream."""
        try:
            mid = UUID(memory_id)
        except ValueError as e:
            raise InvalidInput("not a memory id", [Problem("memory_id", "must be a UUID")]) from e
        model = {"pin": MemoryPinned, "unpin": MemoryUnpinned, "restore": MemoryRestored}[action]
        event = model(tenant=request.tenant or self._settings.default_tenant, user=request.user, memory_id=mid,
                      reason=request.reason, occurred_at=utcnow())
        [appended] = await self._log.append(MEMORIES, [event])
        return AppendedOut(event_id=str(appended.event_id), offset=appended.offset)

    async def expire(self, memory_id: str, request: ExpireIn) -> AppendedOut:
        """Append MemoryExpirySet: ``expires_at``, or now + ``ttl_s``, or neither (clears it)."""
        if request.expires_at is not None and request.ttl_s is not None:
            raise InvalidInput("give expires_at or ttl_s, not both", [Problem("ttl_s", "conflicts with expires_at")])
        try:
            mid = UUID(memory_id)
        except ValueError as e:
            raise InvalidInput("not a memory id", [Problem("memory_id", "must be a UUID")]) from e
        now = utcnow()
        expires = request.expires_at if request.ttl_s is None else now + timedelta(seconds=request.ttl_s)
        event = MemoryExpirySet(tenant=request.tenant or self._settings.default_tenant, user=request.user,
                                memory_id=mid, expires_at=expires, reason=request.reason, occurred_at=now)
        [appended] = await self._log.append(MEMORIES, [event])
        return AppendedOut(event_id=str(appended.event_id), offset=appended.offset)

    async def consolidate(self, request: ConsolidateIn) -> ConsolidateOut:
        """A forgetting pass over one user's memories now (``consolidate/on_demand.py``):
        what it forgets (or, dry, would forget) and the events it appended."""
        live, planned, appended = await forget_now(
            self._log, request.tenant or self._settings.default_tenant, request.user, utcnow(),
            ForgetPolicy.from_settings(self._settings), dry_run=request.dry_run)
        return ConsolidateOut(
            dry_run=request.dry_run, live=live,
            forgotten=[PlannedForget(memory_id=str(p.memory_id), importance=p.importance, reason=p.reason)
                       for p in planned],
            events=[AppendedOut(event_id=str(a.event_id), offset=a.offset) for a in appended])
