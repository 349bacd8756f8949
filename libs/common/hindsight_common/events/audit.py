"""Events of the ``hindsight.audit.v1`` stream: who did what with which credential, when,
and how it ended. Never content: no memory text, no request body, no secret.

``tenant`` is the tenant acted on (the credential's); a request whose key could not be
identified has none and is recorded under :data:`UNKNOWN_TENANT`. ``user`` is the actor:
the key id, :data:`ANONYMOUS` (no key, auth off), :data:`OPERATOR` (the command line,
which writes the key store directly) or a worker acting on its own, its name in parentheses
(``(reflect)`` holding back a memory; interface ``service``).

Version 2 adds ``details``: what the action was about, as flat named values (counts, ids,
the preset, a redaction's type and position), never content; a version 1 event reads as one
without details (upcaster in ``events/registry.py``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from hindsight_common.events.base import Event

UNKNOWN_TENANT = "(unknown)"
ANONYMOUS = "(anonymous)"
OPERATOR = "(operator)"

AuditOutcome = Literal["ok", "denied", "failed"]
DetailName = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]
#: A detail's value: a number, a flag or a short string (an id, a preset, a type and position).
DetailValue = int | bool | Annotated[str, StringConstraints(max_length=300)]


class AuditRecorded(Event):
    """An audited action happened (or was refused)."""

    type: Literal["AuditRecorded"] = "AuditRecorded"
    schema_version: Literal[2] = 2
    action: str = Field(min_length=1, max_length=100,
                        description="What was done, e.g. key.create, key.revoke, key.list, auth.failed, "
                        "ingest, recall, session.context, memories.browse, pii.redacted, quarantine, "
                        "memory.release.")
    outcome: AuditOutcome
    credential: str | None = Field(None, max_length=100, description="The key id that acted, if known.")
    interface: Literal["http", "grpc", "cli", "service"] = Field(
        description="Where it came in: http, grpc, cli, or service (a worker acting on its own, "
        "e.g. reflect holding back a memory; the actor is then the service's name).")
    target: str | None = Field(None, max_length=300,
                               description="What it was done to: a key id, a route or an rpc.")
    reason: str = Field("", max_length=500, description="Why it was refused; never a secret or content.")
    details: dict[DetailName, DetailValue] = Field(
        default_factory=dict, max_length=30,
        description="What the action was about (counts, ids, preset, k, a redaction's type and "
        "position); never content, a query or a secret.")
