from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.bench import locomo

DATA = Path(__file__).resolve().parents[1] / "data" / "locomo-mini.json"


def test_loads_turns_sessions_and_scored_questions() -> None:
    [conv] = locomo.load(DATA)
    assert conv.sample_id == "conv-mini-1"
    assert len(conv.turns) == 8
    first = conv.turns[0]
    assert (first.dia_id, first.session, first.speaker) == ("D1:1", "session_1", "Maya")
    assert first.occurred_at == datetime(2023, 3, 3, 16, 5, tzinfo=UTC)
    assert conv.turns[1].occurred_at > first.occurred_at
    assert "blue ceramic vase" in conv.turns[4].text
    # category 5 and questions without evidence are not scored
    assert len(conv.questions) == 6
    assert {q.category for q in conv.questions} == {"1", "2", "3", "4"}


def test_session_time_formats() -> None:
    assert locomo.parse_session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    with pytest.raises(ValueError, match="unrecognised"):
        locomo.parse_session_time("yesterday")


def test_recall_at_k_counts_evidence_in_the_top_k_only() -> None:
    evidence = frozenset({"D1:1", "D2:3"})
    retrieved = [["D9:9"], ["D1:1"], ["D2:3"]]
    assert locomo.recall_at(evidence, retrieved, 1) == 0.0
    assert locomo.recall_at(evidence, retrieved, 2) == 0.5
    assert locomo.recall_at(evidence, retrieved, 3) == 1.0


def test_summary_is_the_mean_per_category_and_overall() -> None:
    q1 = locomo.Question("c", "a?", "1", frozenset({"D1:1"}))
    q4 = locomo.Question("c", "b?", "4", frozenset({"D1:2"}))
    summary = locomo.summarise([(q1, [["D1:1"]]), (q4, [["D0:0"]])], [5])
    assert summary["5"]["1"] == 1.0
    assert summary["5"]["4"] == 0.0
    assert summary["5"]["all"] == 0.5
    assert summary["5"]["2"] == 0.0


def test_percentile() -> None:
    assert locomo.percentile([5.0, 1.0, 3.0], 50) == 3.0
    assert locomo.percentile([], 95) == 0.0
