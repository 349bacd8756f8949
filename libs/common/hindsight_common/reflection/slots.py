"""The data the predicate rules share: what a predicate is and what a rule finds in it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hindsight_common.reflection.english import clip


@dataclass(frozen=True)
class Slot:
    """What a predicate says: key `<domain>.<attr>`, its value, and how sure the rule is."""

    kind: str
    domain: str
    attr: str
    value: str
    confidence: float
    rule: str


@dataclass(frozen=True)
class Predicate:
    """A predicate ready for the rules: text without leading adverbs, plus its context."""

    text: str
    habit: str | None  # "always", "never", "usually"... when it led the predicate
    time: str | None  # a time phrase anywhere in the clause
    future_time: bool  # a time phrase that can anchor a plan ("next month", "on Friday")
    ended: bool = False  # "no longer", "not ... any more": the slot's old value has ended


Rule = Callable[[Predicate], Slot | None]


def rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def place_like(value: str) -> bool:
    return bool(value) and (value[0].isupper() or value.lower().startswith(("a ", "the ")))


def value_of(match: re.Match[str]) -> str:
    return clip(match.group("v"), strip_time=True)


PRONOUN_OBJECT = rx(r"^(?:it|that|this|them|him|her|you|everything|anything|something|"
                      r"what|how|when|where|why|who|whoever|being)\b")
