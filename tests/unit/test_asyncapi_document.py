"""The AsyncAPI document of our streams (services/hindsight_services/asyncapi.py, published as
schemas/asyncapi/v1.json) matches the code: every event type on exactly one stream, the
readers each service's wiring declares, schemas real events validate against."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema

from hindsight_common.events import InteractionRecorded, registry
from hindsight_services.asyncapi import FOLLOW_TARGET, RELATIVE, STREAM_EVENTS, build, document

ROOT = Path(__file__).resolve().parents[2]


def test_published_asyncapi_matches_the_code() -> None:
    assert (ROOT / "schemas" / RELATIVE).read_text() == document(), "run `make schemas` and commit the result"


def test_every_event_type_is_on_exactly_one_stream() -> None:
    placed = Counter(name for _, _, names in STREAM_EVENTS.values() for name in names)
    assert set(placed) == set(registry.EVENT_TYPES), "an event type is on no stream (or an unknown one is)"
    assert all(n == (2 if name in FOLLOW_TARGET else 1) for name, n in placed.items()), placed


def test_the_readers_are_the_consumer_groups_of_the_wiring() -> None:
    doc = build()
    receives = {(op["channel"]["$ref"].rsplit("/", 1)[1], name.split("-reads-")[0])
                for name, op in doc["operations"].items() if op["action"] == "receive"}
    assert ("interactions-v1", "embed") in receives and ("interactions-v1", "reflect") in receives
    assert ("memories-v1", "consolidate") in receives and ("control-v1", "reflect") in receives
    assert ("memories-v1", "reflect") not in receives


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_every_reference_resolves() -> None:
    doc = build()
    for ref in set(_refs(doc)):
        node: Any = doc
        for part in ref.removeprefix("#/").split("/"):
            assert part in node, ref
            node = node[part]
        assert isinstance(node, dict), ref


def test_a_real_event_validates_against_its_published_schema() -> None:
    doc = json.loads(document())
    schema = {**doc["components"]["schemas"]["InteractionRecorded"], "components": doc["components"]}
    event = InteractionRecorded(tenant="t", user="u", session="s", speaker="Ann", role="user",
                                content="I keep bees.", occurred_at=datetime(2024, 5, 1, tzinfo=UTC))
    jsonschema.validate(json.loads(event.model_dump_json()), schema)
    bad = {**json.loads(event.model_dump_json()), "role": "robot"}
    assert not jsonschema.Draft202012Validator(schema).is_valid(bad)
