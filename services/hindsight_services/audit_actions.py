"""Auditing the requests that read or write memories: who (the key, or anonymous), with which
credential, what (counts, ids, preset, k; never content, a query or a secret), when and how
it ended, as ``AuditRecorded`` events on ``hindsight.audit.v1``.

A route marks its request with :func:`audited` (the action, the tenant acted on and the
details known so far; it may add to the returned details, e.g. a result count, before it
answers). The scope dependency (``auth.needs``) notes the event when the route has ended:
``ok`` when it answered, ``failed`` with the error's type when it raised (a refusal is
audited as ``auth.forbidden`` instead). Events are queued (``AuditTrail.note``) and appended
in the background in batches: a recall never waits for an fsync or a Kafka round trip, and a
full queue drops and counts (``hindsight_audit_dropped_total``) instead of blocking.

Ingest's effects are audited here too, from what the ingest handler built: each turn's
redactions (:func:`redaction_events`: type, field and position, never the value) and each
quarantine (:func:`quarantine_events`: the target and the attack families, never the
matched text).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import Literal
from fastapi import Request

from hindsight_common.events import InteractionRecorded
from hindsight_common.events.audit import ANONYMOUS, AuditOutcome, AuditRecorded, DetailValue
from hindsight_common.events.security import MemoryQuarantined
from hindsight_common.security.credentials import Principal
from hindsight_common.security.credentials_access import Interface, now

_STATE = "audit_action"
Marked = tuple[str, str, dict[str, DetailValue]]  # action, tenant, details
# The mark of the current gRPC call (each rpc runs in a task, hence a context, of its own).
_RPC_MARK: ContextVar[Marked | None] = ContextVar("hindsight_audit_mark", default=None)


def audited(request: Request, action: str, tenant: str, **details: DetailValue) -> dict[str, DetailValue]:
    """Mark ``request`` as ``action`` on ``tenant``; returns its details for the route to add to."""
    kept: dict[str, DetailValue] = dict(details)
    setattr(request.state, _STATE, (action, tenant, kept))
    return kept


def audited_rpc(action: str, tenant: str, **details: DetailValue) -> dict[str, DetailValue]:
    """:func:`audited` for the current gRPC call."""
    kept: dict[str, DetailValue] = dict(details)
    _RPC_MARK.set((action, tenant, kept))
    return kept


def rpc_mark(reset: bool = False) -> Marked | None:
    """The current gRPC call's mark (``reset``: clear it, at the start of a call)."""
    if reset:
        _RPC_MARK.set(None)
    return _RPC_MARK.get()


def action_event(request: Request, principal: Principal | None, target: str, outcome: AuditOutcome,
                 reason: str = "") -> AuditRecorded | None:
    """The event of the action ``request`` was marked with, or None when it was not."""
    return marked_event(getattr(request.state, _STATE, None), principal, target, outcome, "http", reason)


def marked_event(marked: Marked | None, principal: Principal | None, target: str, outcome: AuditOutcome,
                 interface: Interface, reason: str = "") -> AuditRecorded | None:
    if marked is None:
        return None
    action, tenant, details = marked
    return AuditRecorded(
        tenant=tenant, user=principal.key_id if principal else ANONYMOUS, occurred_at=now(),
        action=action, outcome=outcome, credential=principal.key_id if principal else None,
        interface=interface, target=target, reason=reason, details=details)


def ingest_effects(details: dict[str, DetailValue], principal: Principal | None, replayed: bool,
                   first_event: str, last_event: str, recorded: Sequence[InteractionRecorded],
                   held: Sequence[MemoryQuarantined], interface: Interface) -> list[AuditRecorded]:
    """Completes an ``ingest`` action's details and returns the audit events of what the
    write did besides: its redactions and its quarantines (none for a replay)."""
    details.update(replayed=replayed, first_event=first_event, last_event=last_event,
                   redactions=sum(len(e.redactions) for e in recorded), quarantined=len(held))
    return [*redaction_events(principal, recorded, interface), *quarantine_events(principal, held, interface)]


def redaction_events(principal: Principal | None, events: Sequence[InteractionRecorded],
                     interface: Interface = "http") -> list[AuditRecorded]:
    """One ``pii.redacted`` event per turn with redactions: each redaction's type, field and
    position in the stored text (``type@field:start-end``), never the value."""
    out = []
    for e in events:
        if not e.redactions:
            continue
        where = ",".join(f"{r.type}@{r.field}:{r.start}-{r.end}" for r in e.redactions)
        out.append(_effect(principal, e.tenant, "pii.redacted", str(e.event_id), interface, {
            "interaction": str(e.event_id), "count": len(e.redactions),
            "types": ",".join(sorted({r.type for r in e.redactions}))[:300],
            "positions": where if len(where) <= 300 else where[:297] + "...",
        }))
    return out


def quarantine_events(principal: Principal | None, held: Sequence[MemoryQuarantined],
                      interface: Interface | Literal["service"] = "http", actor: str | None = None,
                      ) -> list[AuditRecorded]:
    """One ``quarantine`` event per item held back (by ingest, or by reflect as ``actor``
    over the ``service`` interface): the target, its kind, the attack families and the
    score; never the text that matched."""
    return [_effect(principal, q.tenant, "quarantine", str(q.target_id), interface, {
        "target": q.target, "families": ",".join(q.families)[:300], "score": str(round(q.score, 3)),
        "source": q.source}, actor) for q in held]


def _effect(principal: Principal | None, tenant: str, action: str, target: str,
            interface: Interface | Literal["service"], details: dict[str, DetailValue],
            actor: str | None = None) -> AuditRecorded:
    return AuditRecorded(
        tenant=tenant, user=actor or (principal.key_id if principal else ANONYMOUS), occurred_at=now(),
        action=action, outcome="ok", credential=principal.key_id if principal else None,
        interface=interface, target=target, details=details)
