"""Rerank: the fused score combined with time decay, confidence, importance,
access frequency and source trust (pure).

final = fused × Π factorᵢ^weightᵢ — each factor in (0, 1], a weight of 0 leaves
it out, and every factor is reported for explain mode.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from hindsight_common.consolidation.importance import importance
from hindsight_common.ports.projection import Document
from hindsight_common.recall.presets import RerankWeights

# How far the source is trusted: people's own words and reflections over tool output.
TRUST = {"user": 1.0, "memory": 0.95, "assistant": 0.85, "system": 0.85, "tool": 0.75, "summary": 0.8}


@dataclass(frozen=True)
class Factors:
    decay: float
    confidence: float
    importance: float
    access: float
    trust: float

    def as_dict(self) -> dict[str, float]:
        return {"decay": self.decay, "confidence": self.confidence, "importance": self.importance,
                "access": self.access, "trust": self.trust}


def importance_of(doc: Document) -> float:
    """The stated importance (``consolidation/importance.py``): a base by what the
    document is, raised towards 1 by each reinforcement; 1.0 when pinned. Use and
    idleness are left to the access and decay factors."""
    return importance(doc.kind or doc.type, reinforced=doc.reinforced_count, pinned=doc.pinned)


def factors(doc: Document, reference: datetime, half_life_days: float, accesses: int = 0) -> Factors:
    age_days = max(0.0, (reference - doc.occurred_at).total_seconds() / 86400)
    decay = 0.5 ** (age_days / half_life_days) if half_life_days > 0 else 1.0
    importance = importance_of(doc)
    confidence = doc.confidence if doc.confidence is not None else 1.0
    # Diminishing returns: the 10th access matters less than the first.
    access = 1.0 - 0.5 / (1.0 + math.log1p(accesses))
    return Factors(
        decay=max(decay, 1e-6),
        confidence=max(confidence, 1e-6),
        importance=importance,
        access=access,
        trust=TRUST.get(doc.role, 0.9),
    )


def rerank_score(fused: float, f: Factors, w: RerankWeights) -> float:
    return float(
        fused
        * f.decay ** w.decay
        * f.confidence ** w.confidence
        * f.importance ** w.importance
        * f.access ** w.access
        * f.trust ** w.trust
    )
