"""`hindsight bench recall` with a kept data directory: a run resumes where the last stopped
and never appends the same synthetic turns twice."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from hindsight_common.adapters import vector_memory
from hindsight_services.bench_recall import MARKER, run_recall_bench
from hindsight_services.bench_vectors import run_vector_bench
from hindsight_common.streams import INTERACTIONS


def _turns(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "log" / "hindsight.sqlite3") as db:
        return int(db.execute("SELECT COUNT(*) FROM records WHERE stream = ?", (INTERACTIONS,)).fetchone()[0])


async def test_a_kept_corpus_grows_by_the_turns_it_lacks_and_a_lost_answer_is_not_appended_again(
        tmp_path: Path) -> None:
    rows = await run_recall_bench([30], ["fast"], 2, data_dir=tmp_path)
    assert [r["memories"] for r in rows] == [30] and rows[0]["p50_ms"] > 0
    assert json.loads((tmp_path / MARKER).read_text()) == {"turns": 30}
    after_30 = _turns(tmp_path)
    assert after_30 >= 30

    await run_recall_bench([60], ["fast"], 2, data_dir=tmp_path)  # only turns 30..59 are new
    after_60 = _turns(tmp_path)
    assert json.loads((tmp_path / MARKER).read_text()) == {"turns": 60} and after_60 > after_30

    # Killed after the append was acknowledged and before the marker moved: the rerun sends
    # the same batch with the same Idempotency-Key, which answers from the key.
    (tmp_path / MARKER).write_text(json.dumps({"turns": 30}))
    await run_recall_bench([60], ["fast"], 2, data_dir=tmp_path)
    assert _turns(tmp_path) == after_60


async def test_bench_vectors_compares_the_shard_memory_and_lists_on_a_kept_corpus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await run_recall_bench([400], ["fast"], 1, data_dir=tmp_path)
    monkeypatch.setattr(vector_memory, "IVF_MIN", 100)  # lists over this small corpus
    result = await run_vector_bench(tmp_path, 20, [5, 20])
    assert result["points"] >= 400  # the turns, and what reflection drew from them
    assert set(result["latency"]) == {"shard", "exact", "lists", "memory"}
    assert all(row["p50_ms"] > 0 for row in result["latency"].values())
    assert result["probe"] >= vector_memory.PROBE_MIN
    assert set(result["lists_recall"]) == {"5", "20"} and min(result["lists_recall"].values()) >= 0.9
    with pytest.raises(SystemExit, match="no vector index"):
        await run_vector_bench(tmp_path / "empty", 1, [5])
