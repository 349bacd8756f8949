"""``hindsight bench consolidate`` on a small stream: the real handler, embedder and log
decide, and the figures it prints are scored against the stream's truth."""

from __future__ import annotations

import pytest

from hindsight_services.bench_consolidate import print_consolidate_bench, run_consolidate_bench
from hindsight_services.cli import main


async def test_the_bench_scores_real_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    result = await run_consolidate_bench(150, seed=5)
    assert result["statements"] == 150 and result["embed_model_texts"] > 0
    # consolidation read every vector it compared from the cache embed filled: no model call
    assert result["cache_hits"] > 0 and result["model_texts"] == 0 and result["cpu_seconds"] > 0
    dedup, supersession = result["dedup"], result["supersession"]
    assert dedup["expected"] > 40 and supersession["expected"] > 5
    assert dedup["made"] == result["merges_exact"] + result["merges_near"] and result["merges_near"] > 0
    assert dedup["precision"] >= 0.98 and dedup["recall"] >= 0.9
    assert supersession["precision"] >= 0.98 and supersession["recall"] >= 0.9
    assert abs(result["live"] - result["live_expected"]) <= 0.05 * result["live_expected"]
    f = result["forgetting"]
    assert f["live_before"] == result["live"] and 0 < f["forgotten"] <= f["cap"] <= f["live_before"] // 10 + 1
    assert f["forgotten"] == min(f["eligible"], f["cap"]) or f["cap"] < f["eligible"]
    assert f["pinned_forgotten"] == 0 and f["used_forgotten"] == 0 and f["replay_equal"] is True
    assert f["purged_after_grace"] == f["forgotten"]
    print_consolidate_bench(result, as_json=False)
    out = capsys.readouterr().out
    assert "dedup         P=" in out and "forgetting    a pass 400 days on:" in out
    assert "statements per CPU second" in out and "the embed service's share" in out


def test_the_command_refuses_an_empty_stream() -> None:
    with pytest.raises(SystemExit, match="--n must be at least 1"):
        main(["bench", "consolidate", "--n", "0"])
