"""Online rebuild of the embedded projections while the server serves (real HTTP app,
real bge-small-en, Qdrant Edge, SQLite FTS5 and graph): ``POST /v1/admin/rebuild``
fills new versions beside the live ones, swaps them in and drains, while a client
recalls in a loop and a writer keeps ingesting.

N interactions are ingested first: 300 here (CI), ``HINDSIGHT_REBUILD_E2E_N=5000`` in
``make rebuild-e2e``.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from typing import Any

import pytest

from hindsight_common.bench import synthetic
from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from hindsight_services import cli
from hindsight_services.bench_replay import CountingEmbedder
from hindsight_services.rebuild.embedded import RebuildRequest
from hindsight_services.rebuild.records import read_rebuild, read_versions
from tests.integration.conftest import App, running

N = int(os.environ.get("HINDSIGHT_REBUILD_E2E_N", "300"))
QUERIES = ("Who adopted a rescue dog?", "What did Ann bake?", "Which city did Chen visit?", "tea over coffee")


def _turns(n: int) -> list[dict[str, Any]]:
    return [{"user": t.user, "session": t.session, "speaker": t.speaker, "role": "user", "content": t.content,
             "occurred_at": t.occurred_at.isoformat()} for t in synthetic.turns(n, users=5)]


async def _ingest(app: App, turns: Sequence[dict[str, Any]]) -> list[str]:
    ids: list[str] = []
    for start in range(0, len(turns), 50):
        r = await app.client.post("/v1/interactions", json={"interactions": list(turns[start:start + 50])})
        assert r.status_code == 201, r.text
        ids += [e["event_id"] for e in r.json()["events"]]
    return ids


async def _answers(app: App) -> list[list[str]]:
    """What recall returns for each query, as the sorted contents of its items: turns
    with the same text tie exactly (the synthetic corpus repeats some), and which of two
    tied copies comes first is not an answer that can differ."""
    out = []
    for q in QUERIES:
        r = await app.client.post("/v1/recall", json={"user": "user-1", "query": q, "k": 5, "preset": "fast"})
        assert r.status_code == 200, r.text
        out.append(sorted(i["content"] for i in r.json()["items"]))
    return out


class Traffic:
    """A client recalling in a loop and a writer ingesting (another user), until stopped."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.stop = asyncio.Event()
        self.recalls = 0
        self.failures: list[str] = []
        self.written: list[str] = []

    async def recall_loop(self) -> None:
        while not self.stop.is_set():
            for q in QUERIES:
                r = await self.app.client.post("/v1/recall", json={"user": "user-1", "query": q, "k": 5, "preset": "fast"})
                if r.status_code != 200 or not r.json()["items"]:
                    self.failures.append(f"{r.status_code} {r.text[:200]}")
                self.recalls += 1

    async def write_loop(self) -> None:
        n = 0
        while not self.stop.is_set():
            turn = {"user": "writer", "session": "w", "speaker": "Wren", "role": "user",
                    "content": f"Writer note number {n} about the harbour", "occurred_at": "2024-06-01T10:00:00Z"}
            r = await self.app.client.post("/v1/interactions", json={"interactions": [turn]})
            assert r.status_code == 201, r.text
            self.written.append(r.json()["events"][0]["event_id"])
            n += 1
            await asyncio.sleep(0.05)

    async def run_while(self, work: Any) -> Any:
        tasks = [asyncio.create_task(self.recall_loop()), asyncio.create_task(self.write_loop())]
        try:
            return await work
        finally:
            self.stop.set()
            await asyncio.gather(*tasks)


async def _admin(app: App) -> dict[str, str]:
    """The rebuild endpoints need the admin scope (erasing the writer, erase), with auth off too."""
    key, record = new_key("default", ["read", "admin", "erase"], now())
    await app.application.state.auth.store.add(record)
    return {"authorization": f"Bearer {key}"}


async def _wait_rebuilt(app: App, admin: dict[str, str]) -> dict[str, Any]:
    for _ in range(6000):
        r = await app.client.get("/v1/admin/rebuild", headers=admin)
        assert r.status_code == 200, r.text
        state = r.json()
        if not state["running"]:
            assert "error" not in state, state
            result: dict[str, Any] = state["result"]
            return result
        await asyncio.sleep(0.1)
    raise AssertionError("the rebuild did not finish")


async def _verify(settings: Settings, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    code = await asyncio.to_thread(cli.main, ["verify", "--data-dir", str(settings.data_dir), "--json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0, report
    return report


async def test_rebuild_all_while_serving_loses_nothing_and_answers_the_same(
    settings: Settings, embedder: Embedder, capsys: pytest.CaptureFixture[str],
) -> None:
    settings = settings.model_copy(update={"rebuild_batch": 100})
    async with running(settings, embedder) as app:
        acked = await _ingest(app, _turns(N))
        await app.runtime.wait_caught_up(timeout_s=600)
        before = await _answers(app)

        assert (await app.client.post("/v1/admin/rebuild", json={"projection": "all"})).status_code == 403
        admin = await _admin(app)
        bad = await app.client.post("/v1/admin/rebuild", json={"projection": "bm25"}, headers=admin)
        assert bad.status_code == 422 and bad.json()["error"]["problems"][0]["field"] == "projection"
        r = await app.client.post("/v1/admin/rebuild", json={"projection": "all", "drop_old": True}, headers=admin)
        assert r.status_code == 202, r.text
        again = await app.client.post("/v1/admin/rebuild", json={"projection": "all"}, headers=admin)
        assert again.status_code == 409 and again.json()["error"]["code"] == "rebuild_running"

        traffic = Traffic(app)
        result = await traffic.run_while(_wait_rebuilt(app, admin))
        assert result["rebuilt"] == ["vector", "text", "graph"] and result["versions"] == {
            "vector": 2, "text": 2, "graph": 2}
        assert result["applied"] >= N and not result["resumed"]
        assert traffic.recalls > 0 and traffic.failures == []
        assert traffic.written  # the writer kept writing during the rebuild

        await app.runtime.wait_caught_up(timeout_s=600)
        for store in (app.runtime.vectors, app.runtime.text, app.runtime.graph):
            held = set(await store.ids("default"))
            assert set(acked) <= held and set(traffic.written) <= held
        # The writer's notes count in BM25's corpus statistics (every user's documents do),
        # so near ties among user-1's turns could turn; with the writer erased the corpus is
        # the one the answers were taken on.
        r = await app.client.delete("/v1/users/writer", params={"reason": "test"}, headers=admin)
        assert r.status_code == 202, r.text
        await app.runtime.wait_caught_up(timeout_s=600)
        assert await _answers(app) == before
    assert read_versions(settings).live == {"vector": 2, "text": 2, "graph": 2}
    assert read_rebuild(settings) is None
    assert sorted(p.name for p in settings.projections_dir.iterdir() if p.is_dir()) == [
        "graph.v2", "text.v2", "vectors.v2"]  # --drop-old removed version 1
    report = await _verify(settings, capsys)
    assert all(p["equal"] and p["actual"] >= N for p in report["projections"])

    # A restart opens the new versions: same answers.
    async with running(settings, embedder) as app:
        assert await _answers(app) == before


class Renamed(Embedder):
    """bge-small-en under another model id: the only ONNX embedder installed (minilm needs
    PyTorch), so "another embedder" here is the same network recorded under another name.
    What is tested is the switch: every vector of the new version made (and recorded) by
    the new model, none taken from the old model's cache, recall served throughout."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = CountingEmbedder(inner)

    @property
    def model_id(self) -> str:
        return "renamed/" + self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed(texts)

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_queries(texts)


async def test_re_embedding_while_serving_switches_the_model_and_recall_works_throughout(
    settings: Settings, embedder: Embedder,
) -> None:
    renamed = Renamed(embedder)
    async with running(settings, embedder) as app:
        await _ingest(app, _turns(40))
        await app.runtime.wait_caught_up(timeout_s=300)
        before = await _answers(app)
        assert app.runtime.rebuilds.start(RebuildRequest(("vector",)), embedder=renamed)
        traffic = Traffic(app)
        await traffic.run_while(_wait_rebuilt(app, await _admin(app)))
        assert traffic.recalls > 0 and traffic.failures == []
        await app.runtime.wait_caught_up(timeout_s=300)

        assert app.runtime.embedder.model_id == renamed.model_id  # queries use the new model
        assert await app.runtime.vectors.other_models(renamed.model_id) == (0, [])
        held = set(await app.runtime.vectors.ids("default"))
        assert held == set(await app.runtime.text.ids("default"))  # every document, memories included
        assert set(traffic.written) <= held
        distinct = {t["content"] for t in _turns(40)}
        assert len(set(renamed.inner.texts)) >= len(distinct)  # nothing came from the old model's cache
        assert await _answers(app) == before  # the same network: the same answers
    assert read_versions(settings).live["vector"] == 2 and read_versions(settings).live["text"] == 1
