"""Entities named in a text: people, places, organisations, products, handles, titles.

A pure, deterministic extractor (no model, no I/O), so that a rebuild of the graph
projection from the log finds exactly the same entities. What it recognises:

- capitalised spans ("Caroline", "New York", "Bank of America", "J. K. Rowling"),
  with leading articles, pronouns, honorifics, days, months and interjections dropped
  ("Thanks Caroline" -> "Caroline", "Dr. Smith" -> "Smith", "last Monday" -> nothing);
- a capitalised word that starts a sentence only when it is clearly a name: a
  possessive ("Ann's dog"), an acronym ("NASA"), camel case ("iPhone"), a vocative
  ("Melanie, that's great"), a multi-word name not opened by a common word ("Mary
  Smith went"), or a word the same text also capitalises mid-sentence;
- camel-case product names anywhere ("iPhone", "eBay");
- ``@handles`` (kept with the ``@``, so ``@pixel`` and "Pixel" stay distinct);
- quoted titles in title case ("The Name of the Wind", “Dune”), not quoted speech.

Entity *keys* (:func:`entity_key`) are what the graph matches on: NFKC, case-folded,
curly apostrophes straightened, dots dropped, spaces collapsed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from hindsight_common.text.terms import STOPWORDS

MAX_ENTITIES = 64  # per text: bounds the graph writes of one (long) document

_DAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur "
    "thurs fri sat".split()
)
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# Never an entity, wherever it stands: function words, pronouns, time words.
_STOP = (
    (STOPWORDS - {"will", "kind"})
    | _DAYS
    | _MONTHS
    | frozenset(
        """
        everyone everybody someone somebody anyone anybody nobody everything something anything
        nothing today tonight tomorrow yesterday morning afternoon evening night week weekend
        month year day ok okay yes yeah yep yup no nope oh ah aw hey hi hello bye goodbye wow
        lol haha hmm um uh omg btw fyi thanks thank congrats congratulations sorry please
        us u im ive id ill youre theyre thats whats lets
        """.split()
    )
)
# Common at the start of a sentence, so a capital there says nothing: interjections,
# adverbs, adjectives and imperative verbs. Mid-sentence they are judged like any word.
_COMMON = frozenset(
    """
    also anyway actually really maybe perhaps definitely absolutely honestly however plus
    still though although besides meanwhile otherwise instead then now later soon first
    second third finally lastly next last remember note lesson dear happy glad love just
    even only almost every many much most well so sure great good nice cool awesome amazing
    wonderful fantastic lovely beautiful brilliant perfect exactly totally basically usually
    generally hopefully especially literally probably certainly seriously obviously recently
    apparently fortunately unfortunately luckily sadly today's let look see check try make
    take give get go come tell ask keep call visit meet join read watch buy bring send show
    stop start help welcome enjoy imagine guess wait listen hope believe put set use find
    think say feel learn work play run new old big small little long great wish whatever
    """.split()
)
_PLAIN_WORDS = _STOP | _COMMON
# Words that open a multi-word place or organisation name at the start of a sentence.
_NAME_OPENERS = frozenset(
    "new san santa los las saint st mount mt lake fort port cape north south east west "
    "upper lower united central royal el la le de van von al".split()
)
_HONORIFICS = frozenset("mr mrs ms mx dr prof sir madam miss rev fr capt sgt lt col gen".split())
# Abbreviations whose dot does not end a sentence (honorifics, "St. Louis", "e.g.").
_ABBREVIATIONS = _HONORIFICS | frozenset("st mt jr sr vs etc e g approx".split())
# Acronyms are names ("US", "IT", "NASA") unless they are chat shorthand.
_ACRONYM_STOP = frozenset("ok omg lol btw fyi tbh imo asap am pm id im ive yes no hi".split())
# Lower-case words that may join two capitalised parts of one name.
_CONNECTORS = frozenset("of the de da del der den di du la le van von y & and".split())
# "and" joins "Marks and Spencer" in titles but usually two people ("Ann and Bob").
_SPAN_CONNECTORS = _CONNECTORS - {"and", "&"}
_TITLE_MINOR = frozenset("a an the and or nor but of in on at to for with by from vs".split()) | _CONNECTORS

_QUOTED = re.compile(r'"([^"\n]{1,120})"|“([^”\n]{1,120})”|‘([^’\n]{1,120})’')
_HANDLE = re.compile(r"(?<![\w@.])@([A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,48}[A-Za-z0-9_])?)")
_URL_OR_EMAIL = re.compile(r"\b(?:https?://|www\.)\S+|\S+@[\w-]+\.[\w.-]+")
_TOKEN = re.compile(
    r"(?P<word>\w+(?:['’&-]\w+)*['’]?)"  # words, with inner apostrophes and hyphens
    r"|(?P<end>[.!?…:;\n]+|\"|“|”)"  # what ends a sentence (quotes open or close one)
    r"|(?P<brk>[^\w\s])"  # any other punctuation ends a span
)
_SPACES = re.compile(r"\s+")


def entity_key(name: str) -> str:
    """The normalised key of an entity name: what graph lookups match on."""
    text = unicodedata.normalize("NFKC", name).casefold().replace("’", "'").replace(".", "")
    return _SPACES.sub(" ", text).strip(" \t\n'\"“”‘’,;:!?()[]{}")


def entity_keys(names: Iterable[str]) -> tuple[str, ...]:
    """Distinct non-empty keys of ``names``, in first-seen order."""
    return tuple(dict.fromkeys(k for k in map(entity_key, names) if k))


def merge_entities(given: Sequence[str], extracted: Sequence[str]) -> tuple[str, ...]:
    """``given`` (e.g. a memory's own entities) then ``extracted``, one name per key."""
    out: dict[str, str] = {}
    for name in (*given, *extracted):
        key = entity_key(name)
        if key and key not in out:
            out[key] = _SPACES.sub(" ", name).strip()
    return tuple(out.values())[:MAX_ENTITIES]


def document_entities(text: str, given: Sequence[str] = ()) -> tuple[str, ...]:
    """The entities of a projected document: the event's own, plus those in its text."""
    return merge_entities(given, extract_entities(text))


class _Tok:
    """One token. A plain slotted class, not a dataclass: an extraction makes one per
    word and punctuation mark, and this is the hot path of the graph projection."""

    __slots__ = ("kind", "text", "start", "end", "bare", "at")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind = kind  # "word", "end" (of a sentence), "brk" (other punctuation) or "dot" (in a name)
        self.text = text
        self.start = start
        self.end = end
        # Lower-case, straight apostrophes, possessive removed.
        low = text.lower().replace("’", "'")
        self.bare = low[:-2] if low.endswith("'s") else low.rstrip("'")
        self.at = 0  # its index in its sentence


def _capitalised(word: str) -> bool:
    return word[0].isupper() or _camel(word)


def _camel(word: str) -> bool:
    return word[0].islower() and _has_upper(word[1:])


def _has_upper(text: str) -> bool:
    if text.isascii():  # the usual case, without a loop in Python
        return text != text.lower()
    return any(c.isupper() for c in text)


def _acronym(word: str) -> bool:
    if word.isascii():
        # str.isupper: every cased character upper case, at least one of them.
        return word.isupper() and sum(c.isalpha() for c in word) >= 2
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _possessive(word: str) -> bool:
    return word.replace("’", "'").endswith(("'s", "s'"))


def _adverb_or_gerund(bare: str) -> bool:
    # Names end in -lly (Kelly, Molly) and -ily (Emily) too: only long -ly words count.
    return (len(bare) >= 7 and bare.endswith("ly") and not bare.endswith("lly")) or (
        len(bare) >= 6 and bare.endswith("ing")
    )


def _title(inner: str) -> str | None:
    """``inner`` if a quoted span reads as a title ("The Name of the Wind"), else None."""
    words = inner.split()
    if not 1 <= len(words) <= 10 or inner.rstrip()[-1:] in ".,;:" or not inner.strip()[0].isalnum():
        return None
    if not (words[0][0].isupper() or words[0][0].isdigit()):
        return None
    for w in words:
        if not (w[0].isupper() or w[0].isdigit() or w.lower().strip(",") in _TITLE_MINOR):
            return None
    if len(words) == 1 and (entity_key(words[0]) in _PLAIN_WORDS or len(words[0]) < 2):
        return None
    return _SPACES.sub(" ", inner).strip()


def _blank(text: str, start: int, end: int, keep_ends: bool = False) -> str:
    if keep_ends:  # keep the quote characters: they still end the span
        return text[: start + 1] + " " * (end - start - 2) + text[end - 1 :]
    return text[:start] + " " * (end - start) + text[end:]


def _sentences(text: str) -> list[list[_Tok]]:
    """Tokens split into sentences; abbreviation and initial dots do not end one."""
    sentences: list[list[_Tok]] = [[]]
    current = sentences[0]
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "brk"
        start, end = m.span()
        if kind == "end":
            prev = current[-1] if current else None
            if m.group(0) == "." and prev is not None and prev.kind == "word" and prev.end == start and (
                prev.bare in _ABBREVIATIONS or (len(prev.text) == 1 and prev.text.isupper())
            ):
                tok = _Tok("dot", ".", start, end)  # "Dr." / "J." / "St."
                tok.at = len(current)
                current.append(tok)
                continue
            if current:
                current = []
                sentences.append(current)
            continue
        tok = _Tok(kind, m.group(0), start, end)
        tok.at = len(current)
        current.append(tok)
    return [s for s in sentences if s]


def _lower_connector(tok: _Tok) -> bool:
    return tok.text[0].islower() and tok.bare in _CONNECTORS


def _never(tok: _Tok) -> bool:
    """Never part of a name: honorifics, function words, pronouns, days, months."""
    if tok.bare in _HONORIFICS:
        return True
    if _acronym(tok.text) and tok.bare not in _ACRONYM_STOP:
        return False
    return tok.bare in _STOP


def _spans(sentence: list[_Tok]) -> list[tuple[list[_Tok], bool]]:
    """Runs of capitalised words (joined by connectors and initials' dots), each with
    whether it opens the sentence."""
    first_word = next((t for t in sentence if t.kind == "word"), None)
    spans: list[tuple[list[_Tok], bool]] = []
    current: list[_Tok] = []
    pending: list[_Tok] = []

    def flush() -> None:
        nonlocal current, pending
        if current:
            spans.append((current, current[0] is first_word))
        current, pending = [], []

    for tok in sentence:
        if tok.kind == "word" and _capitalised(tok.text):
            current += pending + [tok]
            pending = []
        elif current and tok.kind == "dot":
            continue  # "J. K. Rowling", "St. Louis": the dot stays inside the name
        elif current and tok.kind == "word" and tok.bare in _SPAN_CONNECTORS and len(pending) < 2:
            pending.append(tok)
        elif current and tok.text == "&" and not pending:
            pending.append(tok)
        else:
            flush()
    flush()
    return spans


def _parts(span: list[_Tok], opens: bool) -> list[tuple[list[_Tok], bool]]:
    """A span cut at words that are never names; each part keeps whether it opens the
    sentence. Capitalised connectors inside a name ("Lord Of The Rings") stay in it."""
    parts: list[tuple[list[_Tok], bool]] = []
    current: list[_Tok] = []
    first = opens
    for i, tok in enumerate(span):
        inner = bool(current) and i < len(span) - 1 and tok.bare in _SPAN_CONNECTORS
        if _never(tok) and not inner:
            if current:
                parts.append((current, first))
            current, first = [], False
            continue
        current.append(tok)
    if current:
        parts.append((current, first))
    out = []
    for words, initial in parts:
        while words and _lower_connector(words[-1]):
            words = words[:-1]  # a trailing connector left by a cut
        if words:
            out.append((words, initial))
    return out


def _clearly_a_name(word: _Tok, after: Sequence[_Tok], seen_inside: set[str]) -> bool:
    """Whether a capitalised word that opens a sentence is a name by itself; ``after``
    holds the next two tokens of its sentence."""
    bare = word.bare
    if bare in _COMMON:
        return False
    if _possessive(word.text) or _camel(word.text) or _acronym(word.text) or bare in seen_inside:
        return True
    if len(after) == 2 and after[0].bare in ("and", "or", "&") and after[1].kind == "word":
        # "Ann and Bob met": coordinated with a name, it is one.
        return _capitalised(after[1].text) and not _never(after[1])
    vocative = bool(after) and after[0].text == ","
    return vocative and not _adverb_or_gerund(bare) and not bare.endswith("ed")


def _display(text: str, words: list[_Tok]) -> str:
    raw = text[words[0].start : words[-1].end]
    raw = re.sub(r"['’]s?$", "", raw)  # "Ann's" -> "Ann", "James'" -> "James"
    return _SPACES.sub(" ", raw).strip()


def _candidates(work: str) -> list[tuple[list[_Tok], bool, list[_Tok]]]:
    """Name parts with whether they open their sentence and the two tokens after them."""
    out: list[tuple[list[_Tok], bool, list[_Tok]]] = []
    for sentence in _sentences(work):
        words = [t for t in sentence if t.kind == "word"]
        if len(words) >= 3 and not any(c.islower() for t in words for c in t.text):
            continue  # SHOUTED SENTENCES: capitals carry no information
        for span, opens in _spans(sentence):
            for part, initial in _parts(span, opens):
                head = part[0]
                if initial and len(part) > 1 and head.bare not in _NAME_OPENERS and (
                    head.bare in _COMMON or _adverb_or_gerund(head.bare)
                ):
                    # "Visit New York", "Thanks Caroline": the opener is not part of it.
                    part, initial = part[1:], False
                    while part and _lower_connector(part[0]):
                        part = part[1:]
                if part:
                    out.append((part, initial, sentence[part[-1].at + 1 : part[-1].at + 3]))
    return out


def extract_entities(text: str) -> tuple[str, ...]:
    """Entity names in ``text``, in order of first appearance, one per key.

    Pure and deterministic; at most :data:`MAX_ENTITIES`. Never raises.
    """
    found: list[tuple[int, str]] = []
    work = _URL_OR_EMAIL.sub(lambda m: " " * len(m.group(0)), text)
    for m in _HANDLE.finditer(work):
        found.append((m.start(), "@" + m.group(1)))
        work = _blank(work, m.start(), m.end())
    for m in _QUOTED.finditer(work):
        inner = next(g for g in m.groups() if g is not None)
        title = _title(inner)
        if title is not None:
            found.append((m.start(), title))
            work = _blank(work, m.start(), m.end(), keep_ends=True)

    candidates = _candidates(work)
    # Capitalised words met away from a sentence start vouch for the same word at one.
    seen_inside = {t.bare for part, initial, _ in candidates if not initial or len(part) > 1 for t in part}
    for part, initial, after in candidates:
        if initial and len(part) == 1 and not _clearly_a_name(part[0], after, seen_inside):
            continue
        name = _display(work, part)
        if len(entity_key(name).replace(" ", "")) >= 2:
            found.append((part[0].start, name))

    found.sort(key=lambda f: f[0])
    return merge_entities((), [name for _, name in found])
