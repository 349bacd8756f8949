"""Rules over the predicate of one third-person clause ("lives in Rome", "loves jazz").

The subject has already been found and the verb conjugated ("I love" -> "loves"), so one rule
serves both "I love jazz" and "my sister loves jazz". Each rule returns a `Slot`: the domain
and attribute of the key, the value, and a confidence that reflects how explicit the wording
is. The first rule that matches wins; the order below resolves overlaps (a plan before a
location, "fan of" before "X fan").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hindsight_common.reflection.english import (
    ADVERBS,
    base_form,
    clip,
    find_time,
    ing_to_base,
    topic,
)
from hindsight_common.reflection.lexicon import (
    DIETS,
    IRREGULAR_PAST,
    JOBS,
    LIFE_EVENTS,
    NATURAL_LANGUAGES,
    NON_EVENT_PAST,
    PARTICLES,
    POSSESSIONS,
    PROGRAMMING_LANGUAGES,
    ROLES,
)


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


Rule = Callable[[Predicate], Slot | None]


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _place_like(value: str) -> bool:
    return bool(value) and (value[0].isupper() or value.lower().startswith(("a ", "the ")))


def _value(match: re.Match[str]) -> str:
    return clip(match.group("v"), strip_time=True)


_NAME = _rx(r"^(?:is called|goes by|(?:prefers|likes|wants) to be called|is named|"
            r"is known as)\s+(?P<v>.+)")
_SPOUSE = _rx(r"^is (?:happily )?(?P<how>married|engaged) to\s+(?P<v>.+)")
_STUDY = _rx(r"^(?:studies|is studying|has been studying|is majoring in|majors in|"
             r"is doing (?:a |an |my )?(?:phd|masters|master's|degree|bachelor's) in|"
             r"is (?:a |an )(?:phd |grad |graduate |college |university |med |law )?"
             r"student (?:at|in|of))\s+(?P<v>.+)")
_LEARNING = _rx(r"^(?:is learning|has been learning|is teaching (?:himself|herself) )\s*(?P<v>.+)")
_DIET = _rx(r"^(?:is|has been|is a|has been a|is strictly|eats)\s+(?:strict\s+)?"
            rf"(?P<v>{'|'.join(re.escape(d) for d in DIETS)})\b")
_ALLERGY = _rx(r"^(?:is|has been)\s+(?:severely |very |super |deathly )?allergic to\s+(?P<v>.+)"
               r"|^has (?:a |an )?(?:severe |bad )?(?P<n>[a-z]+) allergy")
_AGE = _rx(r"^(?:is|just turned|turned|is turning)\s+(?P<v>\d{1,3})(?:\s*(?:years?|yrs?)"
           r"(?:\s+old)?)?(?=\s*$|\s*[,.!;]|\s+(?:yesterday|today|last|this|on|in|and|but)\b)")
_TRAVEL = _rx(r"^(?:is|are)\s+(?P<verb>going|heading|flying|travell?ing|driving)\s+"
              r"(?:back\s+)?to\s+(?P<v>.+)")
_VISIT = _rx(r"^is visiting\s+(?P<v>.+)")
_WILL_BE = _rx(r"^will be (?:in|at|back in|visiting)\s+(?P<v>.+)")
_TRIP_NOUN = _rx(r"^is (?:planning|organi[sz]ing|booking|taking|going on)\s+(?:a|an|the|my|our)"
                 r"\s+(?:[\w-]+\s+)?(?:trip|vacation|holiday|getaway|road trip)\b")
_INTENT = _rx(r"^(?:is planning|plans|is intending|intends|has decided|is scheduled|"
              r"is aiming|aims)\s+(?:to|on)\s+(?P<verb>[a-z]+)")
_PLANNING_NOUN = _rx(r"^is planning (?:a|an|the|my|our)\s+(?P<v>.+)")
_WILL = _rx(r"^will (?P<verb>[a-z]+)\b")
_PROGRESSIVE = _rx(r"^is (?P<verb>moving|starting|getting|having|taking|leaving|joining|"
                   r"quitting|retiring|graduating|meeting|attending|hosting|celebrating|"
                   r"launching|beginning|throwing|running)\b")
_LOCATION = _rx(r"^(?:lives|is living|has been living|has lived|is based|is currently based|"
                r"resides|is residing|is settled|moved|has moved|relocated|has relocated)"
                r"\s+(?:\w+\s+)?(?:in|to)\s+(?P<v>.+)")
_ORIGIN = _rx(r"^(?:is (?:originally )?from|comes from|hails from|grew up in|"
              r"was born (?:and raised )?in|was raised in)\s+(?P<v>.+)")
_JOB_AS = _rx(r"^(?:works|is working|has been working) as\s+(?:a|an)\s+(?P<v>.+)")
_JOB_IS = _rx(r"^(?:is|has been)\s+(?:a|an)\s+(?P<v>.+)")
_EMPLOYER = _rx(r"^(?:works|is working|has worked|has been working)\s+"
                r"(?:remotely\s+|full[- ]time\s+|part[- ]time\s+|freelance\s+)?(?:at|for)\s+(?P<v>.+)")
_FIELD = re.compile(r"^(?:works|is working) in\s+(?P<v>[a-z][\w -]*)")
_PREFERENCE = _rx(
    r"^(?P<verb>loves|likes|enjoys|adores|prefers|hates|dislikes|detests|loathes|"
    r"can't stand|cannot stand|can not stand|can't get enough of|"
    r"(?:doesn't|does not) (?:like|enjoy|mind|care for)|"
    r"is (?:not |n't )?(?:a |an )?(?:(?:big|huge|massive|real|total) )?fan of|"
    r"isn't (?:a |an )?(?:(?:big|huge) )?fan of|"
    r"is (?:(?:really|totally|so|very|quite|absolutely|truly|deeply) )?(?:into|obsessed with|"
    r"passionate about|crazy about|addicted to|a sucker for)|"
    r"would prefer|would rather)\s+(?P<v>.+)")
_FAN = _rx(r"^is (?:a |an )(?:(?:big|huge|massive|die-hard|diehard|lifelong|true)\s+)?"
           r"(?P<v>[\w' .-]+?) fan\b")
_SPEAKS = _rx(r"^speaks\s+(?P<v>.+)")
_HAS = _rx(r"^(?:has got|has|owns)\s+(?P<v>.+)")
_GOT = _rx(r"^got (?P<v>married|engaged|promoted|divorced|hired|fired|accepted|laid off)\b")
_EVENT = re.compile(r"^(?P<verb>[a-z]+)(?:\s+(?P<particle>[a-z]+))?\b")
_PRONOUN_OBJECT = _rx(r"^(?:it|that|this|them|him|her|you|everything|anything|something|"
                      r"what|how|when|being)\b")
_PREPOSITIONS = frozenset({"about", "with", "for", "at", "in", "on", "from", "to", "of", "by"})
_CATEGORY_SKIP = frozenset({"a", "an", "the", "to", "use", "using", "writing", "coding", "in"})
_NEGATIVE = ("hate", "dislike", "detest", "loathe", "stand", "not", "n't")


def _name(p: Predicate) -> Slot | None:
    match = _NAME.match(p.text)
    value = _value(match) if match else ""
    if not value[:1].isupper():
        return None
    return Slot("fact", "personal", "name", value, 0.9, "stated name")


def _spouse(p: Predicate) -> Slot | None:
    match = _SPOUSE.match(p.text)
    if match is None:
        return None
    attr = "spouse" if match.group("how").lower() == "married" else "fiance"
    return Slot("fact", "relation", attr, _value(match), 0.85, "stated marriage")


def _simple(pattern: re.Pattern[str], attr: str, confidence: float, rule: str,
            place: bool = False) -> Rule:
    """A rule whose whole job is "this wording sets personal.<attr> to the captured text"."""

    def apply(p: Predicate) -> Slot | None:
        match = pattern.match(p.text)
        if match is None:
            return None
        groups = match.groupdict()
        value = _value(match) if groups.get("v") else groups.get("n") or ""
        if not value or (place and not _place_like(value)):
            return None
        return Slot("fact", "personal", attr, value, confidence, rule)

    return apply


def _plan(p: Predicate) -> Slot | None:
    def trip(value: str) -> Slot:
        return Slot("event", "plan", "trip", value, 0.7, "announced trip")

    if (match := _TRAVEL.match(p.text)) is not None:
        dest = _value(match)
        if match.group("verb").lower() != "going":
            return trip(dest) if dest else None
        if _place_like(dest) and (dest[0].isupper() or p.future_time):
            return trip(dest)
        first = dest.split(" ")[0].lower() if dest else ""
        if p.future_time and first.isalpha():
            return Slot("event", "plan", first, dest, 0.7, "announced plan")
        return None
    if (match := _VISIT.match(p.text)) is not None and p.future_time:
        return trip(_value(match))
    if (match := _WILL_BE.match(p.text)) is not None and p.future_time:
        dest = _value(match)
        return trip(dest) if dest[:1].isupper() else None
    if _TRIP_NOUN.match(p.text) is not None:
        return trip(clip(p.text, strip_time=True))
    if (match := _INTENT.match(p.text)) is not None:
        verb = ing_to_base(match.group("verb"))
        return Slot("event", "plan", verb, clip(p.text, strip_time=False), 0.7, "stated plan")
    if (match := _PLANNING_NOUN.match(p.text)) is not None and topic(match.group("v")):
        return Slot("event", "plan", topic(match.group("v")), _value(match), 0.7, "stated plan")
    timed = (_WILL.match(p.text) or _PROGRESSIVE.match(p.text)) if p.future_time else None
    if timed is not None:
        verb = ing_to_base(timed.group("verb"))
        # "I'll try that tomorrow": a plan about "that" is not self-contained.
        if verb == "be" or _PRONOUN_OBJECT.match(p.text[timed.end():].strip()):
            return None
        return Slot("event", "plan", verb, clip(p.text, strip_time=False), 0.65, "stated plan")
    return None


def _job(p: Predicate) -> Slot | None:
    match = _JOB_AS.match(p.text)
    confidence = 0.85
    if match is None:
        match, confidence = _JOB_IS.match(p.text), 0.7
    if match is None:
        return None
    words = _value(match).split(" ")
    cut = next((i for i, w in enumerate(words) if w.lower() in _PREPOSITIONS), len(words))
    title = " ".join(words[:cut])
    if not any(w.lower().strip(".,").removesuffix("s") in JOBS or w.lower() in JOBS
               for w in words[:cut]):
        return None
    return Slot("fact", "personal", "job", title, confidence, "stated occupation")


def _preference(p: Predicate) -> Slot | None:
    match = _PREFERENCE.match(p.text)
    if match is None:
        fan = _FAN.match(p.text)
        if fan is None or not topic(fan.group("v")):
            return None
        return Slot("preference", "preference", topic(fan.group("v")),
                    f"is a fan of {fan.group('v')}", 0.85, "stated fandom")
    obj = clip(match.group("v"), strip_time=True)
    verb = match.group("verb").lower()
    if not obj or _PRONOUN_OBJECT.match(obj):
        return None
    attr = topic(obj)
    if verb in {"prefers", "would prefer", "would rather"}:
        words = [w.lower().strip(".,") for w in obj.split(" ")]
        # Not topic(): it would skip "Go" as the light verb "go".
        head = next((w for w in words if w not in _CATEGORY_SKIP), "")
        if head in PROGRAMMING_LANGUAGES:
            attr = "programming_language"
        elif head in NATURAL_LANGUAGES or any(
                a == "in" and b in NATURAL_LANGUAGES for a, b in zip(words, words[1:])):
            attr = "language"
    if not attr:
        return None
    negative = any(n in verb for n in _NEGATIVE) and "mind" not in verb
    rule = "stated dislike" if negative else "stated preference"
    return Slot("preference", "preference", attr, f"{verb} {obj}", 0.9, rule)


def _speaks(p: Predicate) -> Slot | None:
    match = _SPEAKS.match(p.text)
    value = _value(match) if match else ""
    if not any(w.lower().strip(".,") in NATURAL_LANGUAGES for w in value.split(" ")):
        return None
    return Slot("fact", "personal", "language", value, 0.85, "stated language")


def _has(p: Predicate) -> Slot | None:
    match = _HAS.match(p.text)
    if match is None:
        return None
    value = _value(match)
    if value.lower().startswith("no "):
        return None
    for word in value.split(" ")[:5]:
        low = word.lower().strip(".,!")
        if low in _PREPOSITIONS:
            break
        if low in ROLES:
            return Slot("fact", "relation", ROLES[low], value, 0.8, "stated family member")
        if low in POSSESSIONS:
            return Slot("fact", "possession", POSSESSIONS[low], value, 0.8, "stated possession")
    return None


def _event(p: Predicate) -> Slot | None:
    got = _GOT.match(p.text)
    if got is not None:
        attr = "got_" + got.group("v").lower().replace(" ", "_")
        return Slot("event", "event", attr, clip(p.text, strip_time=False), 0.8, "life event")
    match = _EVENT.match(p.text)
    if match is None:
        return None
    verb = match.group("verb").lower()
    if verb in NON_EVENT_PAST or not (verb in IRREGULAR_PAST or
                                      (verb.endswith("ed") and len(verb) > 4)):
        return None
    particle = (match.group("particle") or "").lower()
    attr = f"{verb}_{particle}" if particle in PARTICLES else verb
    if p.time is None and attr not in LIFE_EVENTS and verb not in LIFE_EVENTS:
        return None
    confidence = 0.8 if p.time else 0.7
    return Slot("event", "event", attr, clip(p.text, strip_time=False), confidence, "reported event")


def _habit(p: Predicate) -> Slot | None:
    if p.habit is None:
        return None
    verb, _, rest = p.text.partition(" ")
    if verb.lower() in {"is", "has", "was", "does", "did", "says", "said", "thinks"}:
        return None
    attr = topic(f"{base_form(verb)} {rest}")
    if not attr:
        return None
    value = f"{p.habit} {clip(p.text, strip_time=False)}"
    return Slot("preference", "preference", attr, value, 0.7, f"stated habit ('{p.habit}')")


RULES: tuple[Rule, ...] = (
    _name,
    _spouse,
    _simple(_STUDY, "study", 0.85, "stated studies"),
    _simple(_LEARNING, "learning", 0.8, "stated learning"),
    _simple(_DIET, "diet", 0.85, "stated diet"),
    _simple(_ALLERGY, "allergy", 0.9, "stated allergy"),
    _simple(_AGE, "age", 0.85, "stated age"),
    _plan,
    _simple(_LOCATION, "location", 0.85, "stated residence", place=True),
    _simple(_ORIGIN, "origin", 0.85, "stated origin", place=True),
    _job,
    _simple(_EMPLOYER, "employer", 0.85, "stated employer"),
    _simple(_FIELD, "field", 0.8, "stated field of work"),
    _preference,
    _speaks,
    _has,
    _event,
    _habit,
)


def match_predicate(predicate: Predicate) -> Slot | None:
    """Apply the rules in order; return the first slot found, or None."""
    for rule in RULES:
        slot = rule(predicate)
        if slot is not None:
            return slot
    return None


_PAST_TIME = _rx(r"\b(?:last|ago|yesterday|recently|earlier|the other day)\b")


def make_predicate(text: str, clause: str, leading_time: str | None) -> Predicate:
    """Build a `Predicate` from a conjugated predicate, stripping and noting adverbs."""
    words = text.split(" ")
    habit: str | None = None
    while words and words[0].lower() in ADVERBS:
        if words[0].lower() in {"always", "never", "usually", "often", "normally",
                                "typically", "regularly"}:
            habit = words[0].lower()
        words = words[1:]
    time = leading_time or find_time(clause)
    return Predicate(" ".join(words), habit, time,
                     time is not None and _PAST_TIME.search(time) is None)
