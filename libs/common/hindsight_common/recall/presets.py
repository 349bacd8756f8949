"""Recall presets: which paths run, how they are weighted, how results are reranked.

Data, not code branches: the engine reads a preset; adding one is adding a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from hindsight_common.errors import InvalidInput, Problem


@dataclass(frozen=True)
class RerankWeights:
    """Exponents of each rerank factor (0 = ignored). See ``rerank.py``."""

    decay: float = 0.0
    confidence: float = 0.0
    importance: float = 0.0
    access: float = 0.0
    trust: float = 0.0
    half_life_days: float = 365.0


@dataclass(frozen=True)
class Preset:
    name: str
    # Path name -> RRF weight. Paths: vector, bm25, temporal, graph, recency.
    paths: Mapping[str, float]
    candidates: int = 50
    rerank: RerankWeights = field(default_factory=RerankWeights)
    mmr_lambda: float | None = None  # None: no diversity step
    expand_neighbours: int = 0  # neighbouring turns added per hit (context expansion)
    graph_hops: int = 0  # 1: also documents sharing an entity or session with a match


def _frozen(d: dict[str, float]) -> Mapping[str, float]:
    return MappingProxyType(d)


PRESETS: Mapping[str, Preset] = MappingProxyType({
    "fast": Preset("fast", _frozen({"vector": 1.0, "bm25": 1.0}), candidates=30),
    "balanced": Preset(
        "balanced",
        _frozen({"vector": 1.0, "bm25": 1.0, "temporal": 1.0, "graph": 0.5, "recency": 0.2}),
        candidates=50,
        rerank=RerankWeights(decay=0.05, confidence=0.5, importance=0.2, access=0.05, trust=0.5),
    ),
    "thorough": Preset(
        "thorough",
        _frozen({"vector": 1.0, "bm25": 1.0, "temporal": 1.0, "graph": 0.7, "recency": 0.2}),
        candidates=100,
        rerank=RerankWeights(decay=0.05, confidence=0.5, importance=0.2, access=0.05, trust=0.5),
        mmr_lambda=0.8,
        expand_neighbours=1,
        graph_hops=1,
    ),
})
DEFAULT_PRESET = "balanced"


def preset(name: str | None) -> Preset:
    """The named preset; raises InvalidInput naming the ones that exist."""
    key = name or DEFAULT_PRESET
    try:
        return PRESETS[key]
    except KeyError:
        raise InvalidInput(
            "unknown preset", [Problem("preset", f"one of {', '.join(PRESETS)}; got {key!r}")]
        ) from None
