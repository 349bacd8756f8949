"""Browsing memories, one memory with its provenance, and forgetting."""

from __future__ import annotations

import asyncio
from typing import Any

from hindsight_common.streams import MEMORIES
from tests.integration.conftest import App


async def seed(app: App) -> list[dict[str, Any]]:
    turns = [
        {"user": "ann", "session": "s1", "speaker": "Ann", "content": "I love hiking in the Alps.",
         "occurred_at": "2024-05-01T10:00:00Z", "external_id": "t1"},
        {"user": "ann", "session": "s1", "speaker": "Ann", "content": "I work as a nurse in Leeds.",
         "occurred_at": "2024-05-01T10:01:00Z", "external_id": "t2"},
        {"user": "bob", "session": "s9", "speaker": "Bob", "content": "I hate mushrooms.",
         "occurred_at": "2024-05-01T10:02:00Z", "external_id": "t3"},
    ]
    r = await app.client.post("/v1/interactions", json={"interactions": turns})
    assert r.status_code == 201
    for user, session in (("ann", "s1"), ("bob", "s9")):
        await app.client.post(f"/v1/sessions/{session}:close", json={"user": user})
    for _ in range(200):
        if len(await app.runtime.log.read(MEMORIES)) >= 3:
            break
        await asyncio.sleep(0.05)
    await app.runtime.wait_caught_up()
    return list(r.json()["events"])


async def test_list_filter_and_page(app: App) -> None:
    await seed(app)
    r = await app.client.get("/v1/memories", params={"user": "ann"})
    items = r.json()["items"]
    assert {i["kind"] for i in items} == {"preference", "fact"} and all(i["user"] == "ann" for i in items)
    prefs = (await app.client.get("/v1/memories", params={"user": "ann", "kind": "preference"})).json()["items"]
    assert [i["kind"] for i in prefs] == ["preference"]
    page = (await app.client.get("/v1/memories", params={"user": "ann", "limit": 1})).json()
    assert len(page["items"]) == 1 and page["next_offset"] == 1
    rest = (await app.client.get("/v1/memories", params={"user": "ann", "limit": 1, "offset": 1})).json()
    assert rest["next_offset"] is None and rest["items"][0]["id"] != page["items"][0]["id"]
    everyone = (await app.client.get("/v1/memories")).json()["items"]
    assert {i["user"] for i in everyone} == {"ann", "bob"}
    turns = (await app.client.get("/v1/memories", params={"type": "episodic", "user": "bob"})).json()["items"]
    assert [t["content"] for t in turns] == ["I hate mushrooms."]
    other = (await app.client.get("/v1/memories", params={"tenant": "elsewhere"})).json()["items"]
    assert other == []


async def test_memory_detail_shows_its_source_turns(app: App) -> None:
    events = await seed(app)
    [pref] = (await app.client.get("/v1/memories", params={"user": "ann", "kind": "preference"})).json()["items"]
    detail = (await app.client.get(f"/v1/memories/{pref['id']}")).json()
    assert detail["memory"]["content"] == pref["content"]
    [source] = detail["sources"]
    assert source["id"] == events[0]["event_id"] and source["content"] == "I love hiking in the Alps."
    assert source["external_id"] == "t1"
    missing = await app.client.get("/v1/memories/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


async def test_forgotten_memories_are_never_recalled(app: App) -> None:
    await seed(app)
    query = {"user": "ann", "query": "What does Ann love doing outdoors?", "types": ["semantic"]}
    before = (await app.client.post("/v1/recall", json=query)).json()["items"]
    target = next(i for i in before if i["kind"] == "preference")
    r = await app.client.post(f"/v1/memories/{target['id']}:forget", json={"user": "ann", "reason": "asked to"})
    assert r.status_code == 202
    await app.runtime.wait_caught_up()
    after = (await app.client.post("/v1/recall", json=query)).json()["items"]
    assert target["id"] not in [i["id"] for i in after]
    assert (await app.client.get(f"/v1/memories/{target['id']}")).status_code == 404
    listed = (await app.client.get("/v1/memories", params={"user": "ann"})).json()["items"]
    assert target["id"] not in [i["id"] for i in listed]
    bad = await app.client.post("/v1/memories/not-a-uuid:forget", json={"user": "ann"})
    assert bad.status_code == 422 and bad.json()["error"]["problems"][0]["field"] == "memory_id"
