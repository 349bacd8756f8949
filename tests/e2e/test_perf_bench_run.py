"""``hindsight bench perf --quick --json`` runs every phase against a real ``hindsight
serve`` it starts itself and prints the figures in the documented JSON shape (what the
figures are is the bench's business, not a test's)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import CLI

pytestmark = pytest.mark.e2e


def test_bench_perf_quick_prints_every_figure(tmp_path: Path) -> None:
    done = subprocess.run([*CLI, "bench", "perf", "--quick", "--json"], capture_output=True, text=True,
                          timeout=1200, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["mode"] == "embedded"
    assert set(result["ingest_per_s"]) == {"batch1", "batch100"}
    assert set(result["ingest_per_s_by_clients"]) == {"1", "8"}
    assert all(v > 0 for rates in result["ingest_per_s_by_clients"].values() for v in rates.values())
    assert result["projection_per_s"] > 0
    fresh = result["freshness_ms"]
    assert fresh["writes"] > 0 and 0 < fresh["p50"] <= fresh["p95"] <= fresh["p99"]
    [(size, recall)] = result["recall_ms"].items()
    assert int(size) > 0 and 0 < recall["p50"] <= recall["p95"] <= recall["p99"]
    assert result["rss_mb"]["hindsight serve"] > 50
    assert "peak RSS hindsight serve" in done.stdout
