from __future__ import annotations

import pytest

from hindsight_common.recall.fusion import reciprocal_rank_fusion
from hindsight_common.text.terms import keyword_terms


def test_rrf_rewards_agreement_between_paths() -> None:
    fused = reciprocal_rank_fusion({"vector": ["a", "b", "e"], "bm25": ["c", "b", "d"]})
    ids = [i for i, _ in fused]
    assert ids[0] == "b"  # rank 2 in both paths beats rank 1 in only one
    assert set(ids) == {"a", "b", "c", "d", "e"}
    assert dict(fused)["b"] == pytest.approx(2 / 62)
    assert dict(fused)["d"] == pytest.approx(1 / 63)


def test_rrf_weights_and_zero_weight_paths() -> None:
    rankings = {"vector": ["a"], "bm25": ["b"]}
    assert reciprocal_rank_fusion(rankings, {"vector": 2.0, "bm25": 1.0})[0][0] == "a"
    assert reciprocal_rank_fusion(rankings, {"vector": 1.0, "bm25": 2.0})[0][0] == "b"
    assert [i for i, _ in reciprocal_rank_fusion(rankings, {"vector": 0.0})] == ["b"]


def test_rrf_ties_are_deterministic() -> None:
    fused = reciprocal_rank_fusion({"vector": ["x"], "bm25": ["y"]})
    assert [i for i, _ in fused] == ["x", "y"]


def test_rrf_k_changes_the_scores() -> None:
    assert reciprocal_rank_fusion({"p": ["a"]}, k=1)[0][1] == pytest.approx(0.5)


def test_keyword_terms_drop_function_words() -> None:
    assert keyword_terms("What did Caroline's sister research in 2023?") == [
        "caroline", "sister", "research", "2023"]
    assert keyword_terms("what is it?") == []
    assert keyword_terms("dog dog DOG") == ["dog"]
