"""Every event type, generated from its published JSON Schema (``schemas/events/``), goes
through the reader's path (``upcast``, then ``parse_event``) and back out on the wire
(``serialize_event``): what comes out parses to the same event and still validates against
the schema, so the schema and the model agree on what an event may hold.

Older schema versions of a type, once published beside the current one, are generated too
and must come out of the upcasters valid against the current schema (no type has a second
version yet: every file is a current version today).
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from jsonschema import Draft202012Validator

from hindsight_common.errors import InvalidInput
from hindsight_common.events.base import IDENTIFIER_PATTERN
from hindsight_common.events.registry import EVENT_TYPES, parse_event, serialize_event, upcast
from tests.support.schema_strategies import from_schema

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas" / "events"
FILES = sorted(SCHEMAS.glob("*.json"))
EXAMPLES = 250 if os.environ.get("HINDSIGHT_CHAOS") == "1" else 25  # make chaos: longer


def versions() -> dict[str, dict[int, dict[str, Any]]]:
    out: dict[str, dict[int, dict[str, Any]]] = {}
    for path in FILES:
        found = re.fullmatch(r"(\w+)\.v(\d+)\.json", path.name)
        assert found, f"unexpected schema file name {path.name}"
        out.setdefault(found[1], {})[int(found[2])] = json.loads(path.read_text())
    return out


VERSIONS = versions()


def validator(event_type: str) -> Draft202012Validator:
    latest = VERSIONS[event_type][max(VERSIONS[event_type])]
    return Draft202012Validator(latest, format_checker=Draft202012Validator.FORMAT_CHECKER)


# Rules between fields, which a JSON Schema of the model does not carry: raw -> broken?
CROSS_FIELD_RULES: dict[str, Callable[[dict[str, Any]], bool]] = {
    "MemoryAccessed": lambda raw: datetime.fromisoformat(raw["window_end"]) < datetime.fromisoformat(raw["window_start"]),
}


def identifiers(schema: dict[str, Any]) -> list[str]:
    """The top-level fields typed ``Identifier`` (tenant, user, session, ...): their pattern."""
    def is_identifier(field: dict[str, Any]) -> bool:
        return field.get("pattern") == IDENTIFIER_PATTERN or any(map(is_identifier, field.get("anyOf", ())))
    return [k for k, field in schema["properties"].items() if is_identifier(field)]


def test_every_registered_event_type_has_a_schema() -> None:
    assert set(VERSIONS) == set(EVENT_TYPES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_generated_events_round_trip_through_upcasters_and_the_wire(path: Path) -> None:
    schema = json.loads(path.read_text())
    event_type = path.name.split(".")[0]
    check = validator(event_type)
    current = max(VERSIONS[event_type])
    version = int(path.name.split(".")[1].removeprefix("v"))

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    # A reader always sees an event's type and version (the schema gives them defaults).
    @given(raw=from_schema(schema).map(lambda r: {**r, "type": event_type, "schema_version": version}))
    def round_trip(raw: dict[str, Any]) -> None:
        Draft202012Validator(schema).validate(raw)  # the generator keeps to the schema
        lifted = upcast(raw)
        assert lifted["schema_version"] == current
        blank = [k for k in identifiers(schema) if isinstance(raw.get(k), str) and not raw[k].strip()]
        if blank:  # identifiers are stripped before their length is checked (the schema cannot say so)
            with pytest.raises(InvalidInput) as refused:
                parse_event(json.dumps(raw))
            assert {p.field for p in refused.value.problems} == set(blank)
            return
        if (broken := CROSS_FIELD_RULES.get(event_type)) and broken(raw):
            with pytest.raises(InvalidInput):
                parse_event(json.dumps(raw))
            return
        event = parse_event(json.dumps(raw))
        assert type(event) is EVENT_TYPES[event_type]
        wire = serialize_event(event)
        again = parse_event(wire)
        assert again == event
        out = json.loads(wire)
        check.validate(out)
        assert upcast(out) == out  # the current version passes the upcasters unchanged
        assert set(raw) <= set(out)  # nothing dropped on the way
        for key in identifiers(schema):
            if isinstance(raw.get(key), str):
                assert out[key] == raw[key].strip(), key
        for key in ("occurred_at", "recorded_at"):  # the same instant, written in UTC
            if key in raw:
                assert datetime.fromisoformat(out[key]) == datetime.fromisoformat(raw[key]), key

    round_trip()


@given(st.sampled_from(sorted(EVENT_TYPES)), st.dictionaries(st.text(max_size=6), st.integers(), max_size=3))
def test_events_missing_their_fields_are_refused_with_the_reason(event_type: str, junk: dict[str, int]) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_event({**junk, "type": event_type, "schema_version": max(VERSIONS[event_type])})
    assert refused.value.problems
