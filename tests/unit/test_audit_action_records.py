"""The audit events of reads and writes as pure functions: a redaction is described by type,
field and position, never its value; a version 1 audit event still reads (as one without
details)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hindsight_common.events import InteractionRecorded
from hindsight_common.events.audit import ANONYMOUS, AuditRecorded
from hindsight_common.events.interactions import Redaction
from hindsight_common.events.registry import parse_event, serialize_event
from hindsight_services.audit_actions import redaction_events

WHEN = datetime(2024, 5, 1, tzinfo=UTC)


def test_a_version_1_audit_event_reads_as_one_without_details() -> None:
    stored = json.loads(serialize_event(AuditRecorded(
        tenant="acme", user="k1", occurred_at=WHEN, action="key.list", outcome="ok", interface="http")))
    del stored["details"]
    stored["schema_version"] = 1
    event = parse_event(stored)
    assert isinstance(event, AuditRecorded) and event.schema_version == 2 and event.details == {}


def test_a_redaction_is_audited_by_type_and_position_only() -> None:
    turn = InteractionRecorded(
        tenant="acme", user="ann", session="s", speaker="Ann", role="user", occurred_at=WHEN,
        content="write [EMAIL] or ring [PHONE]",
        redactions=(Redaction(type="email", field="content", start=5, end=12),
                    Redaction(type="phone", field="content", start=21, end=28)))
    plain = InteractionRecorded(tenant="acme", user="ann", session="s", speaker="Ann", role="user",
                                occurred_at=WHEN, content="nothing personal")
    [event] = redaction_events(None, [turn, plain])
    assert (event.action, event.tenant, event.user, event.credential, event.target) == (
        "pii.redacted", "acme", ANONYMOUS, None, str(turn.event_id))
    assert event.details == {"interaction": str(turn.event_id), "count": 2, "types": "email,phone",
                             "positions": "email@content:5-12,phone@content:21-28"}
    assert b"write" not in serialize_event(event) and b"ring" not in serialize_event(event)
