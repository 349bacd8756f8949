"""Pure comparisons consolidation decides with (no clock, no model, no I/O)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np

T = TypeVar("T")

#: Confidence never reaches certainty by repetition alone.
MAX_CONFIDENCE = 0.99
#: Similarities are compared at this many decimals, so that float noise in the last
#: digits of an embedding cannot flip a decision on replay.
SIMILARITY_DECIMALS = 3


@lru_cache(maxsize=1 << 16)  # subjects and entities repeat: each is normalised once
def norm(text: str) -> str:
    """Lower case, single spaces, no trailing punctuation."""
    return " ".join(text.lower().split()).strip(" .!?")


def combine_confidence(a: float, b: float) -> float:
    """Two independent observations of one statement: 1 - (1 - a)(1 - b), capped."""
    return round(min(MAX_CONFIDENCE, max(a, b, 1.0 - (1.0 - a) * (1.0 - b))), 6)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity rounded to ``SIMILARITY_DECIMALS``; 0 for a zero vector.
    Computed in double precision (the vectors may be single precision)."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"vectors of different lengths: {x.shape} and {y.shape}")
    na, nb = float(np.sqrt(x @ x)), float(np.sqrt(y @ y))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return round(float(x @ y) / (na * nb), SIMILARITY_DECIMALS)


def entity_set(entities: Iterable[str], subject: str) -> frozenset[str]:
    """What a memory names besides its subject, normalised."""
    s = norm(subject)
    return frozenset(e for e in (norm(x) for x in entities) if e and e != s)


def union(*groups: Iterable[T]) -> tuple[T, ...]:
    """Items of every group, first occurrence first, without repeats."""
    return tuple(dict.fromkeys(x for g in groups for x in g))
