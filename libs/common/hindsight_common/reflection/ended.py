"""Ended statements: "isn't vegan any more", "no longer lives in Paris", "not at Westpac
anymore". ``predicates.match_predicate`` reads one as its positive form with the usual rules
and marks the value ended ("no longer Paris"), so it lands on the slot it ends; what follows
reads the ended facts that no rule reads in the positive ("is at Westpac" alone says too
little to be a workplace; said as ended, it is one).
"""

from __future__ import annotations

import re

from hindsight_common.reflection.english import third_singular
from hindsight_common.reflection.slots import Slot, rx

_AT_ORGANISATION = re.compile(r"^is (?:at|with) (?P<v>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*){0,3})")
_STUDENT = rx(r"^is (?:a |an )(?:phd |grad |graduate |college |university |uni |med |law )?student\b")
# "any more", "any longer": what marks a statement as ended (also read by make_predicate).
ANY_MORE = rx(r"\s*,?\s*\b(?:any ?more|any longer)\b")
_NOT_AFTER_AUX = rx(r"^(?P<aux>is|has|does) not |^(?P<neg>isn't|hasn't|doesn't) ")


def positive_form(text: str) -> str:
    """ "is not a vegetarian any more" -> "is a vegetarian"; "doesn't live in X" -> "lives in X"."""
    text = ANY_MORE.sub("", text).strip()
    match = _NOT_AFTER_AUX.match(text)
    if match is None:
        return text
    aux = match.group("aux") or {"isn't": "is", "hasn't": "has", "doesn't": "does"}[
        match.group("neg").lower()]
    rest = text[match.end():]
    if aux == "does":
        verb, _, tail = rest.partition(" ")
        return f"{third_singular(verb)} {tail}".strip()
    return f"{aux} {rest}"


def ended_without_rule(positive: str) -> Slot | None:
    """The slot an ended statement closes when no rule reads its positive form, or None."""
    if (org := _AT_ORGANISATION.match(positive)) is not None:
        # "I'm not at Westpac anymore": a named place one was at for good is a workplace
        return Slot("fact", "personal", "employer", org.group("v"), 0.8, "stated employer")
    if (student := _STUDENT.match(positive)) is not None:
        # "I'm not a student any more": the studies slot ended, whatever they were
        return Slot("fact", "personal", "study", student.group(0).removeprefix("is "), 0.8,
                    "stated studies")
    return None
