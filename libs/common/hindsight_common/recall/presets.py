"""Recall presets: which paths run, how they are weighted, how results are reranked.

Data, not code branches: the engine reads a preset; adding one is adding a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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
    # Each path's ``candidates`` count turns: a path looks twice as deep and keeps its
    # first ``candidates`` turns with the memories and summaries ranked among them, so
    # reflection's memories add keys without pushing turns out of the lists fusion sees.
    # False: a path's first ``candidates`` hits of every kind. It costs the documents of
    # the deeper lists (at 100,000 turns of one user, about 5 ms of `fast`'s 25).
    depth_counts_turns: bool = False
    rerank: RerankWeights = field(default_factory=RerankWeights)
    graph_hops: int = 0  # 1: also documents sharing an entity or session with a match
    cross_encoder_top: int = 0  # the cross-encoder reorders the fused top N (0: not used)
    # N counts turns: a memory or summary fused among them is read beside them instead of
    # taking a turn's place (at most 2 N items). False: N counts items of every kind.
    cross_encoder_counts_turns: bool = True
    # Weight of a second cross-encoder reading of each turn, with the turn before it
    # (a reply often answers only with its question in view); 0: the turn alone.
    cross_encoder_context: float = 0.0
    # That second reading keeps the last N characters of the turn before (0: all of it):
    # the question a reply answers ends the turn before it, and the cross-encoder's time
    # grows with every token it reads.
    cross_encoder_context_chars: int = 0
    # Whether a turn read after the turn before it is also read alone (its score is
    # then the sum of both); False: one reading a turn, after the turn before it when
    # it has one (about half the cross-encoder's pairs).
    cross_encoder_alone: bool = True


ALL_PATHS = ("vector", "bm25", "bm25_context", "speaker", "temporal", "recency", "graph")


def _frozen(d: dict[str, float]) -> Mapping[str, float]:
    return MappingProxyType(d)


PRESETS: Mapping[str, Preset] = MappingProxyType({
    # The candidate paths of balanced, without the cross-encoder (no model but the query embedding).
    "fast": Preset("fast", _frozen({"vector": 1.0, "bm25": 1.0, "bm25_context": 1.0, "speaker": 1.0}),
                   candidates=30),
    "balanced": Preset(
        "balanced",
        _frozen({"vector": 1.0, "bm25": 1.0, "bm25_context": 1.0, "speaker": 1.0}),
        candidates=50,
        depth_counts_turns=True,
        rerank=RerankWeights(decay=0.05, confidence=0.5, importance=0.2, access=0.05, trust=0.5),
        cross_encoder_top=20,
        cross_encoder_context=1.0,
        cross_encoder_context_chars=100,
    ),
})
DEFAULT_PRESET = "balanced"


def preset(name: str | None, presets: Mapping[str, Preset] = PRESETS) -> Preset:
    """The named preset; raises InvalidInput naming the ones that exist."""
    key = name or DEFAULT_PRESET
    try:
        return presets[key]
    except KeyError:
        raise InvalidInput(
            "unknown preset", [Problem("preset", f"one of {', '.join(presets)}; got {key!r}")]
        ) from None


def ablations(base: Preset) -> dict[str, Preset]:
    """``base`` with one stage switched off at a time (each path, each path's turn depth,
    the cross-encoder, its second reading and that reading's cut, each rerank factor),
    and with each path it does not run switched on: what the LoCoMo bench's ``--ablate``
    measures. Named ``<base>-no-<stage>`` / ``<base>+<path>``."""
    out: dict[str, Preset] = {}
    for path in base.paths:
        if len(base.paths) > 1:
            paths = {p: w for p, w in base.paths.items() if p != path}
            out[f"{base.name}-no-{path}"] = replace(base, name=f"{base.name}-no-{path}", paths=_frozen(paths))
    if base.depth_counts_turns:
        name = f"{base.name}-no-turn_depth"
        out[name] = replace(base, name=name, depth_counts_turns=False)
    if base.cross_encoder_top:
        out[f"{base.name}-no-cross_encoder"] = replace(base, name=f"{base.name}-no-cross_encoder",
                                                       cross_encoder_top=0)
    if base.cross_encoder_top and base.cross_encoder_counts_turns:
        name = f"{base.name}-no-turn_pool"
        out[name] = replace(base, name=name, cross_encoder_counts_turns=False)
    if base.cross_encoder_top and base.cross_encoder_context:
        name = f"{base.name}-no-cross_encoder_context"
        out[name] = replace(base, name=name, cross_encoder_context=0.0)
        if base.cross_encoder_context_chars:
            name = f"{base.name}-no-context_cut"
            out[name] = replace(base, name=name, cross_encoder_context_chars=0)
        if base.cross_encoder_alone:
            name = f"{base.name}-no-alone_reading"
            out[name] = replace(base, name=name, cross_encoder_alone=False)
    for factor in ("decay", "confidence", "importance", "access", "trust"):
        if getattr(base.rerank, factor):
            name = f"{base.name}-no-{factor}"
            out[name] = replace(base, name=name, rerank=replace(base.rerank, **{factor: 0.0}))
    for path in ALL_PATHS:
        if path not in base.paths:
            name = f"{base.name}+{path}"
            out[name] = replace(base, name=name, paths=_frozen({**base.paths, path: 1.0}))
    return out
