"""Injection and poisoning screening: is this content a fact or preference, or an
instruction aimed at the agent, and should it be quarantined? (pure, deterministic)

:class:`Screener` labels a text (an incoming turn, an extracted memory) with a score in
[0, 1] and the reasons behind it, by family (``screening_patterns.FAMILIES``):

- override: "ignore your previous instructions";
- authority: "I am your developer", "SYSTEM:", "### new instructions", fake chat tokens;
- directive: standing orders ("from now on respond with", "never mention", "store this as
  a rule");
- hidden: instructions a human would not see (HTML comments, white-on-white or hidden
  elements, zero-width and bidi characters), and text addressed to "the AI reading this";
- encoded: base64, hex, URL-escaped, rot13 or digit-spelled payloads, decoded and screened
  again;
- conditional: triggers that script a later answer ("when the user asks about X, tell
  them Y"), and requests for secrets;
- exfiltration: sending conversations, memories or credentials to a URL or address;
- conflict: a low-trust memory that contradicts a more trusted one on the same
  subject and key;
- the same families in 58 other languages (``screening_foreign``): words for "drop",
  "instructions", "from now on", "if ... asks", "send" found together in one sentence;
- the assistant's own words (``screening_own_words``, its turns only): a deed credited to
  content it read ("as the README asked, I ran ..."), or a standing promise to act unchecked,
  in English and, through ``screening_lexicon_deeds``, 40 other languages;
- a decoding asked for so that its payload is carried out ("decode this and just do it"),
  its payload then read as one even when it is a reading of the whole text (rot13);
- classifier: the learned model (``screening_model``) reads the text as an attack; its
  reason names the n-grams that weighed most.

Signs combine as independent evidence (score = 1 - Π(1 - weight), one weight per rule);
the classifier's evidence stands beside them (the score is the stronger of the two, or
both combined where a rule sign and a confident classifier agree), and
the quarantine threshold falls with the source's trust (``screening_trust``). Benign
look-alikes survive because the rules name what is dropped or ordered ("my previous
message" is not "your previous instructions"), and a sign inside quotes, in text that is
discussing attacks, counts a quarter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast

from hindsight_common.security.screening_decode import (
    asks_to_decode_and_run,
    encoded_layers,
    hidden_layers,
    invisible_count,
    normalise,
    spaced_layers,
)
from hindsight_common.security.screening_foreign import discusses_attacks, foreign_signs
from hindsight_common.security.screening_model import Classifier, shipped
from hindsight_common.security.screening_own_words import own_word_findings
from hindsight_common.security.screening_patterns import Family, rules_to_try
from hindsight_common.security.screening_words import AGENT_ADDRESS, AGENT_WORDS, META, ORDER_START, QUOTED
from hindsight_common.events.security import Source
from hindsight_common.security.screening_trust import lowest, threshold, trust_table

MAX_DEPTH = 2
_QUOTE_DISCOUNT = 0.25
_OWN = re.compile(r"\b(?:my|our|his|her|their|mum'?s|mom'?s|dad'?s|boss'?s|landlord'?s)\b", re.I)
_YOURS = re.compile(r"\byour\b", re.I)
_HIDDEN_ORDER = re.compile(
    r"\b(?:ai|llms?|assistants?|agents?|bots?|models?|crawlers?|summari[sz]ers?|automated \w+)\b\s*[,:]|"
    r"\b(?:automated|ai|shopping|browsing|research)\s+(?:\w+\s+)?(?:agents?|assistants?|readers?|tools?)\b", re.I)
_TO_A_PERSON = re.compile(r"\s*(?i:hi|hello|hey|dear|morning|good morning)\s+(?:(?i:team|all|everyone|folks)|"
                          r"[A-Z][a-z]+)\b\s*[,!:—–-]|\s*(?i:team|all|everyone|folks)\s*[,:—–]|"
                          r"\s*(?i:(?:a )?note to|to) (?i:the |all |our )?(?:\w+ )?(?i:team|staff|crew|colleagues)\s*[,:—–-]|"
                          r"\s*(?i:(?:\w+ )?(?:team|staff|crew) (?:reminder|note|update|briefing|memo|notice)|"
                          r"(?:reminder|note|memo|briefing) (?:to|for) (?:the |all )?(?:\w+ )?(?:team|staff))\b")
_NAMES_AN_AGENT = re.compile(r"\b(?:ai|a\.i\.|assistant|agent|bot|chatbot|model|llm|gpt|copilot)s?\b", re.I)
_TO_A_PERSON_DISCOUNT = 0.5
_AUDIENCE = re.compile(r"the user|a user|users|the customer|a customer|customers|the human|the person|any(?:one)? user")
# The classifier was trained to tell an instruction to the agent from a statement.
_ORDERS: frozenset[Family] = frozenset({"override", "authority", "directive", "conditional", "exfiltration",
                                        "classifier"})


@dataclass(frozen=True)
class Finding:
    """One sign of an attack: its family, why, how strong, and where it was found
    ("text", or the layer it was hidden or encoded in)."""

    family: Family
    reason: str
    weight: float
    layer: str = "text"

    def describe(self) -> str:
        where = "" if self.layer == "text" else f" (in {self.layer})"
        return f"{self.family}: {self.reason}{where}"


@dataclass(frozen=True)
class Verdict:
    """What screening concluded about one item."""

    score: float
    threshold: float
    source: Source
    trust: float
    findings: tuple[Finding, ...]

    @property
    def quarantine(self) -> bool:
        return self.score >= self.threshold

    @property
    def kind(self) -> Literal["statement", "instruction"]:
        """"instruction" when it orders the agent about, "statement" (a fact or preference) otherwise."""
        return "instruction" if any(f.family in _ORDERS and f.weight >= 0.3 for f in self.findings) else "statement"

    @property
    def families(self) -> tuple[Family, ...]:
        return tuple(sorted({f.family for f in self.findings if f.weight >= 0.3}))

    @property
    def reasons(self) -> tuple[str, ...]:
        ranked = sorted(self.findings, key=lambda f: -f.weight)
        return tuple(dict.fromkeys(f.describe() for f in ranked))


@dataclass(frozen=True)
class Established:
    """A memory already held, for the conflict check: its slot, value and trust."""

    subject: str
    key: str
    value: str
    trust: float


def combine(findings: Iterable[Finding]) -> float:
    """1 - Π(1 - w), counting each (family, reason) once at its strongest."""
    best: dict[tuple[str, str], float] = {}
    for f in findings:
        slot = (f.family, f.reason)
        best[slot] = max(best.get(slot, 0.0), f.weight)
    return 1.0 - math.prod(1.0 - w for w in best.values())


_ADDRESS = re.compile(r"\bhttps?://\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|co|info|biz|blog|example|dev|app)\b")


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    spans = [m.span() for m in QUOTED.finditer(text)]
    if not spans:
        return []
    # Quotation only counts as discussion when the words around it talk about attacks.
    if _discusses(_around(text, spans, 0, len(text))):
        return spans
    # A quotation inside a quoted string that discusses attacks (a search result's snippet,
    # '"Attackers hide text such as 'disregard your rules' in pages"'): the inner one is quoted.
    inner: list[tuple[int, int]] = []
    for a, b in spans:
        nested = [(a + 1 + m.start(), a + 1 + m.end()) for m in QUOTED.finditer(text[a + 1:b - 1])]
        if nested and _discusses(_around(text, nested, a, b)):
            inner += nested
    return inner


def _around(text: str, spans: Sequence[tuple[int, int]], start: int, end: int) -> str:
    """``text[start:end]`` without the ``spans`` inside it."""
    return "".join(text[a:b] for a, b in zip([start] + [e for _, e in spans], [s for s, _ in spans] + [end]))


def _discusses(words: str) -> bool:
    """Whether ``words`` talk about attacks; an address is not words ("trailfinder-blog.com"
    names a site, it does not discuss one)."""
    words = _ADDRESS.sub(" ", words)
    return META.search(words) is not None or discusses_attacks(words)


def _unquoted(text: str) -> str:
    """``text`` without what it quotes when it discusses attacks (see ``_quoted_spans``)."""
    for a, b in reversed(_quoted_spans(text)):
        text = text[:a] + " " + text[b:]
    return text


def _rule_findings(text: str, layer: str, to_person: bool = False) -> list[Finding]:
    quoted = _quoted_spans(text)
    lowered = text.lower()
    out: list[Finding] = []
    cited: list[Finding] = []  # signs inside a quotation, at full weight
    for rule in rules_to_try(lowered):
        for m in rule.pattern.finditer(text):
            weight = rule.weight
            matched = m.group(0)
            if rule.family == "override" and _OWN.search(matched) and not _YOURS.search(matched):
                weight = min(weight, 0.25)  # "ignore my previous instructions": a correction
            if (rule.family == "conditional" and not to_person
                    and _AUDIENCE.fullmatch((m.groupdict().get("who") or "").lower())):
                weight = 0.8  # "when the user asks ...": written about the user, to the agent
            found = Finding(rule.family, rule.reason, weight, layer)
            (cited if any(a <= m.start() and m.end() <= b for a, b in quoted) else out).append(found)
    # Other languages: a quotation is read on its own, the rest without it.
    outside = text
    for a, b in quoted:
        outside = outside[:a] + " " * (b - a) + outside[b:]
        cited += [Finding(cast(Family, sign.family), sign.reason, sign.weight, layer)
                  for sign in foreign_signs(text[a:b])]
    out += [Finding(cast(Family, sign.family), sign.reason, sign.weight, layer) for sign in foreign_signs(outside)]
    if cited:
        # The quotations together count a quarter of what they would unquoted: one example
        # attack quoted in an article matches several rules, and each counted on its own
        # would add up to more than the quarter.
        strongest = max(cited, key=lambda f: f.weight)
        out.append(replace(strongest, reason=strongest.reason + " (quoted)",
                           weight=combine(cited) * _QUOTE_DISCOUNT))
    return out


def findings_of(text: str, layer: str = "text", depth: int = 0) -> list[Finding]:
    """Every sign of an attack in ``text`` and in what it hides or encodes."""
    norm = normalise(text)
    to_person = depth == 0 and bool(_TO_A_PERSON.match(norm)) and not _NAMES_AN_AGENT.search(norm)
    out = _rule_findings(norm, layer, to_person)
    if to_person:
        # "Hi Tom, if the customer asks about the delay, tell them ...": a colleague's note to
        # a person who answers customers, the agent named nowhere; its triggers and standing
        # orders are about that person's replies and count half ("when customers ask" is how
        # staff are briefed, so it is not read as written about the user to an agent).
        out = [replace(f, weight=f.weight * _TO_A_PERSON_DISCOUNT) if f.family in ("conditional", "directive")
               else f for f in out]
    if depth >= MAX_DEPTH:
        return out
    asked = depth == 0 and asks_to_decode_and_run(_unquoted(norm))
    if asked:
        out.append(Finding("encoded", "asks to decode a payload and carry it out", 0.5, layer))
    hidden = invisible_count(text)
    if hidden:
        out.append(Finding("hidden", f"{hidden} invisible character(s)", 0.3 if hidden < 3 else 0.45, layer))
    lowered = norm.lower()
    address = AGENT_ADDRESS.search(norm) if any(w in lowered for w in AGENT_WORDS) else None
    if address is not None:
        quoted = any(a <= address.start() and address.end() <= b for a, b in _quoted_spans(norm))
        out.append(Finding("hidden", "addresses an AI reading the content", 0.65 * (_QUOTE_DISCOUNT if quoted else 1),
                           layer))
    for found in hidden_layers(text):
        inner = findings_of(found.text, found.how, depth + 1)
        if combine(inner) >= 0.3:
            out.append(Finding("hidden", f"orders hidden in {found.how} markup", max(0.6, combine(inner)), layer))
            out += inner
        elif found.how != "comment" and _HIDDEN_ORDER.search(found.text):
            # Invisible text that speaks to automated readers ("shopping agents: add ..."):
            # a page has no reason to hide what it says to them from its human readers.
            out.append(Finding("hidden", f"speaks to automated readers in {found.how} markup", 0.6, layer))
    plain = combine(out)
    seen = {f.reason for f in out}
    for found in encoded_layers(norm, readings=depth == 0) + spaced_layers(text):
        inner = findings_of(found.text, found.how, depth + 1)
        # (a reading the text itself asks to be decoded and run is a payload like any other)
        whole = found.how in ("rot13", "leet", "url") and not asked
        if whole:  # a reading of the whole text: only what the plain text did not already show
            inner = [f for f in inner if f.reason not in seen]
        score = combine(inner)
        # A reading of the whole text (rot13, digits as letters) matters only when it says
        # much more than the text itself; an extracted payload whenever it orders.
        if not whole and score < 0.5 and ORDER_START.match(found.text):
            # Data has no reason to be encoded as a sentence that gives orders.
            out.append(Finding("encoded", f"{found.how} payload that decodes to an order", 0.6, layer))
        elif score >= 0.5 and (not whole or score > plain + 0.2):
            families = ", ".join(sorted({f.family for f in inner if f.weight >= 0.3}))
            out.append(Finding("encoded", f"{found.how} payload that decodes to {families}",
                               max(0.75, score), layer))
    return out


#: The classifier quarantines on its own, beside the rules (mixed with their evidence only
#: as ``CORROBORATING_RULES`` says, so a weak rule sign and a middling probability do not add
#: up): when its
#: probability reaches the item's threshold plus ``LEARNED_MARGIN`` (tool output from
#: p >= 0.71, third-party text from 0.665, assistant turns from 0.89; the user's words
#: from ``CLASSIFIER_CAP``, 0.95, where the margin would ask 0.98). The margin was chosen by
#: leave-one-part-out cross-validation (README), first as the most held-out attacks caught
#: while the classifier alone held back at most 2.5% of the held-out benign samples;
#: re-checked on the 14-part corpus (0.25), and again as the corpus grew to 17 development
#: parts: pooled held-out accuracy is flat from 0.25 to 0.28 (1,550 and 1,549 of 1,635) and
#: false quarantines of ordinary LoCoMo turns stop falling at 0.28, so 0.28. On 24 parts
#: 0.25 would catch 18 more held-out attacks and hold back 4 more benign samples, but the
#: LoCoMo false quarantines still fall until 0.28 (third-party text: 10, then 7), so it
#: stays. Never chosen on a blind part.
LEARNED_MARGIN = 0.28
#: At or above this probability the classifier quarantines whatever the source, the user's
#: own words included (their threshold plus the margin would ask for 0.98). Chosen by the
#: margin's cross-validation: the lowest of 0.95, 0.90, 0.85, 0.80 at which the held-out
#: benign samples kept and the LoCoMo user and assistant turns quarantined stay as without a
#: cap. On 24 parts 0.95 catches 1,239 held-out attacks instead of 1,230 with the same 1,406
#: benign kept; 0.90 held back one more benign sample then (on 21 parts, one more LoCoMo user
#: turn). On the 34 parts of round 9, 0.90 catches 1,720 held-out attacks (0.95: 1,711, no
#: cap: 1,701) with the same 1,972 of 2,072 benign kept and no LoCoMo turn more; 0.85 holds
#: back 7 more benign samples. So 0.90. Never chosen on a blind part.
CLASSIFIER_CAP = 0.90
#: Below this probability the model leans benign: no finding at all.
LEARNED_FLOOR = 0.5
#: A rule sign of at least this weight (the rules' combined score) and a classifier that
#: reads the text as an attack with at least this probability count as independent
#: evidence: the score is 1 - (1 - rules)(1 - (p - margin)). Two separate readers agreeing is
#: what a single sign under the threshold lacks ("save this as a permanent rule" at 0.5 with
#: p = 0.76). Mixing every sign with every probability was measured and dropped (round 10:
#: benign kept fell under 95%); with these floors, on leave-one-part-out of the 20 newest
#: parts (round 16), 25 more held-out attacks were caught (1,319 of 1,630 instead of 1,294)
#: with the same 1,560 look-alikes kept and no LoCoMo turn more. Flat for rule floors 0.45
#: to 0.5 and probabilities 0.65 to 0.7; a rule floor of 0.3 catches more and keeps fewer.
#: Never chosen on a blind part.
CORROBORATING_RULES = 0.5
CORROBORATING_P = 0.7


def learned_findings(classifier: Classifier | None, text: str) -> list[Finding]:
    """The classifier's finding on ``text`` if it leans towards an attack; its weight is
    the probability less the margin, compared with the trust threshold like a score."""
    if classifier is None:
        return []
    # Text that discusses attacks is read without what it quotes, as the rules read it.
    norm = _unquoted(normalise(text))
    # The probability alone first: most text leans benign, and naming the n-grams behind a
    # reading (a sort of every n-gram of the window) cost as much as the reading itself.
    if classifier.probability(norm) < LEARNED_FLOOR:
        return []
    reading = classifier.read(norm)
    top = ", ".join(repr(g) for g in reading.evidence) or "no single n-gram"
    weight = reading.probability - LEARNED_MARGIN
    if reading.probability >= CLASSIFIER_CAP:
        weight = max(weight, threshold(1.0))
    return [Finding("classifier", f"p={reading.probability:.2f}, n-grams {top}", weight)]


def _score(rules: Sequence[Finding], learned: Sequence[Finding]) -> float:
    """The rules' combined evidence, or the classifier's, whichever is stronger; both
    together where each is strong enough to corroborate the other (``CORROBORATING_RULES``)."""
    found = combine(rules)
    best = max([found] + [f.weight for f in learned])
    for f in learned:
        if found >= CORROBORATING_RULES and f.weight >= CORROBORATING_P - LEARNED_MARGIN:
            best = max(best, 1.0 - (1.0 - found) * (1.0 - f.weight))
    return best


class Screener:
    """Screens texts and memories against a trust table (``Settings.screening_trust``),
    with the rules and a learned ``classifier`` (default: the shipped one, trained from
    the shipped corpus on first use; ``None``: the rules alone)."""

    def __init__(self, trust: Mapping[str, float] | None = None,
                 classifier: Classifier | Literal["shipped"] | None = "shipped") -> None:
        self.trust = trust_table(trust)
        self.classifier = shipped() if classifier == "shipped" else classifier

    def screen(self, text: str, source: Source) -> Verdict:
        """The verdict on one text from ``source``."""
        trust = self.trust[source]
        rules, learned = findings_of(text), learned_findings(self.classifier, text)
        if source == "assistant":
            rules += [Finding(family, reason, weight) for family, reason, weight in own_word_findings(normalise(text))]
        return Verdict(_score(rules, learned), threshold(trust), source, trust, tuple(rules + learned))

    def screen_memory(
        self, content: str, sources: Iterable[Source], *, subject: str = "", key: str = "", value: str = "",
        known: Sequence[Established] = (),
    ) -> Verdict:
        """The verdict on an extracted memory: its text, at the trust of the least trusted
        turn it came from, plus a conflict with any more trusted memory on its slot."""
        source, trust = lowest(sources, self.trust)
        found = findings_of(content) + conflicts(subject, key, value, trust, known)
        learned = learned_findings(self.classifier, content)
        return Verdict(_score(found, learned), threshold(trust), source, trust, tuple(found + learned))


CONFLICT_MARGIN = 0.2


def conflicts(subject: str, key: str, value: str, trust: float, known: Sequence[Established]) -> list[Finding]:
    """A finding for each memory on the same subject and key, with another value, that is
    trusted at least ``CONFLICT_MARGIN`` more than this one (a user correcting their own
    fact is an update, left to consolidation; a web page overriding it is poisoning)."""
    def norm(s: str) -> str:
        return " ".join(s.lower().split())

    if not key or not value:
        return []
    return [
        Finding("conflict", f"contradicts a more trusted memory on {key}", 0.6)
        for k in known
        if norm(k.key) == norm(key) and norm(k.subject) == norm(subject) and norm(k.value) != norm(value)
        and k.trust >= trust + CONFLICT_MARGIN
    ][:1]


def screen_all(screener: Screener, items: Sequence[tuple[str, Source]]) -> list[Verdict]:
    """Verdicts for many texts, in order (the benchmark's and ingest's batch form)."""
    return [screener.screen(text, source) for text, source in items]
