"""Per-tenant PII policy (redact / reject / allow) and how ingest applies it before the log."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from hindsight_common.api import IngestRequest
from hindsight_common.errors import InvalidInput
from hindsight_common.events import ToolCall
from hindsight_common.events.interactions import Redaction
from hindsight_common.security.pii import COUNTERS, PiiCounters, PiiPolicy, redact_turn
from hindsight_common.settings import Settings
from hindsight_services.ingest.handler import to_events

CARD = "4111 1111 1111 1111"
EMAIL = "ann@example.org"


def request(*contents: str, **over: Any) -> IngestRequest:
    return IngestRequest.model_validate({"interactions": [
        {"user": "ann", "session": "s1", "speaker": "Ann", "content": c, **over} for c in contents]})


def test_default_policy_redacts_every_type() -> None:
    policy = PiiPolicy()
    assert set(policy.actions("anyone").values()) == {"redact"}


def test_tenant_entries_win_over_star_and_named_types_over_star() -> None:
    policy = PiiPolicy({
        "*": {"ip_address": "allow", "*": "redact"},
        "bank": {"card": "reject", "*": "allow"},
        "clinic": {"*": "reject"},
    })
    assert policy.action("shop", "ip_address") == "allow"
    assert policy.action("shop", "card") == "redact"
    assert policy.action("bank", "card") == "reject"
    assert policy.action("bank", "email") == "allow"  # the tenant's "*" beats the global entry
    assert policy.action("clinic", "phone") == "reject"


def test_unknown_types_and_actions_are_refused_at_start() -> None:
    with pytest.raises(ValueError, match="unknown PII type 'emial'"):
        PiiPolicy({"acme": {"emial": "redact"}})
    with pytest.raises(ValidationError, match="unknown PII type 'cards'"):
        Settings(pii_policy={"acme": {"cards": "reject"}})
    with pytest.raises(ValidationError, match="'redact', 'reject' or 'allow'"):
        Settings(pii_policy={"acme": {"card": "drop"}})  # type: ignore[dict-item]


def test_settings_read_the_policy_from_json_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_PII_POLICY", '{"acme": {"email": "allow"}}')
    assert Settings().pii_policy == {"acme": {"email": "allow"}}


def test_redact_turn_covers_content_tool_calls_and_metadata_with_positions() -> None:
    call = ToolCall(name="lookup", arguments={"who": EMAIL, "list": ["x", f"call +44 20 7946 0958"], "n": 3},
                    result=f"paid with {CARD}", ok=True)
    turn = redact_turn(f"mail {EMAIL} now", (call,), {"note": {"ip": "from 203.0.113.9"}, "n": 1},
                       PiiPolicy().actions("t"))
    assert turn.content == "mail [EMAIL] now"
    assert turn.tool_calls[0].arguments == {"who": "[EMAIL]", "list": ["x", "call [PHONE]"], "n": 3}
    assert turn.tool_calls[0].result == "paid with [CARD]" and turn.tool_calls[0].ok is True
    assert turn.metadata == {"note": {"ip": "from [IP]"}, "n": 1}
    assert turn.redactions == (
        Redaction(type="email", field="content", start=5, end=12),
        Redaction(type="email", field="tool_calls.0.arguments.who", start=0, end=7),
        Redaction(type="phone", field="tool_calls.0.arguments.list.1", start=5, end=12),
        Redaction(type="card", field="tool_calls.0.result", start=10, end=16),
        Redaction(type="ip_address", field="metadata.note.ip", start=5, end=9),
    )
    for r in turn.redactions:  # each position points at its placeholder in the stored text
        assert r.end - r.start == len(f"[{'IP' if r.type == 'ip_address' else r.type.upper()}]")
    assert turn.rejected == ()


def test_positions_account_for_earlier_placeholders() -> None:
    text = f"{EMAIL} and {CARD} and 11010519491231002X"
    turn = redact_turn(text, (), {}, PiiPolicy().actions("t"))
    assert turn.content == "[EMAIL] and [CARD] and [NATIONAL_ID]"
    assert [turn.content[r.start : r.end] for r in turn.redactions] == ["[EMAIL]", "[CARD]", "[NATIONAL_ID]"]


def test_allowed_types_are_kept_and_not_recorded() -> None:
    policy = PiiPolicy({"acme": {"email": "allow"}})
    turn = redact_turn(f"{EMAIL} paid {CARD}", (), {}, policy.actions("acme"))
    assert turn.content == f"{EMAIL} paid [CARD]"
    assert [r.type for r in turn.redactions] == ["card"]


def test_to_events_redacts_per_tenant_and_records_what_was_redacted() -> None:
    policy = PiiPolicy({"acme": {"*": "allow"}})
    [plain, acme] = to_events(
        IngestRequest.model_validate({"interactions": [
            {"user": "ann", "session": "s", "speaker": "Ann", "content": f"card {CARD}"},
            {"tenant": "acme", "user": "ann", "session": "s", "speaker": "Ann", "content": f"card {CARD}"},
        ]}), "default", policy)
    assert plain.content == "card [CARD]" and plain.redactions == (
        Redaction(type="card", field="content", start=5, end=11),)
    assert acme.content == f"card {CARD}" and acme.redactions == ()
    assert CARD not in plain.model_dump_json()


def test_reject_names_type_field_and_position_never_the_value() -> None:
    policy = PiiPolicy({"bank": {"card": "reject"}})
    before = COUNTERS.snapshot()["rejected"]["card"]
    with pytest.raises(InvalidInput) as e:
        to_events(request("fine", f"my card {CARD}", tenant="bank"), "default", policy)
    [problem] = e.value.problems
    assert problem.field == "interactions.1.content"
    assert "a payment card number at characters 8-27" in problem.message and "'bank'" in problem.message
    assert CARD not in problem.message and CARD not in str(e.value)
    assert COUNTERS.snapshot()["rejected"]["card"] == before + 1
    # Another tenant has the default policy: the same turn is redacted, not rejected.
    [_, event] = to_events(request("fine", f"my card {CARD}", tenant="shop"), "default", policy)
    assert event.content == "my card [CARD]"


def test_reject_in_metadata_names_the_nested_field() -> None:
    policy = PiiPolicy({"*": {"secret": "reject"}})
    with pytest.raises(InvalidInput) as e:
        to_events(request("ok", metadata={"env": {"vars": ["x", "DB_PASSWORD=s3cr3t-P4ss"]}}), "default", policy)
    assert [p.field for p in e.value.problems] == ["interactions.0.metadata.env.vars.1"]


def test_counters_count_per_type() -> None:
    counters = PiiCounters()
    counters.count(redactions=(Redaction(type="email", field="content", start=0, end=7),) * 2)
    snap = counters.snapshot()
    assert snap["redacted"]["email"] == 2 and snap["redacted"]["card"] == 0
    assert set(snap["rejected"].values()) == {0}


def test_a_tool_result_that_outgrows_its_limit_once_redacted_is_a_clear_error() -> None:
    ssns = " ".join(["123-45-6789"] * 8_334)  # 100,007 characters; each SSN grows by two
    body = {"user": "ann", "session": "s", "speaker": "Ann", "content": "see the tool call",
            "tool_calls": [{"name": "export", "result": ssns[:100_000]}]}
    with pytest.raises(InvalidInput) as e:
        to_events(IngestRequest.model_validate({"interactions": [body]}), "default")
    [problem] = e.value.problems
    assert problem.field == "interactions.0.tool_calls.0.result" and "placeholders" in problem.message
    assert "123-45-6789" not in problem.message
