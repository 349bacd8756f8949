"""Inputs a fuzzer (schemathesis) found at the edges of the HTTP API: each answer
must be a 4xx in our error shape, never a 500 or FastAPI's ``{"detail": ...}``."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from hindsight_common.streams import INTERACTIONS
from tests.integration.conftest import App
from tests.integration.test_http_api import turn

FORGET = "/v1/memories/00000000-0000-4000-8000-000000000000:forget"
# Every POST route, with a body it accepts.
POSTS = [
    ("/v1/interactions", {"interactions": [turn("hello")]}),
    ("/v1/recall", {"query": "hello"}),
    ("/v1/sessions/s1:close", {"user": "ann"}),
    ("/v1/reflect", {"user": "ann"}),
    (FORGET, {"user": "ann"}),
]
JSON = {"content-type": "application/json"}
TOO_EARLY = "0001-01-01T00:00:00+01:00"  # valid ISO-8601, but before year 1 in UTC
TOO_LATE = "9999-12-31T23:59:59-01:00"  # after year 9999 in UTC


def error_of(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return dict(body["error"])


def fields(error: dict[str, Any]) -> list[str]:
    return [p["field"] for p in error["problems"]]


@pytest.mark.parametrize("path", [p for p, _ in POSTS])
@pytest.mark.parametrize(
    ("raw", "words"),
    [("[" * 10_000 + "]" * 10_000, "nested too deeply"), ('{"k": ' + "9" * 5000 + "}", "number too long")],
    ids=["nested-10000-deep", "integer-5000-digits"],
)
async def test_json_python_cannot_hold_is_a_400(app: App, path: str, raw: str, words: str) -> None:
    r = await app.client.post(path, content=raw.encode(), headers=JSON)
    error = error_of(r, 400, "malformed_json")
    assert words in error["message"] and "sys." not in error["message"]
    assert await app.runtime.log.read(INTERACTIONS) == []


@pytest.mark.parametrize("when", [TOO_EARLY, TOO_LATE])
async def test_occurred_at_beyond_the_utc_range_names_the_field(app: App, when: str) -> None:
    r = await app.client.post("/v1/interactions", json={"interactions": [turn("x", occurred_at=when)]})
    error = error_of(r, 422, "invalid_request")
    [problem] = error["problems"]
    assert problem["field"] == "interactions.0.occurred_at" and "out of range" in problem["message"]
    assert await app.runtime.log.read(INTERACTIONS) == []


@pytest.mark.parametrize("name", ["since", "until", "reference_time"])
@pytest.mark.parametrize("when", [TOO_EARLY, TOO_LATE])
async def test_recall_times_beyond_the_utc_range_name_the_field(app: App, name: str, when: str) -> None:
    r = await app.client.post("/v1/recall", json={"query": "x", name: when})
    assert fields(error_of(r, 422, "invalid_request")) == [name]


async def test_recall_at_the_edges_of_the_range_still_works(app: App) -> None:
    body = {"query": "what happened next year", "since": "0001-01-01T00:00:00Z",
            "until": "9999-12-31T23:59:59Z", "reference_time": "9999-12-31T23:59:59Z"}
    r = await app.client.post("/v1/recall", json=body)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("offset", ["9223372036854775808", "2147483648"])
async def test_browse_offset_beyond_the_bound_names_offset(app: App, offset: str) -> None:
    r = await app.client.get("/v1/memories", params={"offset": offset})
    assert fields(error_of(r, 422, "invalid_request")) == ["query.offset"]
    last = await app.client.get("/v1/memories", params={"offset": "2147483647"})
    assert last.status_code == 200 and last.json() == {"items": [], "next_offset": None}


async def test_an_unexpected_failure_is_a_json_500_without_details(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_: Any) -> Any:
        raise RuntimeError("secret-internal-detail at /srv/hindsight/query.py")

    monkeypatch.setattr(app.runtime.query, "recall", broken)
    transport = httpx.ASGITransport(app=app.application, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        r = await client.post("/v1/recall", json={"query": "x"})
    error_of(r, 500, "internal")
    assert "secret-internal-detail" not in r.text and "Traceback" not in r.text
    assert "RuntimeError" not in r.text


async def test_unknown_path_and_wrong_method_answer_our_shape(app: App) -> None:
    error = error_of(await app.client.get("/v1/nothing-here"), 404, "not_found")
    assert "/v1/nothing-here" in error["message"]
    r = await app.client.get("/v1/recall")
    error = error_of(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "POST" and "allowed: POST" in error["message"]
    assert "detail" not in r.json()


async def test_a_path_two_routes_share_allows_both_methods(app: App) -> None:
    """GET and POST /v1/admin/keys are two routes: a 405 there names both (schemathesis
    found Starlette naming only the first route's)."""
    r = await app.client.request("OPTIONS", "/v1/admin/keys")
    error = error_of(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "GET, POST" and "allowed: GET, POST" in error["message"]


@pytest.mark.parametrize(("path", "body"), POSTS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", None])
async def test_a_body_not_sent_as_json_is_a_415(
    app: App, path: str, body: dict[str, Any], content_type: str | None
) -> None:
    headers = {"content-type": content_type} if content_type else {}
    r = await app.client.post(path, content=json.dumps(body).encode(), headers=headers)
    error = error_of(r, 415, "unsupported_media_type")
    assert "application/json" in error["message"]
    assert await app.runtime.log.read(INTERACTIONS) == []


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "Application/JSON"])
async def test_json_with_parameters_or_another_case_is_accepted(app: App, content_type: str) -> None:
    body = json.dumps({"interactions": [turn("hello")]}).encode()
    r = await app.client.post("/v1/interactions", content=body, headers={"content-type": content_type})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    ("body", "field"),
    [({"since": "2024-05-02T00:00:00Z", "until": "2024-05-01T00:00:00Z"}, "until"),
     ({"since": "2024-05-01T10:00:00+02:00", "until": "2024-05-01T08:00:00Z"}, "until"),  # same instant
     ({"k": True}, "k"), ({"k": "5"}, "k"), ({"budget_tokens": True}, "budget_tokens"),
     ({"k": 5.5}, "k"), ({"explain": 1}, "explain"), ({"explain": "true"}, "explain"),
     ({"until": 0}, "until"), ({"since": 1714557600}, "since"), ({"reference_time": 1.5}, "reference_time")],
    ids=["until-before-since", "until-equals-since", "k-true", "k-string", "budget-true", "k-fraction",
         "explain-1", "explain-string", "until-number", "since-number", "reference-time-number"],
)
async def test_recall_rejects_an_empty_window_and_booleans_for_integers(
    app: App, body: dict[str, Any], field: str
) -> None:
    r = await app.client.post("/v1/recall", json={"query": "x", **body})
    error = error_of(r, 422, "invalid_request")
    assert fields(error) == [field]
    if "since" in body and field == "until":
        assert "after since" in error["problems"][0]["message"]


async def test_idempotency_ignores_how_the_json_is_spelled(app: App) -> None:
    headers = {"Idempotency-Key": "respaced", **JSON}
    batch = {"interactions": [turn("caf\u00e9 at noon", metadata={"b": 1, "a": [1, 2]})]}
    first = await app.client.post("/v1/interactions", content=json.dumps(batch).encode(), headers=headers)
    # The same JSON re-spaced, keys in another order, non-ASCII escaped differently.
    respelled = json.dumps(
        {"interactions": [dict(reversed(list(batch["interactions"][0].items())))]},
        indent=4, ensure_ascii=False,
    ).encode()
    again = await app.client.post("/v1/interactions", content=respelled, headers=headers)
    assert first.status_code == 201 and again.status_code == 200, again.text
    assert again.json()["replayed"] is True and again.json()["events"] == first.json()["events"]
    assert len(await app.runtime.log.read(INTERACTIONS)) == 1


async def test_an_integer_written_as_a_whole_float_is_an_integer(app: App) -> None:
    """5.0 is an integer in JSON Schema (the published document's dialect)."""
    r = await app.client.post("/v1/recall", json={"query": "x", "k": 5.0})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("over", "field"),
    [({"occurred_at": 1714557600}, "interactions.0.occurred_at"),
     ({"tool_calls": [{"name": "search", "ok": 0}]}, "interactions.0.tool_calls.0.ok")],
    ids=["time-as-number", "ok-as-number"],
)
async def test_ingest_takes_times_as_text_and_booleans_as_booleans(
    app: App, over: dict[str, Any], field: str
) -> None:
    r = await app.client.post("/v1/interactions", json={"interactions": [turn("hello", **over)]})
    assert fields(error_of(r, 422, "invalid_request")) == [field]
    assert await app.runtime.log.read(INTERACTIONS) == []


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/v1/sessions/%19x:close"), ("GET", "/v1/sessions/%19x/context?user=ann")],
    ids=["close", "context"],
)
async def test_a_session_id_with_control_characters_is_a_422(app: App, method: str, path: str) -> None:
    body = {"user": "ann"} if method == "POST" else None
    r = await app.client.request(method, path, json=body)
    assert fields(error_of(r, 422, "invalid_request")) == ["path.session"]


async def test_an_idempotent_batch_holds_one_tenant(app: App) -> None:
    batch = {"interactions": [turn("a", tenant="t1"), turn("b", tenant="t2")]}
    r = await app.client.post("/v1/interactions", json=batch, headers={"Idempotency-Key": "mixed"})
    assert fields(error_of(r, 422, "invalid_request")) == ["interactions"]
    assert await app.runtime.log.read(INTERACTIONS) == []


@pytest.mark.parametrize(
    ("path", "field"),
    [("/v1/memories?user=ann&user=bob", "query.user"),
     ("/v1/memories?limit=5&limit=6", "query.limit"),
     ("/v1/sessions/s1/context?user=ann&budget=10&budget=20", "query.budget")],
    ids=["browse-user", "browse-limit", "context-budget"],
)
async def test_a_single_valued_query_parameter_given_twice_is_a_422(app: App, path: str, field: str) -> None:
    assert fields(error_of(await app.client.get(path), 422, "invalid_request")) == [field]


async def test_a_many_valued_query_parameter_may_repeat(app: App) -> None:
    r = await app.client.get("/v1/memories?user=ann&tag=a&tag=b&type=semantic&type=episodic")
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("query", ["user=%1bann", "user=ann&session=%00", "user=ann&tenant="],
                         ids=["control-in-user", "nul-in-session", "empty-tenant"])
async def test_browse_identifiers_follow_the_identifier_rules(app: App, query: str) -> None:
    assert (await app.client.get(f"/v1/memories?{query}")).status_code == 422
