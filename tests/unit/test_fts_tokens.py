"""The in-memory BM25 index cuts and stems words as SQLite FTS5's ``porter unicode61``
tokenizer does: checked against FTS5 itself, word by word and sentence by sentence."""

from __future__ import annotations

import sqlite3

import pytest

from hindsight_common.text.fts_tokens import tokens
from hindsight_common.text.porter import stem

ROOTS = ["relat", "condit", "gener", "nation", "rat", "hop", "fil", "feed", "agre", "troubl", "siz",
         "hiss", "fizz", "fall", "control", "roll", "cry", "happ", "sky", "say", "by", "yy", "oy", "tann",
         "motor", "plaster", "sens", "electr", "adopt", "depend", "formal", "digit", "effect"]
SUFFIXES = ["", "ational", "tional", "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli",
            "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti",
            "biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance",
            "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "sion", "tion", "ou",
            "ism", "ate", "iti", "ous", "ive", "ize", "e", "ed", "ing", "s", "es", "ies", "sses", "eed",
            "y", "ly", "ll", "at", "bl", "iz"]


def fts5_tokens(texts: list[str]) -> list[list[str]]:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", list(enumerate(texts, 1)))
    found: dict[int, list[tuple[int, str]]] = {}
    for term, doc, offset in db.execute("SELECT term, doc, offset FROM v"):
        found.setdefault(doc, []).append((offset, term))
    return [[term for _, term in sorted(found.get(i, []))] for i in range(1, len(texts) + 1)]


@pytest.mark.parametrize(("word", "stemmed"), [
    ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("cats", "cat"), ("feed", "feed"),
    ("agreed", "agre"), ("plastered", "plaster"), ("motoring", "motor"), ("sing", "sing"),
    ("conflated", "conflat"), ("sized", "size"), ("hopping", "hop"), ("falling", "fall"),
    ("filing", "file"), ("happy", "happi"), ("relational", "relat"), ("conditional", "condit"),
    ("generalization", "gener"), ("electricity", "electr"), ("adjustment", "adjust"),
    ("adoption", "adopt"), ("controlling", "control"), ("ab", "ab"),
])
def test_the_papers_examples(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_every_root_and_suffix_stems_as_fts5_does() -> None:
    words = sorted({r + a + b for r in ROOTS for a in SUFFIXES for b in SUFFIXES[:25]})
    expected = fts5_tokens(words)
    wrong = [(w, e, stem(w)) for w, e in zip(words, expected, strict=True) if e != [stem(w)]]
    assert len(words) > 40_000 and wrong == []


def test_sentences_cut_as_fts5_cuts_them() -> None:
    texts = [
        "Caroline: I went to the LGBTQ support group on 7 May 2023 — it was so powerful!",
        "snake_case o'brien rock'n'roll 3.14 v2.0.1 e-mail me@example.com #tag",
        "Café naïve résumé Ærø straße İstanbul ﬁne 東京 タワー x²y ① Ωmega",
        "decomposed e\u0301te\u0301 and precomposed été, ÀÉÎÕÜ ñandú Øre",
        "emoji 😀 between words, tabs\tand\nnewlines",
        "",
    ]
    assert [tokens(t) for t in texts] == fts5_tokens(texts)
