from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.errors import InvalidInput
from hindsight_common.events import (
    InteractionRecorded,
    SessionClosed,
    parse_event,
    register_upcaster,
    serialize_event,
)
from hindsight_common.events import registry
from hindsight_common.schema_export import drift, expected_files

ROOT = Path(__file__).resolve().parents[2]


def _interaction(**over: object) -> InteractionRecorded:
    base: dict[str, object] = dict(
        tenant="t1", user="u1", session="s1", speaker="Ann", role="user",
        content="I like tea", occurred_at=datetime(2024, 5, 1, 10, tzinfo=UTC),
    )
    base.update(over)
    return InteractionRecorded(**base)  # type: ignore[arg-type]


def test_schemas_in_repo_match_models() -> None:
    assert drift(ROOT / "schemas") == [], "run `make schemas` and commit the result"


def test_drift_is_detected(tmp_path: Path) -> None:
    for rel, content in expected_files().items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(content)
    target = tmp_path / "events" / "InteractionRecorded.v1.json"
    schema = json.loads(target.read_text())
    schema["properties"].pop("content")
    target.write_text(json.dumps(schema))
    assert drift(tmp_path) == ["differs events/InteractionRecorded.v1.json"]


def test_round_trip_through_the_wire() -> None:
    event = _interaction(external_id="x-1", metadata={"lang": "en"})
    parsed = parse_event(serialize_event(event))
    assert parsed == event
    assert isinstance(parsed, InteractionRecorded)


def test_events_are_frozen_and_strict() -> None:
    event = _interaction()
    with pytest.raises(Exception):
        event.content = "changed"  # type: ignore[misc]
    raw = json.loads(serialize_event(event))
    raw["surprise"] = 1
    with pytest.raises(InvalidInput) as e:
        parse_event(raw)
    assert any(p.field == "surprise" for p in e.value.problems)


def test_naive_times_are_rejected_and_aware_ones_normalised_to_utc() -> None:
    with pytest.raises(Exception, match="timezone"):
        _interaction(occurred_at=datetime(2024, 5, 1, 10))
    event = _interaction(occurred_at=datetime.fromisoformat("2024-05-01T12:00:00+02:00"))
    assert event.occurred_at == datetime(2024, 5, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"type": "Nope", "schema_version": 1}', "unknown event type"),
    ],
)
def test_unparseable_records_say_why(data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_event(data)


def test_upcaster_lifts_an_old_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_UPCASTERS", {})
    old = json.loads(serialize_event(SessionClosed(
        tenant="t", user="u", session="s", occurred_at=datetime(2024, 1, 1, tzinfo=UTC))))
    old["schema_version"] = 0
    old["session_id"] = old.pop("session")

    def v0_to_v1(d: dict[str, object]) -> dict[str, object]:
        d = dict(d)
        d["session"] = d.pop("session_id")
        d["schema_version"] = 1
        return d

    register_upcaster("SessionClosed", 0, v0_to_v1)
    parsed = parse_event(old)
    assert isinstance(parsed, SessionClosed) and parsed.session == "s"


def test_published_openapi_matches_the_gateway() -> None:
    from hindsight_services.openapi import RELATIVE, document

    published = (ROOT / "schemas" / RELATIVE).read_text()
    assert published == document(), "run `make schemas` and commit the result"
    spec = json.loads(published)
    assert {"/v1/interactions", "/v1/recall", "/v1/memories", "/v1/memories/{memory_id}",
            "/v1/sessions/{session}/context"} <= set(spec["paths"])
