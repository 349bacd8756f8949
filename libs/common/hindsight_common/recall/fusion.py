"""Reciprocal-rank fusion over ranked id lists (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[str]],
    weights: Mapping[str, float] | None = None,
    k: int = RRF_K,
) -> list[tuple[str, float]]:
    """Fuse ranked lists: score(id) = sum over paths of weight / (k + rank).

    ``rankings`` maps a path name to ids, best first (rank 1 is the first).
    Ties keep the order in which ids were first seen (stable, deterministic).
    Returns (id, fused score) best first.
    """
    scores: dict[str, float] = {}
    for path, ids in rankings.items():
        weight = 1.0 if weights is None else weights.get(path, 1.0)
        if weight == 0:
            continue
        for rank, doc_id in enumerate(ids, start=1):
            scores[doc_id] = scores.get(doc_id, 0.0) + weight / (k + rank)
    order = {doc_id: i for i, doc_id in enumerate(scores)}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))
