"""Erasure in the embedded mode: after DELETE /v1/users/{user}, no byte of any file in the
data directory (SQLite files with their -wal and -shm, the Qdrant Edge shard, the key
vault, the embedding cache) holds the user's plaintext, the other user's memories are
intact and recallable, and a replay of the log does not bring the user back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from hindsight_common.events import MemoryExtracted
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_common.telemetry.metrics import ERASED_SKIPPED
from hindsight_services.embedded import drop_projections
from tests.integration.conftest import App, running

# Lower case and cut before any stem: the text index keeps porter-stemmed, folded terms.
ANN_MARK, BOB_MARK = b"zorblax", b"quimbrook"


def turn(user: str, content: str, n: int) -> dict[str, Any]:
    return {"user": user, "session": "s1", "speaker": user.title(), "role": "user", "content": content,
            "occurred_at": f"2024-05-01T10:{n:02d}:00Z", "external_id": f"{user}-{n}"}


def files_holding(folder: Path, mark: bytes) -> list[str]:
    """Every file under ``folder`` whose raw bytes hold ``mark``, case folded."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and mark in p.read_bytes().lower())


async def recall(app: App, user: str, query: str) -> list[dict[str, Any]]:
    r = await app.client.post("/v1/recall", json={"user": user, "query": query, "k": 10})
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


async def learned(app: App, users: set[str]) -> None:
    for _ in range(400):
        seen = {r.event.user for r in await app.runtime.log.read(MEMORIES) if isinstance(r.event, MemoryExtracted)}
        if users <= seen:
            await app.runtime.wait_caught_up()
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"reflection learned nothing for {users - seen}")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


async def test_erasing_a_user_leaves_no_plaintext_in_the_data_directory(
        settings: Settings, embedder: Embedder, reranker: Reranker) -> None:
    data = settings.data_dir
    async with running(settings, embedder, reranker) as app:
        r = await app.client.post("/v1/interactions", json={"interactions": [
            turn("ann", "Hi! I love hiking around Zorblaxvale.", 1),
            turn("ann", "My sister Zorblaxia lives in Porto.", 2),
            turn("bob", "I love sailing near Quimbrook.", 3)]})
        assert r.status_code == 201, r.text
        for user in ("ann", "bob"):
            assert (await app.client.post("/v1/sessions/s1:close", json={"user": user})).status_code == 201
        await learned(app, {"ann", "bob"})
        assert files_holding(data, ANN_MARK), "the scan must see the projections' plaintext"
        assert files_holding(data / "log", ANN_MARK) == []  # sealed before it reached the log
        assert any("Zorblax" in i["content"] for i in await recall(app, "ann", "Where does Ann hike? Zorblaxvale"))

        cache, model = app.runtime.embedding_cache, app.runtime.embedder.model_id
        assert cache is not None
        cached_before = await cache.count(model)
        r = await app.client.delete("/v1/users/ann", params={"tenant": "default", "reason": "request 42"})
        assert r.status_code == 202, r.text
        body = r.json()
        assert body["keys_destroyed"] == 1 and body["user"] == "ann" and body["status"] == "keys_destroyed"
        assert "SubjectErased" in body["next"]
        await app.runtime.wait_caught_up()

        assert files_holding(data, ANN_MARK) == []
        assert await recall(app, "ann", "Where does Ann hike? Zorblaxvale") == []
        r = await app.client.get("/v1/memories", params={"user": "ann"})
        assert r.status_code == 200 and r.json()["items"] == []
        bob = await recall(app, "bob", "Where does Bob sail? Quimbrook")
        assert any("Quimbrook" in i["content"] and i["type"] == "semantic" for i in bob)
        assert any("Quimbrook" in i["content"] and i["type"] == "episodic" for i in bob)
        assert files_holding(data, BOB_MARK)  # the other user's data is where it was
        assert 0 < await cache.count(model) < cached_before  # ann's vectors left the cache, bob's stayed

        again = await app.client.delete("/v1/users/ann")  # a retry: nothing left to destroy
        assert again.status_code == 202 and again.json()["keys_destroyed"] == 0

    skipped_before = ERASED_SKIPPED.labels("log")._value.get()
    drop_projections(settings)
    async with running(settings, embedder, reranker) as app:
        await app.runtime.wait_caught_up()
        assert ERASED_SKIPPED.labels("log")._value.get() > skipped_before  # the replay skipped ann
        assert files_holding(data, ANN_MARK) == []
        assert await recall(app, "ann", "Where does Ann hike? Zorblaxvale") == []
        assert any("Quimbrook" in i["content"] for i in await recall(app, "bob", "Where does Bob sail? Quimbrook"))

        # Ann may come back as a new subject: her new content gets a new key and is served.
        r = await app.client.post("/v1/interactions", json={"interactions": [turn("ann", "I now live in Oslo.", 9)]})
        assert r.status_code == 201
        await app.runtime.wait_caught_up()
        assert [i["content"] for i in await recall(app, "ann", "Where does Ann live? Oslo")] == ["I now live in Oslo."]


async def test_bad_erasure_requests_get_a_clear_error(app: App) -> None:
    r = await app.client.delete("/v1/users/" + "x" * 201)
    assert r.status_code == 422
    assert set(r.json()["error"]) == {"code", "message", "problems"}
