"""English terms for the Elasticsearch text index, computed in Python.

Why here and not in an Elasticsearch analyzer: the server that development and CI run
(Elastic's integ-test distribution) has only the ``standard`` tokenizer and the
``lowercase``/``stop`` filters: no stemmer (``porter_stem``, ``kstem``, ``stemmer``), no
``asciifolding``, no ``english_possessive``, no ``english`` analyzer. Doing the English
work here gives the same terms on every Elasticsearch, and the same terms as the
embedded adapter (SQLite FTS5's ``porter`` tokenizer runs the same Porter algorithm; a
test compares the two).

:func:`analyze` is used at index time and, through :func:`search_terms`, at query time:
split on non-alphanumerics (apostrophes kept inside words), lower-case, fold diacritics
(NFKD), drop the stop words that queries drop (``text.terms.STOPWORDS``) and the
possessive ``'s``, then stem. Stop words go before stemming (hence not the server's
``stop`` filter, which would see stems: "was" -> "wa"). Pure functions; the stemmer is cached (word frequencies
are Zipfian, so most lookups hit).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

from hindsight_common.text.terms import STOPWORDS, keyword_terms

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def analyze(text: str) -> list[str]:
    """The indexed terms of ``text`` (see the module docstring), in order."""
    folded = unicodedata.normalize("NFKD", text.replace("\u2019", "'").lower())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    terms: list[str] = []
    for word in _WORD.findall(folded):
        if word in STOPWORDS:
            continue
        if word.endswith("'s"):
            word = word[:-2]
        terms += [porter_stem(p) for p in word.split("'") if p not in STOPWORDS]
    return terms


def _consonant(w: str, i: int) -> bool:
    if w[i] in "aeiou":
        return False
    return w[i] != "y" or i == 0 or not _consonant(w, i - 1)


def _measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant sequences in ``stem``."""
    m, after_vowel = 0, False
    for i in range(len(stem)):
        vowel = not _consonant(stem, i)
        m += after_vowel and not vowel
        after_vowel = vowel
    return m


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(w: str) -> bool:
    return len(w) >= 2 and w[-1] == w[-2] and _consonant(w, len(w) - 1)


def _cvc(w: str) -> bool:
    n = len(w)
    return (n >= 3 and _consonant(w, n - 1) and not _consonant(w, n - 2)
            and _consonant(w, n - 3) and w[-1] not in "wxy")


_STEP2 = (("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
          ("izer", "ize"), ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
          ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
          ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
          ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("logi", "log"))
_STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
          ("ful", ""), ("ness", ""))
_STEP4 = ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
          "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize")


def _swap_suffix(w: str, rules: Sequence[tuple[str, str]], min_measure: int) -> str:
    # The first (longest) suffix that matches decides, whether or not its stem qualifies.
    for suffix, replacement in rules:
        if w.endswith(suffix):
            stem = w[: -len(suffix)]
            return stem + replacement if _measure(stem) > min_measure else w
    return w


@functools.lru_cache(maxsize=65_536)
def porter_stem(word: str) -> str:
    """Martin Porter's stemmer (1980), as SQLite FTS5's ``porter`` tokenizer applies it."""
    w = word
    if len(w) <= 2:
        return w
    if w.endswith(("sses", "ies")):  # step 1a
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if w.endswith("eed"):  # step 1b
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    else:
        for suffix in ("ed", "ing"):
            if w.endswith(suffix) and _has_vowel(w[: -len(suffix)]):
                w = w[: -len(suffix)]
                if w.endswith(("at", "bl", "iz")):
                    w += "e"
                elif _double_consonant(w) and w[-1] not in "lsz":
                    w = w[:-1]
                elif _measure(w) == 1 and _cvc(w):
                    w += "e"
                break
    if w.endswith("y") and _has_vowel(w[:-1]):  # step 1c
        w = w[:-1] + "i"
    w = _swap_suffix(w, _STEP2, 0)
    w = _swap_suffix(w, _STEP3, 0)
    for suffix in _STEP4:
        if w.endswith(suffix):
            stem = w[: -len(suffix)]
            if suffix == "ion" and not stem.endswith(("s", "t")):
                break
            if _measure(stem) > 1:
                w = stem
            break
    if w.endswith("e"):  # step 5
        m = _measure(w[:-1])
        if m > 1 or (m == 1 and not _cvc(w[:-1])):
            w = w[:-1]
    if w.endswith("ll") and _measure(w) > 1:
        w = w[:-1]
    return w


def search_terms(query: str) -> list[str]:
    """The stemmed content words of a natural-language query, without duplicates."""
    return list(dict.fromkeys(t for word in keyword_terms(query) for t in analyze(word)))
