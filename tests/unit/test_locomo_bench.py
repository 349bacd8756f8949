from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.bench import locomo
from hindsight_common.settings import Settings

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


def test_k_counts_turns_not_items() -> None:
    # A semantic memory standing for three turns uses three of the budget; a repeated
    # turn counts once; an item that would pass k counts only up to k.
    evidence = frozenset({"D1:1", "D3:1"})
    retrieved = [["D2:1", "D2:2", "D2:3"], ["D2:1"], ["D1:1"], ["D3:1", "D3:2"]]
    assert locomo.first_turns(retrieved, 3) == ["D2:1", "D2:2", "D2:3"]
    assert locomo.recall_at(evidence, retrieved, 3) == 0.0
    assert locomo.first_turns(retrieved, 4) == ["D2:1", "D2:2", "D2:3", "D1:1"]
    assert locomo.recall_at(evidence, retrieved, 4) == 0.5
    assert locomo.recall_at(evidence, retrieved, 5) == 1.0  # D3:1 fits, D3:2 is cut off
    assert locomo.first_turns(retrieved, 5) == ["D2:1", "D2:2", "D2:3", "D1:1", "D3:1"]
    assert locomo.first_turns(retrieved, 100) == ["D2:1", "D2:2", "D2:3", "D1:1", "D3:1", "D3:2"]


def test_malformed_evidence_strings_are_read_and_normalised() -> None:
    assert locomo.evidence_ids(["D8:6; D9:17"]) == {"D8:6", "D9:17"}
    assert locomo.evidence_ids(["D:11:26", "D30:05"]) == {"D11:26", "D30:5"}
    assert locomo.evidence_ids(["D1:2 D1:3"]) == {"D1:2", "D1:3"}
    assert locomo.evidence_ids(["none"]) == frozenset()


def test_reference_time_is_after_the_last_session() -> None:
    [conv] = locomo.load(DATA)
    assert conv.reference_time > max(t.occurred_at for t in conv.turns)
    assert (conv.reference_time - max(t.occurred_at for t in conv.turns)).days == 1


def test_ablations_switch_off_one_stage_each() -> None:
    from hindsight_common.recall.presets import PRESETS, ablations

    base = PRESETS["balanced"]
    variants = ablations(base)
    for path in base.paths:
        assert set(variants[f"balanced-no-{path}"].paths) == set(base.paths) - {path}
    assert variants["balanced-no-cross_encoder"].cross_encoder_top == 0
    assert variants["balanced-no-cross_encoder_context"].cross_encoder_context == 0.0
    assert base.cross_encoder_counts_turns and not variants["balanced-no-turn_pool"].cross_encoder_counts_turns
    assert variants["balanced-no-context_cut"].cross_encoder_context_chars == 0
    assert variants["balanced-no-context_cut"].cross_encoder_context == base.cross_encoder_context
    assert variants["balanced-no-decay"].rerank.decay == 0.0
    assert variants["balanced-no-decay"].rerank.trust == base.rerank.trust
    assert "graph" in variants["balanced+graph"].paths and "graph" not in base.paths
    for name, variant in variants.items():
        assert variant.name == name and variant != base


async def test_the_bench_memo_answers_only_the_very_same_call_again() -> None:
    from hindsight_common.ports.reranker import Reranker
    from hindsight_services.bench import MemoReranker

    class Counting(Reranker):
        calls: list[tuple[str, tuple[str, ...]]] = []

        @property
        def model_id(self) -> str:
            return "counting"

        async def score(self, query: str, passages: Sequence[str]) -> list[float]:
            self.calls.append((query, tuple(passages)))
            return [float(len(p)) + len(self.calls) / 10 for p in passages]  # differs per call

    inner = Counting()
    memo = MemoReranker(inner)
    first = await memo.score("q", ["aa", "b"])
    assert await memo.score("q", ["aa", "b"]) == first and memo.reused == 1 and len(inner.calls) == 1
    # Another order, another query or other passages are new calls (batches would differ).
    for query, passages in (("q", ["b", "aa"]), ("q2", ["aa", "b"]), ("q", ["aa"])):
        await memo.score(query, passages)
    assert len(inner.calls) == 4 and memo.reused == 1 and memo.model_id == "counting"


def test_the_in_process_bench_asks_every_row_of_the_same_memories(tmp_path: Path) -> None:
    # Reflection's idle pass (a wall-clock timer) would add memories in the middle of a
    # long run; the bench's runtime has it off and never flushes access counts.
    from hindsight_services.bench import bench_settings

    settings = bench_settings(tmp_path)
    assert settings.data_dir == tmp_path and settings.access_flush_s == 0
    assert settings.reflect_idle_s > 10 * 365 * 24 * 3600  # ten years: never within a run
    assert settings.reflect_every_n_turns == Settings().reflect_every_n_turns  # ingest still reflects
