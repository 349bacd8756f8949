"""The write and read HTTP API of the embedded gateway."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hindsight_common.streams import INTERACTIONS
from tests.integration.conftest import App


def turn(content: str, **over: Any) -> dict[str, Any]:
    body = {"user": "ann", "session": "s1", "speaker": "Ann", "role": "user", "content": content,
            "occurred_at": "2024-05-01T10:00:00Z"}
    body.update(over)
    return body


async def ingest(app: App, *turns: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    r = await app.client.post("/v1/interactions", json={"interactions": list(turns)}, headers=headers)
    assert r.status_code in (200, 201), r.text
    return r.json()


async def recall(app: App, query: str, **over: Any) -> list[dict[str, Any]]:
    body = {"user": "ann", "query": query, "k": 5, **over}
    r = await app.client.post("/v1/recall", json=body)
    assert r.status_code == 200, r.text
    return list(r.json()["items"])


async def test_ingest_then_recall_with_scores_and_provenance(app: App) -> None:
    out = await ingest(app, turn("I adopted a greyhound called Pixel", external_id="m1"),
                       turn("The weather was grey and rainy", external_id="m2"))
    assert [e["offset"] for e in out["events"]] == sorted(e["offset"] for e in out["events"])
    await app.runtime.wait_caught_up()
    items = await recall(app, "What is the name of Ann's dog?", preset="fast")
    top = items[0]
    assert top["content"] == "I adopted a greyhound called Pixel"
    assert top["type"] == "episodic" and top["speaker"] == "Ann" and top["session"] == "s1"
    assert top["occurred_at"].startswith("2024-05-01T10:00:00")
    assert top["provenance"] == {"event_ids": [out["events"][0]["event_id"]], "external_ids": ["m1"]}
    assert set(top["scores"]) <= {"vector", "bm25", "bm25_context", "speaker"} and "vector" in top["scores"]
    # The fast preset has no rerank: the score is plain RRF (k=60) over the paths.
    assert top["score"] == pytest.approx(sum(1 / (60 + r) for r in top["ranks"].values()))


async def test_explain_reports_paths_fusion_and_rerank_factors(app: App) -> None:
    await ingest(app, turn("I adopted a greyhound called Pixel", external_id="m1"),
                 turn("Pixel chased a squirrel yesterday", role="assistant", speaker="Bot"))
    await app.runtime.wait_caught_up()
    [top, *_] = await recall(app, "greyhound Pixel", explain=True)
    explain = top["explain"]
    assert set(explain["paths"]) >= {"vector", "bm25"}
    assert explain["paths"]["vector"]["rank"] == top["ranks"]["vector"]
    assert set(explain["factors"]) == {"decay", "confidence", "importance", "access", "trust"}
    assert explain["final"] == top["score"] and 0 < explain["final"] <= explain["fused"]
    plain = await recall(app, "greyhound Pixel")
    assert plain[0]["explain"] is None


async def test_unknown_preset_is_a_clear_error(app: App) -> None:
    r = await app.client.post("/v1/recall", json={"query": "x", "preset": "turbo"})
    assert r.status_code == 422
    assert r.json()["error"]["problems"][0] == {
        "field": "preset", "message": "one of fast, balanced; got 'turbo'"}


async def test_default_tenant_and_tenant_isolation(app: App) -> None:
    await ingest(app, turn("secret launch code is tangerine", tenant="acme"))
    await ingest(app, turn("tangerine is my favourite fruit"))
    await app.runtime.wait_caught_up()
    acme = await recall(app, "tangerine", tenant="acme")
    default = await recall(app, "tangerine")
    assert [i["content"] for i in acme] == ["secret launch code is tangerine"]
    assert [i["content"] for i in default] == ["tangerine is my favourite fruit"]


async def test_session_scope(app: App) -> None:
    await ingest(app, turn("we talked about Rome", session="a"), turn("we talked about Oslo", session="b"))
    await app.runtime.wait_caught_up()
    assert {i["session"] for i in await recall(app, "which city", session="b")} == {"b"}


async def test_idempotency_key_makes_a_retry_a_no_op(app: App) -> None:
    headers = {"Idempotency-Key": "batch-42"}
    first = await app.client.post("/v1/interactions", json={"interactions": [turn("once")]}, headers=headers)
    again = await app.client.post("/v1/interactions", json={"interactions": [turn("once")]}, headers=headers)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["events"] == first.json()["events"] and again.json()["replayed"] is True
    other = await app.client.post("/v1/interactions", json={"interactions": [turn("different")]}, headers=headers)
    assert other.status_code == 409
    assert len(await app.runtime.log.read(INTERACTIONS)) == 1


async def test_close_session_appends_session_closed(app: App) -> None:
    r = await app.client.post("/v1/sessions/s1:close", json={"user": "ann"})
    assert r.status_code == 201
    [record] = await app.runtime.log.read(INTERACTIONS)
    assert record.event is not None and record.event.type == "SessionClosed"
    assert r.json()["events"][0]["offset"] == record.offset


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        ({"interactions": [turn("x", user=5)]}, 422, "interactions.0.user", "string"),
        ({"interactions": [{k: v for k, v in turn("x").items() if k != "user"}]}, 422,
         "interactions.0.user", "required"),
        ({"interactions": [turn("")]}, 422, "interactions.0.content", "at least 1"),
        ({"interactions": [turn("   ")]}, 422, "interactions.0.content", "blank"),
        ({"interactions": [turn("x", role="robot")]}, 422, "interactions.0.role", "user"),
        ({"interactions": [turn("x", occurred_at="2024-05-01T10:00:00")]}, 422,
         "interactions.0.occurred_at", "timezone"),
        ({"interactions": [turn("x", surprise=1)]}, 422, "interactions.0.surprise", "not permitted"),
        ({"interactions": []}, 422, "interactions", "at least 1"),
        ({"interactions": [turn("x")] * 51}, 422, "interactions", "at most 50"),
        ({"interactions": [turn("x" * 2001)]}, 422, "interactions.0.content", "at most 2000"),
    ],
)
async def test_malformed_writes_are_rejected_and_nothing_is_appended(
    app: App, body: dict[str, Any], status: int, field: str, words: str
) -> None:
    await ingest(app, turn("valid", session="ok"), turn("valid too", session="ok"))
    r = await app.client.post("/v1/interactions", json=body)
    assert r.status_code == status, r.text
    problems = r.json()["error"]["problems"]
    assert any(p["field"] == field and words in p["message"] for p in problems), problems
    assert len(await app.runtime.log.read(INTERACTIONS)) == 2


async def test_invalid_json_and_oversized_body(app: App, settings: Any) -> None:
    r = await app.client.post("/v1/interactions", content=b'{"interactions": [', headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]["message"]
    big = json.dumps({"interactions": [turn("y" * 1000)] * 10_000}).encode()
    r = await app.client.post("/v1/interactions", content=big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"
    assert await app.runtime.log.read(INTERACTIONS) == []


@pytest.mark.parametrize(
    ("body", "field"),
    [({"user": "ann"}, "query"), ({"query": "x", "k": 0}, "k"), ({"query": "x", "k": 1000}, "k"),
     ({"query": "   "}, "query"), ({"query": "x", "types": ["nope"]}, "types.0")],
)
async def test_malformed_recall_says_which_field(app: App, body: dict[str, Any], field: str) -> None:
    r = await app.client.post("/v1/recall", json=body)
    assert r.status_code == 422
    assert field in [p["field"] for p in r.json()["error"]["problems"]]


async def test_healthz_and_status(app: App) -> None:
    assert (await app.client.get("/healthz")).json() == {"status": "ok"}
    await ingest(app, turn("hello"))
    await app.runtime.wait_caught_up()
    status = (await app.client.get("/v1/status")).json()
    assert status["caught_up"] is True
    assert status["consumers"]["embed"]["processed"] == 1
