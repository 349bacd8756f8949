"""Importance: what a memory is worth keeping, in (0, 1] (pure; the one place its math lives).

importance = stated, lifted by use, then decayed since the memory was last used:

- ``stated``: a base by kind (an explicit preference 1.0, a fact or lesson 0.9, ... a
  passing turn 0.6), raised towards 1 by each reinforcement (halfway after the first);
  a pinned memory is 1.0 and never decays;
- ``use``: access counts, log-smoothed (``log1p(n) / log1p(saturation)``, at most 1),
  lift it towards 1 by at most ``use_weight``;
- decay: halved every ``half_life_days`` of idleness, a half-life that grows with the
  stated importance (``stated / (1.1 - stated)`` times the setting: 10 times for a
  preference, 1.2 times for a passing turn), so what was stated explicitly fades far
  slower than what was said in passing.

Recall's rerank factor (``recall/rerank.importance_of``) calls :func:`importance` with no
use and no idleness: recall has its own access and time-decay factors, and so reads the
stated importance (of a pinned memory: 1.0). The forgetting pass reads all of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Base importance by kind of memory (or document type for what is not a memory).
BASE = {
    "preference": 1.0, "fact": 0.9, "lesson": 0.9, "error": 0.85, "event": 0.8,
    "episodic": 0.6, "summary": 0.5,
}
DEFAULT_BASE = 0.6


@dataclass(frozen=True)
class ImportanceParams:
    """The settings ``importance_*`` (see ``settings.py``)."""

    use_weight: float = 0.5
    use_saturation: int = 20
    half_life_days: float = 30.0


def importance(
    kind: str, *, reinforced: int = 0, pinned: bool = False, accesses: int = 0, idle_days: float = 0.0,
    params: ImportanceParams = ImportanceParams(),
) -> float:
    """The importance of a memory of ``kind`` (see the module docstring), rounded to 6
    decimals so that a replay compares the same numbers."""
    if pinned:
        return 1.0
    stated = 1.0 - (1.0 - BASE.get(kind, DEFAULT_BASE)) * 0.5 ** max(0, reinforced)
    if accesses > 0 and params.use_weight > 0:
        use = min(1.0, math.log1p(accesses) / math.log1p(max(1, params.use_saturation)))
        stated = 1.0 - (1.0 - stated) * (1.0 - params.use_weight * use)
    if idle_days > 0 and params.half_life_days > 0:
        half_life = params.half_life_days * stated / (1.1 - stated)
        stated *= 0.5 ** (idle_days / half_life)
    return round(max(stated, 1e-6), 6)
