"""The embedding cache in embedded mode, with the real bge-small-en model: a replay with
an unchanged model embeds nothing; a data directory whose vectors another embedder made
is refused at start with what to run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.adapters.sqlite_embedding_cache import SqliteEmbeddingCache
from hindsight_common.embedder_check import EmbedderMismatch
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import Embedded
from hindsight_common.settings import Settings
from hindsight_services import cli
from hindsight_services.bench_replay import CountingEmbedder
from hindsight_services.embedded import EmbeddedRuntime, drop_projections
from tests.integration.conftest import running
from tests.integration.test_http_api import ingest, turn

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"  # what adapters/minilm.py records
TURNS = ("I adopted a greyhound called Pixel", "Pixel likes the beach", "We went to Brighton on Sunday")


async def _stored(runtime: EmbeddedRuntime, tenant: str = "default") -> dict[str, list[float]]:
    ids = await runtime.vectors.ids(tenant)
    return await runtime.vectors.vectors(tenant, ids)


async def _filled(settings: Settings, embedder: Embedder) -> tuple[CountingEmbedder, dict[str, list[float]]]:
    counting = CountingEmbedder(embedder)
    async with running(settings, counting) as app:
        await ingest(app, *(turn(t) for t in TURNS))
        await app.runtime.wait_caught_up()
        return counting, await _stored(app.runtime)


async def test_a_replay_with_a_warm_cache_embeds_nothing(settings: Settings, embedder: Embedder) -> None:
    first, before = await _filled(settings, embedder)
    assert len(before) == 3
    assert sum(t != "warm up" for t in first.texts) == 3  # the first time, each turn is embedded

    drop_projections(settings)  # what `hindsight replay` does before it rebuilds
    again = CountingEmbedder(embedder)
    runtime = EmbeddedRuntime(settings, again)
    await runtime.start()
    try:
        await runtime.wait_caught_up()
        after = await _stored(runtime)
    finally:
        await runtime.stop()
    assert again.texts == ["warm up"]  # the start-up warm-up only: no document embedded
    assert after == before  # the same vectors, bit for bit, from the cache


async def test_a_new_text_is_embedded_once_and_cached(settings: Settings, embedder: Embedder) -> None:
    counting = CountingEmbedder(embedder)
    async with running(settings, counting) as app:
        await ingest(app, turn("The same words"), turn("The same words", session="s2"))
        await app.runtime.wait_caught_up()
    # Two documents with the same speaker and text: one model run, one cache entry.
    assert sum(t != "warm up" for t in counting.texts) == 1
    cache = SqliteEmbeddingCache(settings.embedding_cache_path)
    try:
        assert await cache.count(embedder.model_id) == 1
    finally:
        await cache.close()


async def test_the_cache_can_be_turned_off(settings: Settings, embedder: Embedder) -> None:
    off = settings.model_copy(update={"embedding_cache": False})
    await _filled(off, embedder)
    drop_projections(off)
    again, _ = await _filled(off, embedder)
    assert sum(t != "warm up" for t in again.texts) == 6  # the old three embedded again, and three new
    assert not off.embedding_cache_path.exists()


async def test_a_data_dir_of_another_embedder_is_refused_with_what_to_run(
    settings: Settings, embedder: Embedder, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    await _filled(settings, embedder)
    index = QdrantEdgeIndex(settings.vector_dir, embedder.dim)
    try:
        ids = await index.ids("default")
        docs = await index.get("default", ids)
        vectors = await index.vectors("default", ids)
        await index.upsert([Embedded(d, vectors[d.id], MINILM_ID) for d in docs[:2]], await index.position())
    finally:
        await index.close()

    runtime = EmbeddedRuntime(settings, embedder)
    with pytest.raises(EmbedderMismatch) as caught:
        await runtime.start()
    message = str(caught.value)
    assert f"holds 2 vectors made with another embedder ('{MINILM_ID}')" in message
    assert f"`hindsight replay --data-dir {settings.data_dir}`" in message
    assert embedder.model_id in message

    # `hindsight serve` on it: exit code 2 and the same message, before any server starts.
    monkeypatch.setenv("HINDSIGHT_PORT", "1")  # never bound: the check comes first
    assert await _main_in_thread(["serve", "--data-dir", str(settings.data_dir)]) == 2
    assert "hindsight replay --data-dir" in capsys.readouterr().err

    # What it says to run fixes it: replay rebuilds with the configured embedder.
    assert await _main_in_thread(["replay", "--data-dir", str(settings.data_dir)]) == 0
    runtime = EmbeddedRuntime(settings, embedder)
    await runtime.start()
    try:
        assert (await runtime.vectors.other_models(embedder.model_id)) == (0, [])
        assert await runtime.vectors.count("default") == 3
    finally:
        await runtime.stop()


async def _main_in_thread(argv: list[str]) -> Any:
    import asyncio

    return await asyncio.to_thread(cli.main, argv)


def test_paths_keep_the_cache_out_of_the_projections(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path)
    assert s.projections_dir not in s.embedding_cache_path.parents
