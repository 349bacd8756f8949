"""The vector process of an offline rebuild (``rebuild/prefill.py``): it fills the new
vector version while this process fills the others, and when it cannot run this process
does its work, so the rebuild still ends complete."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hindsight_common.factory import make_embedding_cache, make_log, make_text_index, make_vector_index
from hindsight_common.settings import Settings
from hindsight_services.bench_replay import TENANT, fill_log
from hindsight_services.rebuild.embedded import RebuildRequest, rebuild_data_dir
from hindsight_services.rebuild.records import resolve

N = 60


async def _rebuild(settings: Settings) -> tuple[dict[str, object], int, int]:
    """The offline rebuild of every projection, and the vectors and text documents the
    new live versions hold."""
    live = resolve(settings)
    log_, cache, lookup = make_log(live), make_embedding_cache(live), make_text_index(live)
    try:
        result = await rebuild_data_dir(live, log_, cache, lookup, RebuildRequest(("vector", "text", "graph")))
    finally:
        await lookup.close()
        if cache is not None:
            await cache.close()
        await log_.close()
    after = resolve(settings)
    vectors, text = make_vector_index(after, 384), make_text_index(after)
    try:
        return result, await vectors.count(TENANT), await text.count(TENANT)
    finally:
        await vectors.close()
        await text.close()


async def test_the_vectors_are_filled_by_a_process_of_their_own(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", reflect_every_n_turns=10**9, reflect_idle_s=10**9,
                        rebuild_process_min_records=N)
    await fill_log(settings, N)
    result, vectors, texts = await _rebuild(settings)
    child = result["vector_process"]
    assert isinstance(child, dict) and child["applied"] == N and child["error"] is None
    assert 0 < child["embedded"] <= N  # a cold cache: each distinct text once
    assert result["applied"] == N and vectors == texts == N
    again, vectors, texts = await _rebuild(settings)
    assert again["vector_process"] == {"applied": N, "embedded": 0, "error": None}  # warm: from the cache
    assert again["versions"] == {"vector": 3, "text": 3, "graph": 3} and vectors == texts == N


async def test_when_the_vector_process_cannot_run_this_one_rebuilds_the_vectors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(data_dir=tmp_path / "data", reflect_every_n_turns=10**9, reflect_idle_s=10**9,
                        rebuild_process_min_records=0)
    await fill_log(settings, N)
    monkeypatch.setattr(sys, "executable", "/bin/false")  # the child exits 1 at once
    result, vectors, texts = await _rebuild(settings)
    assert result["vector_process"] == {"applied": 0, "embedded": None, "error": "exit status 1"}
    assert result["phase"] == "done" and vectors == texts == N


@pytest.mark.parametrize("options", [{"rebuild_processes": 1}, {"rebuild_process_min_records": 10 * N}],
                         ids=["asked", "too few records"])
async def test_one_process_when_asked_or_when_there_is_little_to_do(tmp_path: Path, options: dict[str, int]) -> None:
    settings = Settings(data_dir=tmp_path / "data", reflect_every_n_turns=10**9, reflect_idle_s=10**9,
                        **options)  # type: ignore[arg-type]
    await fill_log(settings, N)
    result, vectors, texts = await _rebuild(settings)
    assert "vector_process" not in result and result["applied"] == N and vectors == texts == N
