"""Pin, unpin, restore and the on-demand forgetting pass over HTTP, on the embedded
gateway (real storage, real models). The CLI's commands: tests/e2e/test_embedded_serve.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hindsight_common.events import MemoryForgotten, MemoryPinned
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from tests.integration.conftest import App, running
from tests.integration.test_memories_api import seed


@pytest.fixture
async def app(tmp_path: Path, embedder: Embedder, reranker: Reranker) -> AsyncIterator[App]:
    # Half of a user's memories per pass at most; no periodic pass (only the on-demand one).
    settings = Settings(data_dir=tmp_path / "data", forget_max_share=0.5, forget_interval_s=0)
    async with running(settings, embedder, reranker) as started:
        yield started


async def seed_days_ago(app: App, days: int) -> None:
    """Ann's hiking preference and her job (a fact), stated ``days`` ago (by the real clock:
    the pass runs at the time of the request)."""
    when = (datetime.now(UTC) - timedelta(days=days)).isoformat()
    turns = [{"user": "ann", "session": "s1", "speaker": "Ann", "content": text, "occurred_at": when}
             for text in ("I love hiking in the Alps.", "I work as a nurse in Leeds.")]
    assert (await app.client.post("/v1/interactions", json={"interactions": turns})).status_code == 201
    await app.client.post("/v1/sessions/s1:close", json={"user": "ann"})
    for _ in range(200):
        if len(await app.runtime.log.read(MEMORIES)) >= 2:
            break
        await asyncio.sleep(0.05)
    await app.runtime.wait_caught_up()


async def ann_memories(app: App) -> dict[str, dict[str, Any]]:
    items = (await app.client.get("/v1/memories", params={"user": "ann"})).json()["items"]
    return {i["kind"]: i for i in items}


async def test_pin_unpin_and_restore(app: App) -> None:
    await seed(app)
    pref = (await ann_memories(app))["preference"]
    assert pref["pinned"] is False
    r = await app.client.post(f"/v1/memories/{pref['id']}:pin", json={"user": "ann", "reason": "matters"})
    assert r.status_code == 202 and r.json()["events"][0]["offset"] > 0
    await app.runtime.wait_caught_up()
    assert (await app.client.get(f"/v1/memories/{pref['id']}")).json()["memory"]["pinned"] is True
    [pinned] = [x.event for x in await app.runtime.log.read(MEMORIES) if isinstance(x.event, MemoryPinned)]
    assert str(pinned.memory_id) == pref["id"] and pinned.reason == "matters"
    await app.client.post(f"/v1/memories/{pref['id']}:unpin", json={"user": "ann"})
    await app.runtime.wait_caught_up()
    assert (await app.client.get(f"/v1/memories/{pref['id']}")).json()["memory"]["pinned"] is False

    query = {"user": "ann", "query": "What does Ann love doing outdoors?", "types": ["semantic"]}
    await app.client.post(f"/v1/memories/{pref['id']}:forget", json={"user": "ann"})
    await app.runtime.wait_caught_up()
    assert pref["id"] not in [i["id"] for i in (await app.client.post("/v1/recall", json=query)).json()["items"]]
    r = await app.client.post(f"/v1/memories/{pref['id']}:restore", json={"user": "ann"})
    assert r.status_code == 202
    await app.runtime.wait_caught_up()
    assert pref["id"] in [i["id"] for i in (await app.client.post("/v1/recall", json=query)).json()["items"]]
    assert (await app.client.get(f"/v1/memories/{pref['id']}")).status_code == 200

    # A TTL: once it has passed, recall leaves the memory out; cleared, it is back.
    r = await app.client.post(f"/v1/memories/{pref['id']}:expire", json={"user": "ann", "ttl_s": 0.001})
    assert r.status_code == 202
    await app.runtime.wait_caught_up()
    assert (await app.client.get(f"/v1/memories/{pref['id']}")).json()["memory"]["expires_at"] is not None
    assert pref["id"] not in [i["id"] for i in (await app.client.post("/v1/recall", json=query)).json()["items"]]
    await app.client.post(f"/v1/memories/{pref['id']}:expire", json={"user": "ann"})
    await app.runtime.wait_caught_up()
    assert pref["id"] in [i["id"] for i in (await app.client.post("/v1/recall", json=query)).json()["items"]]
    both = await app.client.post(f"/v1/memories/{pref['id']}:expire",
                                 json={"user": "ann", "ttl_s": 5, "expires_at": "2030-01-01T00:00:00Z"})
    assert both.status_code == 422 and both.json()["error"]["problems"][0]["field"] == "ttl_s"

    bad = await app.client.post("/v1/memories/not-a-uuid:pin", json={"user": "ann"})
    assert bad.status_code == 422 and bad.json()["error"]["problems"][0]["field"] == "memory_id"
    missing_user = await app.client.post(f"/v1/memories/{pref['id']}:restore", json={})
    assert missing_user.status_code == 422 and missing_user.json()["error"]["problems"][0]["field"] == "user"


async def test_a_pass_forgets_the_old_unused_fact_never_the_pinned_and_dry_runs_change_nothing(app: App) -> None:
    # 400 idle days: a fact (0.9, half-life 135 days) is down to 0.13, below the 0.2
    # threshold; a preference (1.0, half-life 300 days) still at 0.40.
    await seed_days_ago(app, 400)
    before = await ann_memories(app)
    dry = (await app.client.post("/v1/consolidate", json={"user": "ann", "dry_run": True})).json()
    # The fact fades long before the preference; half of two memories is one.
    assert dry["dry_run"] and dry["live"] == 2 and dry["events"] == []
    assert [f["memory_id"] for f in dry["forgotten"]] == [before["fact"]["id"]]
    assert "importance" in dry["forgotten"][0]["reason"]
    await app.runtime.wait_caught_up()
    assert (await ann_memories(app)).keys() == {"preference", "fact"}  # nothing forgotten

    await app.client.post(f"/v1/memories/{before['fact']['id']}:pin", json={"user": "ann"})
    pinned_dry = (await app.client.post("/v1/consolidate", json={"user": "ann", "dry_run": True})).json()
    assert pinned_dry["forgotten"] == []  # the preference is still important enough
    await app.client.post(f"/v1/memories/{before['fact']['id']}:unpin", json={"user": "ann"})

    done = (await app.client.post("/v1/consolidate", json={"user": "ann"})).json()
    assert not done["dry_run"] and [f["memory_id"] for f in done["forgotten"]] == [before["fact"]["id"]]
    assert len(done["events"]) == 1
    await app.runtime.wait_caught_up()
    assert (await ann_memories(app)).keys() == {"preference"}
    [event] = [x.event for x in await app.runtime.log.read(MEMORIES) if isinstance(x.event, MemoryForgotten)]
    assert event.forgotten_by == "consolidate" and event.reason == done["forgotten"][0]["reason"]
    again = (await app.client.post("/v1/consolidate", json={"user": "ann"})).json()
    assert again["live"] == 1 and again["forgotten"] == []  # half of one memory is none: the guard
    bad = await app.client.post("/v1/consolidate", json={"dry_run": True})
    assert bad.status_code == 422 and bad.json()["error"]["problems"][0]["field"] == "user"
    lax = await app.client.post("/v1/consolidate", json={"user": "ann", "dry_run": 0})  # JSON booleans only
    assert lax.status_code == 422 and lax.json()["error"]["problems"][0]["field"] == "dry_run"
