"""Maximal marginal relevance (pure): trade relevance against redundancy."""

from __future__ import annotations

from collections.abc import Sequence


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    num = sum(x * y for x, y in zip(a, b, strict=True))
    na = sum(x * x for x in a) ** 0.5
    nb = sum(y * y for y in b) ** 0.5
    return num / (na * nb) if na and nb else 0.0


def mmr(scores: Sequence[float], vectors: Sequence[Sequence[float]], k: int, lam: float) -> list[int]:
    """Indices chosen greedily: lam × relevance − (1 − lam) × max similarity to
    those already chosen. Relevance is the score scaled to [0, 1]."""
    if not scores:
        return []
    top = max(scores) or 1.0
    rel = [s / top for s in scores]
    chosen: list[int] = []
    left = list(range(len(scores)))
    while left and len(chosen) < k:
        def gain(i: int) -> float:
            redundancy = max((_cos(vectors[i], vectors[j]) for j in chosen), default=0.0)
            return lam * rel[i] - (1 - lam) * redundancy

        best = max(left, key=gain)
        chosen.append(best)
        left.remove(best)
    return chosen
