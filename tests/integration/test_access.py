"""Access frequency end to end in one process: recall notes what it returned, the
recorder appends MemoryAccessed, consolidate counts it, rerank reads it back, and the
counts are rebuilt from the log."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from hindsight_common.ports.embedder import Embedder
from hindsight_common.events import MemoryAccessed
from hindsight_common.ports.projection import Document
from hindsight_common.recall.rerank import factors
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.embedded import drop_projections
from tests.integration.conftest import App, running


def expected_factor(count: int) -> float:
    doc = Document(id="x", tenant="t", user="u", session="s", type="episodic", speaker="", role="user",
                   content="", occurred_at=datetime.now(UTC))
    return factors(doc, doc.occurred_at, 365.0, count).access


async def recall(app: App, **over: Any) -> list[dict[str, Any]]:
    body = {"user": "ann", "query": "What is the name of Ann's dog?", "k": 3, "explain": True, **over}
    r = await app.client.post("/v1/recall", json=body)
    assert r.status_code == 200, r.text
    return list(r.json()["items"])


async def counted(app: App) -> None:
    """Wait until the recorder flushed and every consumer (consolidate too) caught up."""
    for _ in range(200):
        if app.runtime.access_recorder.buffered == 0:
            break
        await asyncio.sleep(0.02)
    assert app.runtime.access_recorder.buffered == 0
    await app.runtime.wait_caught_up(timeout_s=20)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", access_flush_s=0.05)


async def test_recall_counts_accesses_that_rerank_reads_back_and_a_rebuild_keeps(
    settings: Settings, embedder: Embedder
) -> None:
    async with running(settings, embedder) as app:
        r = await app.client.post("/v1/interactions", json={"interactions": [
            {"user": "ann", "session": "s1", "speaker": "Ann", "content": content,
             "occurred_at": "2024-05-01T10:00:00Z"}
            for content in ("I adopted a greyhound called Pixel", "The weather was grey and rainy")]})
        assert r.status_code == 201, r.text
        await app.runtime.wait_caught_up()

        [top, *_] = await recall(app)
        assert top["content"] == "I adopted a greyhound called Pixel"
        assert top["explain"]["factors"]["access"] == pytest.approx(expected_factor(0))
        await recall(app)
        await recall(app, preset="fast")  # every preset's results count, weighed or not
        await counted(app)
        assert await app.runtime.access_counts.get("default", [top["id"]]) == {top["id"]: 3}
        [again, *_] = await recall(app)
        assert again["id"] == top["id"]
        assert again["explain"]["factors"]["access"] == pytest.approx(expected_factor(3))
        assert again["explain"]["factors"]["access"] > top["explain"]["factors"]["access"]

        # The projections moved past the MemoryAccessed records: /v1/status can say caught up.
        await counted(app)
        status = (await app.client.get("/v1/status")).json()
        assert status["caught_up"] is True
        head = status["log"][f"{MEMORIES}#0"]
        assert all(c["position"][f"{MEMORIES}#0"] == head for c in (
            status["consumers"]["embed"], status["consumers"]["project"], status["consumers"]["consolidate"]))
        events = [r.event for r in await app.runtime.log.read(MEMORIES)]
        assert events and all(isinstance(e, MemoryAccessed) for e in events)
        one_more = [r for r in await recall(app) if r["id"] == top["id"]]
        assert one_more  # noted; stopping flushes it to the log (count 5 on the log)

    # Everything derived is rebuilt from the log: projections and access counts alike.
    drop_projections(settings)
    for path in settings.access_counts_path.parent.glob(f"{settings.access_counts_path.name}*"):
        path.unlink()  # the file and its WAL
    async with running(settings, embedder) as app:
        await app.runtime.wait_caught_up(timeout_s=30)
        assert await app.runtime.access_counts.get("default", [top["id"]]) == {top["id"]: 5}
        [rebuilt, *_] = await recall(app)
        assert rebuilt["id"] == top["id"]
        assert rebuilt["explain"]["factors"]["access"] == pytest.approx(expected_factor(5))
