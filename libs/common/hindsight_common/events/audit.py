"""Events of the ``hindsight.audit.v1`` stream: who did what with which credential, when,
and how it ended. Never content: no memory text, no request body, no secret.

``tenant`` is the tenant acted on (the credential's); a request whose key could not be
identified has none and is recorded under :data:`UNKNOWN_TENANT`. ``user`` is the actor:
the key id, :data:`ANONYMOUS` (no key, auth off) or :data:`OPERATOR` (the command line,
which writes the key store directly).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hindsight_common.events.base import Event

UNKNOWN_TENANT = "(unknown)"
ANONYMOUS = "(anonymous)"
OPERATOR = "(operator)"

AuditOutcome = Literal["ok", "denied", "failed"]


class AuditRecorded(Event):
    """An audited action happened (or was refused)."""

    type: Literal["AuditRecorded"] = "AuditRecorded"
    schema_version: Literal[1] = 1
    action: str = Field(min_length=1, max_length=100,
                        description="What was done, e.g. key.create, key.revoke, key.list, auth.failed.")
    outcome: AuditOutcome
    credential: str | None = Field(None, max_length=100, description="The key id that acted, if known.")
    interface: Literal["http", "grpc", "cli"]
    target: str | None = Field(None, max_length=300,
                               description="What it was done to: a key id, a route or an rpc.")
    reason: str = Field("", max_length=500, description="Why it was refused; never a secret or content.")
