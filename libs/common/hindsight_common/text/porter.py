"""The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), as
SQLite's FTS5 ``porter`` tokenizer applies it (pure).

The in-memory BM25 index must cut a word exactly where the embedded FTS5 table does,
so that it scores a user's documents as FTS5 would (the contract test compares the
two on the same documents). So the rules below follow FTS5: a token shorter than 3
or longer than 64 characters is left alone; only a, e, i, o, u (and y after a
consonant) are vowels, so a digit or any other character counts as a consonant; step 2
has the later ``bli`` -> ``ble`` and ``logi`` -> ``log`` rules in place of the paper's
``abli`` -> ``able``; within a step the longest matching suffix decides, and when its
condition fails no shorter suffix is tried.
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiou")
MAX_TOKEN = 64


def _consonant(word: str, i: int) -> bool:
    c = word[i]
    if c in _VOWELS:
        return False
    if c == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]: how many vowel-consonant runs ``stem`` has."""
    m = 0
    previous_vowel = False
    for i in range(len(stem)):
        vowel = not _consonant(stem, i)
        if previous_vowel and not vowel:
            m += 1
        previous_vowel = vowel
    return m


def _has_vowel(stem: str) -> bool:
    """*v* as FTS5 tests it: a, e, i, o, u anywhere, or y after the first letter."""
    return any(c in _VOWELS or (c == "y" and i > 0) for i, c in enumerate(stem))


def _double_consonant(word: str) -> bool:
    """*d as FTS5 tests it after step 1b (y counts as a consonant here)."""
    return len(word) >= 2 and word[-1] == word[-2] and word[-1] not in _VOWELS


def _cvc(word: str) -> bool:
    """*o: ends consonant-vowel-consonant, the last not w, x or y."""
    n = len(word)
    return (n >= 3 and _consonant(word, n - 1) and not _consonant(word, n - 2)
            and _consonant(word, n - 3) and word[-1] not in "wxy")


# (suffix, replacement) in the order they are tried: longest first where one ends another.
_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
    ("ful", ""), ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
)


def _longest(word: str, suffixes: tuple[str, ...]) -> str | None:
    best: str | None = None
    for s in suffixes:
        if len(word) > len(s) and word.endswith(s) and (best is None or len(s) > len(best)):
            best = s
    return best


_STEP2_MAP = dict(_STEP2)
_STEP3_MAP = dict(_STEP3)


def _step1(w: str) -> str:
    if (len(w) > 4 and w.endswith("sses")) or (len(w) > 3 and w.endswith("ies")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    suffix = next((s for s in ("eed", "ed", "ing") if len(w) > len(s) and w.endswith(s)), None)
    if suffix == "eed":
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    elif suffix is not None and _has_vowel(w[: -len(suffix)]):
        w = w[: -len(suffix)]
        if len(w) > 2 and w.endswith(("at", "bl", "iz")):
            w += "e"
        elif _double_consonant(w) and w[-1] not in "lsz":
            w = w[:-1]
        elif _measure(w) == 1 and _cvc(w):
            w += "e"
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    return w


def _step2_3(w: str, table: dict[str, str]) -> str:
    suffix = _longest(w, tuple(table))
    if suffix is not None and _measure(w[: -len(suffix)]) > 0:
        w = w[: -len(suffix)] + table[suffix]
    return w


def _step4(w: str) -> str:
    suffix = _longest(w, _STEP4)
    if suffix is None:
        return w
    stem = w[: -len(suffix)]
    if suffix == "ion" and not stem.endswith(("s", "t")):
        return w
    return stem if _measure(stem) > 1 else w


def _step5(w: str) -> str:
    if w.endswith("e") and len(w) > 1:
        stem = w[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            w = stem
    if w.endswith("ll") and _measure(w) > 1:
        w = w[:-1]
    return w


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """``word`` (lower case) stemmed as FTS5's ``porter`` tokenizer stems it."""
    if word.isascii():
        return _stem(word)
    # FTS5 stems UTF-8 bytes: each byte of a non-ASCII character is a consonant of its
    # own (a "ß" is two of them). Stand each byte in for a character of its own, stem,
    # and turn the characters back into the bytes they stand for.
    raw = word.encode()
    stemmed = _stem("".join(chr(0x100 + b) if b >= 0x80 else chr(b) for b in raw))
    return bytes(ord(c) - 0x100 if ord(c) >= 0x100 else ord(c) for c in stemmed).decode(errors="replace")


def _stem(word: str) -> str:
    if len(word) < 3 or len(word) > MAX_TOKEN:
        return word
    return _step5(_step4(_step2_3(_step2_3(_step1(word), _STEP2_MAP), _STEP3_MAP)))
