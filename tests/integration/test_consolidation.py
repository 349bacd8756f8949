"""Consolidation end to end in one process, through HTTP with the offline reflector: a
changed preference supersedes the old one (recall and browsing show only the new value,
the history shows both), near-duplicates merge, repeats reinforce visibly, and a
restart or a rebuild from the log gives the same live, superseded and merged sets."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest

from hindsight_client import AsyncHindsight
from hindsight_common.events import MemoriesMerged, MemoryConflicted, MemoryExtracted, MemorySuperseded
from hindsight_common.ports.embedder import Embedder
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.embedded import drop_projections
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import build_server
from hindsight_services.ingest.handler import Ingest
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from tests.integration.conftest import App, running
from tests.support.auth import open_auth, store_keys
from tests.integration.test_grpc import TIMEOUT, as_json, normal, rpc_error

TOKEN, ADMIN_KEY = new_key("default", ["read", "write", "admin"], now())
ADMIN = {"authorization": f"Bearer {TOKEN}"}
ASK = {"user": "ann", "query": "Which language does Ann prefer for scripting?", "types": ["semantic"]}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    settings = Settings(data_dir=tmp_path / "data")
    store_keys(settings.credentials_path, ADMIN_KEY)  # auth is off; admin options still need a key
    return settings


async def say(app: App, session: str, content: str, day: int) -> None:
    """One turn from Ann in its own session, then the session closes (reflection runs)
    and every consumer, consolidate included, catches up."""
    before = len(await app.runtime.log.read(MEMORIES))
    turn = {"user": "ann", "session": session, "speaker": "Ann", "content": content,
            "occurred_at": f"2024-05-{day:02d}T10:00:00Z", "external_id": f"{session}-1"}
    assert (await app.client.post("/v1/interactions", json={"interactions": [turn]})).status_code == 201
    assert (await app.client.post(f"/v1/sessions/{session}:close", json={"user": "ann"})).status_code == 201
    for _ in range(400):
        if len(await app.runtime.log.read(MEMORIES)) > before:
            break
        await asyncio.sleep(0.05)
    await app.runtime.wait_caught_up()


async def events(app: App) -> list[Any]:
    return [r.event for r in await app.runtime.log.read(MEMORIES)]


async def recalled(app: App, body: dict[str, Any] = ASK, **kw: Any) -> list[dict[str, Any]]:
    r = await app.client.post("/v1/recall", json=body, **kw)
    assert r.status_code == 200, r.text
    return list(r.json()["items"])


async def change_of_mind(app: App) -> tuple[str, str]:
    await say(app, "s1", "I prefer Python for scripting.", 1)
    await say(app, "s2", "Actually, I now prefer Go for scripting.", 20)
    python, go = [e for e in await events(app) if isinstance(e, MemoryExtracted)]
    assert "Python" in python.content and "Go" in go.content
    return str(python.memory_id), str(go.memory_id)


async def test_a_changed_preference_leaves_only_the_new_value_and_keeps_the_history(app: App) -> None:
    python, go = await change_of_mind(app)
    [decision] = [e for e in await events(app) if isinstance(e, MemorySuperseded)]
    assert (str(decision.old_id), str(decision.new_id)) == (python, go) and "preference." in decision.reason

    items = await recalled(app)
    assert [i["id"] for i in items] == [go]
    anything = await recalled(app, {"user": "ann", "query": ASK["query"]})  # turns too, by default
    assert go in [i["id"] for i in anything] and python not in [i["id"] for i in anything]
    assert items[0]["supersedes"] == [python] and items[0]["superseded_by"] is None
    listed = (await app.client.get("/v1/memories", params={"user": "ann"})).json()["items"]
    assert [m["id"] for m in listed] == [go]

    history = await app.client.get(f"/v1/memories/{python}/history")
    assert history.status_code == 200, history.text
    body = history.json()
    assert body["live"] == go
    assert [(v["id"], v["type"]) for v in body["versions"]] == [(python, "superseded"), (go, "semantic")]
    assert body["versions"][0]["superseded_by"] == go and "Python" in body["versions"][0]["content"]
    assert (await app.client.get(f"/v1/memories/{go}/history")).json() == {**body, "memory_id": go}

    # only an admin sees the old value beside the live one, typed by its state
    with_old = await recalled(app, {**ASK, "include": ["superseded"]}, headers=ADMIN)
    assert {(i["id"], i["type"]) for i in with_old} == {(python, "superseded"), (go, "semantic")}
    page = await app.client.get("/v1/memories", params={"user": "ann", "include": "superseded"}, headers=ADMIN)
    assert {m["id"] for m in page.json()["items"]} == {python, go}
    refused = await app.client.post("/v1/recall", json={**ASK, "include": ["superseded"]})
    assert refused.status_code == 403 and refused.json()["error"]["problems"][0]["field"] == "include"
    missing = await app.client.get("/v1/memories/00000000-0000-0000-0000-000000000000/history")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"

    # the SDK reads the same: the live value with what it replaced, and the chain
    transport = httpx.ASGITransport(app=app.application)
    async with AsyncHindsight("http://test", transport=transport, admin_token=TOKEN) as hs:
        [item] = (await hs.recall(ASK["query"], user="ann", types=["semantic"])).items
        assert (item.id, item.supersedes, item.reinforced_count) == (go, (python,), 0)
        chain = await hs.memory_history(python)
        assert chain.live == go and [(v.id, v.type, v.superseded_by) for v in chain.versions] == [
            (python, "superseded", go), (go, "semantic", None)]


async def test_near_duplicates_merge_with_their_provenance(app: App) -> None:
    await say(app, "s1", "Remember that my cat is called Pimento.", 1)
    await say(app, "s2", "I have a cat called Pimento.", 3)
    first, second = [e for e in await events(app) if isinstance(e, MemoryExtracted)]
    # One cat said two ways: the same slot (possession.pet) with different wording and values,
    # so not an exact repeat; merged by the entity and the meaning.
    assert first.key == second.key == "possession.pet" and first.value != second.value
    [merge] = [e for e in await events(app) if isinstance(e, MemoriesMerged)]
    assert (merge.kept_id, merge.merged_ids) == (first.memory_id, (second.memory_id,))
    assert "near-duplicate" in merge.reason

    [cat] = await recalled(app, {"user": "ann", "query": "What is Ann's cat called?", "types": ["semantic"]})
    assert cat["id"] == str(first.memory_id) and cat["merged_from"] == [str(second.memory_id)]
    assert cat["provenance"]["external_ids"] == ["s1-1", "s2-1"]
    assert cat["reinforced_count"] == 1 and cat["last_reinforced_at"] == second.occurred_at.isoformat().replace("+00:00", "Z")
    assert cat["confidence"] == pytest.approx(0.99)
    merged = await app.client.get("/v1/memories", params={"user": "ann", "include": "merged"}, headers=ADMIN)
    assert {(m["id"], m["type"], m["merged_into"]) for m in merged.json()["items"]} == {
        (str(first.memory_id), "semantic", None), (str(second.memory_id), "merged", str(first.memory_id))}


async def test_a_repeated_fact_is_reinforced_visibly(app: App) -> None:
    await say(app, "s1", "I live in Porto.", 1)
    [before] = await recalled(app, {"user": "ann", "query": "Where does Ann live?", "types": ["semantic"]})
    await say(app, "s2", "I live in Porto.", 4)
    [after] = await recalled(app, {"user": "ann", "query": "Where does Ann live?", "types": ["semantic"]})
    assert after["id"] == before["id"]
    assert (before["reinforced_count"], after["reinforced_count"]) == (0, 1)
    assert before["last_reinforced_at"] is None and after["last_reinforced_at"] is not None
    assert after["confidence"] > before["confidence"] and after["importance"] > before["importance"]
    browsed = (await app.client.get("/v1/memories", params={"user": "ann"})).json()["items"]
    assert [(m["id"], m["reinforced_count"]) for m in browsed] == [(after["id"], 1)]


async def test_a_restart_and_a_rebuild_give_the_same_sets(settings: Settings, embedder: Embedder) -> None:
    async with running(settings, embedder) as app:
        python, go = await change_of_mind(app)
        admin_view = await recalled(app, {**ASK, "include": ["superseded"]}, headers=ADMIN)
        decided = [e for e in await events(app) if isinstance(e, MemorySuperseded | MemoriesMerged)]
    assert len(decided) == 1

    # A restart rebuilds consolidate's fold from the log: a third value supersedes the
    # live one (not the one already superseded), and nothing is decided twice.
    async with running(settings, embedder) as app:
        await app.runtime.wait_caught_up()
        assert [e for e in await events(app) if isinstance(e, MemorySuperseded | MemoriesMerged)] == decided
        await say(app, "s3", "Actually, I now prefer Rust for scripting.", 25)
        *_, rust = [e for e in await events(app) if isinstance(e, MemoryExtracted)]
        supersessions = [(str(e.old_id), str(e.new_id)) for e in await events(app) if isinstance(e, MemorySuperseded)]
        assert supersessions == [(python, go), (go, str(rust.memory_id))]
        history = (await app.client.get(f"/v1/memories/{python}/history")).json()
        assert [v["id"] for v in history["versions"]] == [python, go, str(rust.memory_id)]
        live_before = await recalled(app)
        admin_before = await recalled(app, {**ASK, "include": ["superseded"]}, headers=ADMIN)
    assert [i["id"] for i in live_before] == [str(rust.memory_id)]
    assert {i["id"] for i in admin_view} < {i["id"] for i in admin_before}

    drop_projections(settings)
    async with running(settings, embedder) as app:
        await app.runtime.wait_caught_up()
        assert [i["id"] for i in await recalled(app)] == [str(rust.memory_id)]
        again = await recalled(app, {**ASK, "include": ["superseded"]}, headers=ADMIN)
        assert {(i["id"], i["type"], i["superseded_by"]) for i in again} == {
            (i["id"], i["type"], i["superseded_by"]) for i in admin_before}
        assert len([e for e in await events(app) if isinstance(e, MemorySuperseded)]) == 2


async def test_values_that_cannot_be_ordered_are_flagged_for_a_reviewer(app: App) -> None:
    turns = [{"user": "ann", "session": "s1", "speaker": "Ann", "content": content,
              "occurred_at": "2024-05-01T10:00:00Z", "external_id": f"s1-{n}"}
             for n, content in enumerate(["I prefer Python for scripting.", "I prefer Go for scripting."])]
    assert (await app.client.post("/v1/interactions", json={"interactions": turns})).status_code == 201
    assert (await app.client.post("/v1/sessions/s1:close", json={"user": "ann"})).status_code == 201
    for _ in range(400):
        if any(isinstance(e, MemoryConflicted) for e in await events(app)):
            break
        await asyncio.sleep(0.05)
    await app.runtime.wait_caught_up()
    [conflict] = [e for e in await events(app) if isinstance(e, MemoryConflicted)]
    assert conflict.key == "preference.programming_language" and "same time" in conflict.reason
    assert not [e for e in await events(app) if isinstance(e, MemorySuperseded)]  # not guessed
    both = {str(i) for i in conflict.memory_ids}
    assert {i["id"] for i in await recalled(app)} == both  # both stay live
    flagged = await app.client.get("/v1/memories", params={"user": "ann", "tag": "conflicted"})
    assert {m["id"] for m in flagged.json()["items"]} == both


async def test_grpc_gives_the_same_history(app: App) -> None:
    python, go = await change_of_mind(app)
    runtime = app.runtime
    gateway = build_server(lambda: runtime.query, lambda: Ingest(runtime.log, runtime.settings), runtime.settings, 0,
                           auth=open_auth())
    await gateway.start()
    try:
        async with grpc.aio.insecure_channel(gateway.address) as channel:
            stub = pb_grpc.HindsightStub(channel)
            chain = await stub.GetMemoryHistory(pb.GetMemoryRequest(memory_id=python), timeout=TIMEOUT)
            http = (await app.client.get(f"/v1/memories/{python}/history")).json()
            assert chain.live == go and [(v.id, v.type) for v in chain.versions] == [
                (python, "superseded"), (go, "semantic")]
            assert [as_json(v) for v in chain.versions] == normal(http["versions"])
            [item] = (await stub.Recall(pb.RecallRequest(user="ann", query=ASK["query"], types=["semantic"]),
                                        timeout=TIMEOUT)).items
            assert (item.id, list(item.supersedes)) == (go, [python])
            e = await rpc_error(stub.GetMemoryHistory(pb.GetMemoryRequest(memory_id=python, include=["forgotten"]),
                                                      timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.PERMISSION_DENIED
            e = await rpc_error(stub.GetMemoryHistory(pb.GetMemoryRequest(memory_id=str(uuid.uuid4())), timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.NOT_FOUND
    finally:
        await gateway.stop(0)
