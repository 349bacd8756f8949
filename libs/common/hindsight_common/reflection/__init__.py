"""Reflection: turning a session's turns into candidate memories.

`reflect_turns` is the deterministic offline reflector, the default when no LLM is
configured; `evaluate` scores it on the labelled utterances shipped with this package.
"""

from hindsight_common.reflection.evaluation import KindScore, ReflectorScore, evaluate
from hindsight_common.reflection.offline import KINDS, Candidate, Turn, reflect_turns

__all__ = [
    "KINDS",
    "Candidate",
    "KindScore",
    "ReflectorScore",
    "Turn",
    "evaluate",
    "reflect_turns",
]
