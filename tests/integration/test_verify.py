"""``hindsight verify`` on an embedded data directory filled through the real HTTP app
(real bge-small-en, Qdrant Edge, SQLite FTS5 and graph): equal on a fresh index; after
one entry of each store is deleted or altered directly in the store, exit 1 naming what
differs."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import replace
from typing import Any

import pytest

from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Embedded
from hindsight_common.settings import Settings
from hindsight_services import cli
from tests.integration.conftest import running
from tests.integration.test_http_api import ingest, turn
from tests.integration.test_reflection import wait_for_memories


def _turns() -> list[dict[str, Any]]:
    said = ["I adopted a greyhound called Pixel", "Pixel and I walked to Brighton beach",
            "Remember that I prefer tea over coffee", "Caroline visited Paris in May"]
    return [turn(text, session="s1" if n < 3 else "s2", occurred_at=f"2024-05-0{n + 1}T10:00:00Z")
            for n, text in enumerate(said)]


async def _verify(settings: Settings, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = await asyncio.to_thread(cli.main, ["verify", "--data-dir", str(settings.data_dir), "--json"])
    return code, json.loads(capsys.readouterr().out.strip().splitlines()[-1])


async def test_verify_is_equal_on_a_fresh_index_and_names_what_was_altered(
    settings: Settings, embedder: Embedder, capsys: pytest.CaptureFixture[str],
) -> None:
    async with running(settings, embedder) as app:
        out = await ingest(app, *_turns())
        r = await app.client.post("/v1/sessions/s1:close", json={"user": "ann"})
        assert r.status_code < 300, r.text
        await wait_for_memories(app)
        await app.runtime.wait_caught_up()
    ids = [e["event_id"] for e in out["events"]]

    code, report = await _verify(settings, capsys)
    assert code == 0, report
    by_name = {p["projection"]: p for p in report["projections"]}
    assert set(by_name) == {"vector", "text", "graph"}
    for p in by_name.values():
        assert p["equal"] and p["expected"] == p["actual"] >= 5  # 4 turns and at least one memory
        assert p["expected_digest"] == p["actual_digest"]

    # One entry of each store changed behind the projections' back.
    db = sqlite3.connect(settings.text_path)
    with db:
        db.execute("DELETE FROM docs WHERE id=?", (ids[0],))
    db.close()
    db = sqlite3.connect(settings.graph_path)
    with db:
        assert db.execute("DELETE FROM edges WHERE rel='MENTIONS' AND src=?", (ids[3],)).rowcount > 0
    db.close()
    index = QdrantEdgeIndex(settings.vector_dir, embedder.dim)
    try:
        [doc] = await index.get("default", [ids[1]])
        vectors = await index.vectors("default", [ids[1]])
        altered = replace(doc, content="Pixel and I walked to Hove")
        await index.upsert([Embedded(altered, vectors[ids[1]], embedder.model_id)], await index.position())
    finally:
        await index.close()

    code, report = await _verify(settings, capsys)
    assert code == 1
    by_name = {p["projection"]: p for p in report["projections"]}
    assert not report["equal"]
    text, vector, graph = by_name["text"], by_name["vector"], by_name["graph"]
    assert (text["missing"], text["extra"], text["different"]) == (1, 0, 0)
    assert text["examples"]["missing"] == [f"default/{ids[0]}"]
    assert (vector["missing"], vector["extra"], vector["different"]) == (0, 0, 1)
    assert vector["examples"]["different"] == [f"default/{ids[1]}"]
    assert vector["fields_differing"] == ["content"]
    assert (graph["missing"], graph["different"]) == (0, 1)
    assert graph["examples"]["different"] == [f"default/{ids[3]}"]
    assert graph["fields_differing"] == ["entities"]
    assert text["expected_digest"] != text["actual_digest"]

    # The plain-text form says the same for an operator.
    capsys.readouterr()
    assert await asyncio.to_thread(cli.main, ["verify", "--data-dir", str(settings.data_dir),
                                              "--projection", "text"]) == 1
    printed = capsys.readouterr().out
    assert "text: DIFFERENT" in printed and f"missing: 1 (e.g. default/{ids[0]})" in printed

    # After `hindsight replay` the projections are rebuilt and verify is equal again.
    assert await asyncio.to_thread(cli.main, ["replay", "--data-dir", str(settings.data_dir)]) == 0
    code, report = await _verify(settings, capsys)
    assert code == 0, report


def test_verify_refuses_an_unknown_projection(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["verify", "--projection", "vectors"])
    assert "--projection takes vector, text and graph, not vectors" in str(caught.value)
