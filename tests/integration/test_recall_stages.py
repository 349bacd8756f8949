"""Each recall stage through the HTTP API, with the real models: the cross-encoder over
the fused top N, the speaker path and the turn-neighbourhood (``bm25_context``) path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from tests.integration.conftest import App, running
from tests.integration.test_http_api import ingest, recall, turn

CHAT = [
    turn("Did you end up going to the old lighthouse on the coast?", speaker="Bob", external_id="d1"),
    turn("Yes! We went there on Friday with the kids, it was windy.", external_id="d2"),
    turn("I have been learning to bake sourdough bread this spring.", speaker="Bob", external_id="d3"),
    turn("My dog Pixel loves long walks on the beach.", external_id="d4"),
    turn("Dogs are great. Mine is called Biscuit and he is a beagle.", speaker="Bob", external_id="d5"),
    turn("Work has been busy, lots of meetings about the budget.", external_id="d6"),
]


async def _loaded(app: App) -> None:
    await ingest(app, *[{**t, "occurred_at": f"2024-05-01T10:0{i}:00Z"} for i, t in enumerate(CHAT)])
    await app.runtime.wait_caught_up()


def _ids(items: list[dict[str, Any]]) -> list[str]:
    return [i["provenance"]["external_ids"][0] for i in items]


async def test_the_cross_encoder_reorders_the_fused_top(app: App) -> None:
    await _loaded(app)
    items = await recall(app, "What is the name of Bob's dog?", k=6, explain=True)
    assert _ids(items)[0] == "d5"  # the cross-encoder reads "Mine is called Biscuit" as the answer
    ce = {i["provenance"]["external_ids"][0]: i["explain"]["paths"]["cross_encoder"] for i in items}
    assert len(ce) == 6 and sorted(c["rank"] for c in ce.values()) == [1, 2, 3, 4, 5, 6]
    best = min(ce.values(), key=lambda c: c["rank"])
    assert best["score"] == max(c["score"] for c in ce.values()) and ce["d5"] == best
    fast = await recall(app, "What is the name of Bob's dog?", k=6, explain=True, preset="fast")
    assert all("cross_encoder" not in i["explain"]["paths"] for i in fast)


async def test_the_speaker_path_keeps_to_the_person_named(app: App) -> None:
    await _loaded(app)
    items = await recall(app, "What does Bob bake?", k=6, explain=True)
    by_speaker = {i["speaker"] for i in items if "speaker" in i["explain"]["paths"]}
    assert by_speaker == {"Bob"}
    assert _ids(items)[0] == "d3"
    # No person named: no speaker path.
    items = await recall(app, "what gets baked?", k=6, explain=True)
    assert all("speaker" not in i["explain"]["paths"] for i in items)


async def test_a_reply_is_found_through_its_neighbours(app: App) -> None:
    await _loaded(app)
    items = await recall(app, "When was the lighthouse trip?", k=6, explain=True)
    reply = next(i for i in items if i["provenance"]["external_ids"] == ["d2"])
    # "lighthouse" is only in the turn before the reply: BM25 on the reply's own text
    # cannot see it, its neighbourhood can.
    assert "bm25_context" in reply["explain"]["paths"] and "bm25" not in reply["explain"]["paths"]
    assert _ids(items).index("d2") <= 1


async def test_no_reranker_configured_runs_without_the_stage(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data", reranker="none")
    async with running(settings, embedder) as app:
        await _loaded(app)
        items = await recall(app, "What is the name of Bob's dog?", k=6, explain=True)
        assert items and all("cross_encoder" not in i["explain"]["paths"] for i in items)


async def test_the_reranker_fixture_is_the_onnx_cross_encoder(reranker: Reranker) -> None:
    assert reranker.model_id.startswith("cross-encoder/ms-marco-MiniLM-L-12-v2@int8-onnx")
