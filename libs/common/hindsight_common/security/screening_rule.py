"""A screening rule: a regular expression over normalised text, its attack family, and a
weight in (0, 1], how strongly one match alone says "this is an attack" (pure data)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Literal

from hindsight_common.security.screening_words import RULE_WORDS

Family = Literal[
    "override", "authority", "directive", "hidden", "encoded", "conditional", "exfiltration", "conflict",
    "classifier",
]
#: ``classifier`` is the learned model's (``screening_model``): it names no rule, only n-grams.
FAMILIES: tuple[Family, ...] = (
    "override", "authority", "directive", "hidden", "encoded", "conditional", "exfiltration", "conflict",
    "classifier",
)


@dataclass(frozen=True)
class Rule:
    family: Family
    reason: str
    weight: float
    pattern: re.Pattern[str]
    # Cheap pre-check: the rule can only match lower-cased text containing one of these
    # (empty: always try it). Most text has none, and a substring test is far cheaper
    # than a large alternation tried at every position.
    needs: tuple[str, ...] = ()
    # ``needs`` compiled once: hashing the tuple on every call cost more than the search.
    _gate: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_gate", needs_pattern(self.needs) if self.needs else None)

    def search_in(self, text: str, lowered: str, gates: dict[int, bool] | None = None) -> list[re.Match[str]]:
        """Every match in ``text`` (``lowered`` is its lower-cased form). ``gates``: the
        pre-checks already decided for this text (rules share them: the 20 override rules
        have the same 44 words), filled in as they are tried."""
        gate = self._gate
        if gate is not None:
            passed = None if gates is None else gates.get(id(gate))
            if passed is None:
                passed = gate.search(lowered) is not None
                if gates is not None:
                    gates[id(gate)] = passed
            if not passed:
                return []
        return list(self.pattern.finditer(text))


@functools.cache
def needs_pattern(needs: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled pre-check per distinct set of words (shared by the rules that have it)."""
    return re.compile("|".join(re.escape(n) for n in needs))


_NEEDS: dict[str, tuple[str, ...]] = {"override": RULE_WORDS}


#: A character of the same sentence: not an end of sentence, though a dot inside a file name,
#: a path or a domain ("~/.aws/credentials", "notes.txt") is one.
_IN_SENTENCE = r"[^.!?\n]"
_IN_SENTENCE_DOTTED = r"(?:[^.!?\n]|\.(?=[\w/~]))"


def rule(family: Family, reason: str, weight: float, pattern: str, flags: int = re.I,
          needs: tuple[str, ...] | None = None) -> Rule:
    pattern = pattern.replace(_IN_SENTENCE, _IN_SENTENCE_DOTTED)
    return Rule(family, reason, weight, re.compile(pattern, flags), _NEEDS.get(family, ()) if needs is None else needs)
