"""``hindsight bench ingest`` runs end to end on a few small batches and reports every figure."""

from __future__ import annotations

import json

import pytest

from hindsight_services.bench_ingest import STAGES
from hindsight_services.cli import main


def test_the_ingest_bench_prints_the_app_and_every_stage(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HINDSIGHT_LOG_BACKEND", raising=False)
    assert main(["bench", "ingest", "--batches", "2", "--batch", "3", "--clients", "2", "--json"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out.strip().splitlines()[-1])
    assert result["batch"] == 3
    for mode in ("screening_on", "screening_off"):
        for clients in ("1", "2"):
            run = result["app"][mode][clients]
            assert run["cpu_ms_per_batch"] > 0 and run["wall_ms_per_batch"] > 0 and run["per_s"] > 0
    assert list(result["stages_cpu_ms"]) == [*STAGES, "append_fsync_wall"]
    assert all(v >= 0 for v in result["stages_cpu_ms"].values()) and result["stages_cpu_ms"]["screen"] > 0
    assert "stages on their own" in out and "screening" in out
