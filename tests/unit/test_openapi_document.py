"""The published OpenAPI document describes what the server does (services/hindsight_services/api_docs.py):
every request body, every status a route can answer in our error shape, and the rules the
server enforces. A client generated from it is driven against a server in
tests/integration/test_openapi_client.py; schemathesis fuzzes a server against it in
tests/integration/test_schemathesis.py."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hindsight_common.api import ErrorOut
from hindsight_common.errors import Problem
from hindsight_common.settings import Settings
from hindsight_services.embedded import create_app
from hindsight_services.http import error_body
from hindsight_services.process import create_service_app

#: Operations that are not part of the memory API (health and status answer plain JSON).
PLUMBING = {("get", "/healthz")}
#: POST actions that take no body.
BODYLESS = {"/v1/admin/keys/{key_id}:revoke"}


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        document: dict[str, Any] = create_app(Settings(data_dir=Path(tmp))).openapi()
        return document


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if (method, path) not in PLUMBING:
                yield method, path, op


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_every_post_declares_its_json_body(doc: dict[str, Any]) -> None:
    posts = [(path, op) for method, path, op in operations(doc) if method == "post" and path not in BODYLESS]
    assert len(posts) >= 5
    for path, op in posts:
        body = op.get("requestBody")
        assert body and body["required"], path
        ref = body["content"]["application/json"]["schema"]["$ref"]
        assert ref.rpartition("/")[2] in doc["components"]["schemas"], (path, ref)
        for status in ("400", "413", "415", "422"):
            assert status in op["responses"], (path, status)


def test_every_operation_documents_outages_and_bugs_in_our_error_shape(doc: dict[str, Any]) -> None:
    for method, path, op in operations(doc):
        for status in ("500", "503"):
            assert status in op["responses"], (method, path, status)
        for status, response in op["responses"].items():
            if status.startswith(("4", "5")):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorOut"}, (method, path, status)


def test_fastapis_own_error_shape_is_gone_and_every_ref_resolves(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    assert "HTTPValidationError" not in schemas
    for ref in set(_refs(doc)):
        assert ref.startswith("#/components/schemas/") and ref.rpartition("/")[2] in schemas, ref


def test_operation_ids_are_the_endpoint_names_and_unique(doc: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in operations(doc)]
    assert len(ids) == len(set(ids))
    assert {"recall", "record_interactions", "get_memory", "list_memories"} <= set(ids)


def test_no_constraint_is_spelled_in_pydantics_words(doc: dict[str, Any]) -> None:
    """pydantic writes a bound it cannot place as "ge"/"le", which JSON Schema ignores."""
    def keys(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                yield key
                if key not in ("properties", "example", "examples"):
                    yield from keys(value)
                else:
                    for inner in (value.values() if isinstance(value, dict) else []):
                        yield from keys(inner)
        elif isinstance(node, list):
            for value in node:
                yield from keys(value)

    assert not {"ge", "gt", "le", "lt"} & set(keys(doc))


def test_ingest_documents_the_replay_and_the_conflict(doc: dict[str, Any]) -> None:
    responses = doc["paths"]["/v1/interactions"]["post"]["responses"]
    assert {"200", "201", "409"} <= set(responses)
    assert "replay" in responses["200"]["description"].lower()
    assert "idempotency-key" in [p["name"].lower() for p in doc["paths"]["/v1/interactions"]["post"]["parameters"]]


def test_the_rules_the_server_enforces_are_in_the_schemas(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    assert schemas["RecallIn"]["properties"]["k"]["maximum"] == Settings().recall_max_k
    assert schemas["RecallIn"]["properties"]["query"]["pattern"] == r"\S"
    assert schemas["InteractionIn"]["properties"]["content"]["pattern"] == r"\S"
    assert schemas["ReflectIn"]["not"]["required"] == ["session", "task"]
    memory_id = next(
        p for p in doc["paths"]["/v1/memories/{memory_id}"]["get"]["parameters"] if p["name"] == "memory_id"
    )
    assert memory_id["schema"]["format"] == "uuid"
    # And they hold as JSON Schema: a blank query and both session and task are refused.
    resolver = {"components": doc["components"]}

    def valid(model: str, instance: dict[str, Any]) -> bool:
        schema = {**schemas[model], "components": resolver["components"]}
        return jsonschema.Draft202012Validator(schema).is_valid(instance)

    assert valid("RecallIn", {"query": "hiking", "k": 100})
    assert not valid("RecallIn", {"query": "   "})
    assert not valid("RecallIn", {"query": "hiking", "k": 101})
    assert valid("ReflectIn", {"user": "u", "session": "s"})
    assert not valid("ReflectIn", {"user": "u", "session": "s", "task": "t"})
    assert valid("ReflectIn", {"user": "u", "session": None, "task": None})  # null is leaving it out
    assert valid("ReflectIn", {"user": "u", "session": "s", "task": None})


def test_our_error_bodies_match_the_published_error_shape(doc: dict[str, Any]) -> None:
    schema = {**doc["components"]["schemas"]["ErrorOut"], "components": doc["components"]}
    for body in (error_body("not_found", "no such memory"),
                 error_body("invalid_request", "bad", [Problem("k", "at most 100")])):
        jsonschema.validate(body, schema)
        ErrorOut.model_validate(body)


def test_the_cluster_gateway_publishes_the_same_api(doc: dict[str, Any]) -> None:
    """The gateway forwards writes to ingest; its document still describes them."""
    settings = Settings(ingest_url="http://127.0.0.1:9", log_backend="kafka",
                        postgres_dsn="postgresql://nobody:nothing@127.0.0.1:9/none")
    gateway = create_service_app("query", settings).openapi()
    ours = {(m, p) for m, p, _ in operations(doc)}
    assert ours == {(m, p) for m, p, _ in operations(gateway)}
    for method, path, op in operations(doc):
        assert json.dumps(gateway["paths"][path][method], sort_keys=True) == json.dumps(op, sort_keys=True), path
