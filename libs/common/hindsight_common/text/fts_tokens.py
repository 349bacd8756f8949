"""Words as SQLite FTS5's ``porter unicode61`` tokenizer cuts them (pure).

The in-memory BM25 index (``adapters/bm25_memory.py``) tokenizes documents and queries
here, so it counts the same terms the embedded FTS5 table holds: ``unicode61`` keeps runs
of letters and digits (Unicode categories L*, N* and Co), folds them to lower case and
strips diacritics (combining marks belong to the token and vanish) ("café" -> "cafe"); everything else, the
underscore and the apostrophe included, separates tokens. ``porter`` then stems each.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hindsight_common.text.porter import stem

_ASCII_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """The stemmed tokens of ``text`` in order (repeats kept)."""
    lowered = text.lower()
    if lowered.isascii():
        return [stem(t) for t in _ASCII_TOKEN.findall(lowered)]
    out: list[str] = []
    current: list[str] = []
    for ch in text:
        folded = _fold(ch)
        if folded is not None:
            current.append(folded)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return [stem(t) for t in out if t]


@lru_cache(maxsize=65_536)
def _fold(ch: str) -> str | None:
    """``ch`` folded as unicode61 folds a token character (a combining mark is part of
    the token and folds to ""); None for a separator."""
    category = unicodedata.category(ch)
    if category == "Mn":
        return ""
    if not (category[0] in "LN" or category == "Co"):
        return None
    lower = ch.lower()
    if len(lower) != 1:  # a fold that grows ("İ" -> "i̇"): unicode61 folds one to one
        lower = unicodedata.normalize("NFD", ch)[0].lower()
    if lower.isascii():
        return lower
    base = unicodedata.normalize("NFD", lower)
    if len(base) > 1 and base[0].isascii() and all(unicodedata.category(c) == "Mn" for c in base[1:]):
        return base[0]
    return lower
