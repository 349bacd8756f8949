"""``hindsight bench replay`` at a tiny N: the four rebuilds run, and the warm-cache
ones (the runtime's, and the online rebuild of ``hindsight replay``) embed nothing (the figures themselves are the benchmark's, not a test's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight_services.bench_replay import print_replay_bench, run_replay_bench


async def test_the_warm_cache_rebuild_embeds_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = await run_replay_bench(12, data_dir=tmp_path / "data")
    assert [r.name for r in runs] == ["no cache", "cold cache", "warm cache", "online"]
    assert all(r.records == 12 for r in runs)
    none, cold, warm, online = runs
    assert online.embedded == 0
    assert none.embedded == 12  # every text, repeats included
    assert 0 < cold.embedded <= 12  # each distinct text once
    assert warm.embedded == 0
    print_replay_bench(runs, 12, as_json=True)
    assert '"name": "warm cache"' in capsys.readouterr().out
