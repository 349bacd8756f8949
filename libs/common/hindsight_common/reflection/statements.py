"""Plain statements: find the subject of a clause, apply the predicate rules, build findings.

Subjects the rules understand: the speaker ("I ..."), a relative or friend ("my sister
(Anna) ...", "she ..." right after one), a named pet ("my dog Max"), and an attribute of the
speaker ("my birthday is ..."). Everyone else ("she said", "nobody likes") is skipped: the
reflector only records what a speaker says about themselves and their own people.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hindsight_common.reflection.english import (
    MONTH,
    clip,
    conjugate_lead,
    is_hypothetical,
    split_clauses,
    split_leading_frame,
    split_leading_time,
    starts_with_i,
    strip_discourse,
    third_person,
    topic,
)
from hindsight_common.reflection.lexicon import (
    NATURAL_LANGUAGES,
    POSSESSIONS,
    REPORTING_WORDS,
    ROLE_MODIFIERS,
    ROLES,
)
from hindsight_common.reflection.predicates import Slot, is_job, make_predicate, match_predicate
from hindsight_common.reflection.preferences import fronted
from hindsight_common.reflection.stance import momentary
from hindsight_common.reflection.shapes import (
    NOT_NAMES,
    NOT_THINGS,
    ROLE_IS_NAME,
    SELF_INTRO,
    THING_FACTS,
    ellipsis,
    shared_subject,
)


@dataclass(frozen=True)
class Voice:
    """Who is speaking, as the content names them, and who "you" is."""

    name: str  # "Caroline", or "the user" for an anonymous user
    other: str  # "Melanie", or "the assistant"


@dataclass(frozen=True)
class Finding:
    """One memory found in one sentence, before provenance is attached."""

    kind: str
    key: str
    value: str
    content: str
    confidence: float
    reasoning: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Role:
    canonical: str  # "sister", "best_friend"
    subject: str  # the words that named them: "My sister Yuki"
    plural: bool = False  # "my kids", "my parents": verbs come in the base form


_ROLE = re.compile(
    r"^[Mm]y\s+(?P<mods>(?:[a-z]+\s+){0,2}?)(?P<role>best friend|best mate|team lead|tech lead|"
    r"line manager|[a-z-]+)(?P<poss>'s)?"
    r"(?:,?\s+(?P<n>[A-Z][a-z]+)\b,?)?\s*(?P<rest>.*)$", re.DOTALL)  # "my manager, Dana, is"
# "my twin brother": a word that is both a role and a modifier modifies the role after it.
_ROLE_MODIFIED = re.compile(_ROLE.pattern.replace("{0,2}?", "{1,2}").replace(
    "best friend|best mate|team lead|tech lead|line manager|[a-z-]+",
    "|".join(sorted(ROLES, key=len, reverse=True))),
    re.DOTALL)
_PET = re.compile(r"^[Mm]y\s+(?:[a-z]+\s+)?(?P<pet>[a-z]+)\s+(?P<n>[A-Z][a-z]+)\b")
_PET_NAMED = re.compile(r"^[Mm]y\s+(?:[a-z]+\s+)?(?P<pet>[a-z]+)(?:'s name is|'s called| is called|"
                        r" is named| goes by| answers to)\s+(?P<n>[A-Z][a-z]+)\b")
# "We ..." and "My wife and I ...": the speaker is one of the subjects. Plans, events,
# possessions and a home are shared; tastes and personal facts are not read from them.
_WE = re.compile(r"^(?:[Ww]e(?P<c>'re|'ve|'ll|'d| are| have| will)?|[Mm]y (?P<role>[a-z]+)"
                 r"(?: (?P<n>[A-Z][a-z]+))? and I(?P<c2>'re|'ve|'ll| are| have| will)?)\b\s*"
                 r"(?P<rest>.*)$", re.DOTALL)
_WE_LEAD = {"'re": "I'm", " are": "I'm", "'ve": "I've", " have": "I've", "'ll": "I'll",
            " will": "I'll", "'d": "I'd"}
_SHARED_DOMAINS = frozenset({"plan", "event", "possession"})
_PRONOUN = re.compile(r"^(?:he|she)\b\s*(?P<rest>.*)$", re.DOTALL | re.IGNORECASE)
_ATTRIBUTE = re.compile(r"^(?:[Mm]y\s+)?(?P<attr>[a-z][a-z -]{0,30}?)\s+(?:is|are|was|has to be|"
                        r"would be|must be)\s+"
                        r"(?P<v>.+)$", re.DOTALL)
_NAME_IS = re.compile(r"^name is (?P<n>[A-Z][\w'-]+)")
# "my <attribute> is ..." phrases that are talk, not facts ("my point is", "my bad").
_NOT_ATTRIBUTES = frozenset({
    "point", "question", "guess", "bad", "problem", "issue", "concern", "idea", "thought",
    "opinion", "pleasure", "fault", "turn", "take", "understanding", "feeling", "impression",
    "hope", "worry", "answer", "mistake", "god", "gosh", "goodness", "advice", "suggestion",
    "request", "reason", "excuse", "apologies", "head", "heart", "day", "week", "code",
})
_PASSING = re.compile(r"^(?:delayed|late|cancel+ed|running|broken|ready|done|full|empty|gone|"
                      r"over|down|up|off|out|fine|ok|okay|dead|stuck|missing|lost|here|there|"
                      r"on its way|acting up|playing up|killing me|dying|charging|on silent|"
                      r"almost dead|overheating|crashing|frozen|not working|about to|nearly|almost)\b|.*\b(?:again|right now|today)$", re.IGNORECASE)
_MOMENTS = frozenset({"part", "parts", "bit", "bits", "moment", "moments", "scene", "scenes",
                      "line", "lines", "episode", "chapter"})
_FAVOURITE_MODIFIERS = frozenset({"all-time", "absolute", "ultimate", "current", "very",
                                  "personal"})
_PLURAL_ROLES = frozenset({"kids", "children", "parents", "siblings", "grandparents"})
_ATTRIBUTE_KEYS = {"name": "name", "job": "job", "occupation": "job", "profession": "job",
                   "hometown": "origin", "home town": "origin", "age": "age",
                   "native place": "origin", "birthplace": "origin", "place of birth": "origin",
                   "native town": "origin", "native village": "origin"}


def _thing_fact(clause: str, voice: Voice) -> list[Finding]:
    for pattern, attr, verb in THING_FACTS:
        if (match := pattern.match(clause)) is not None:
            value = match.group("v").strip()
            if value.split(" ")[0].lower() in NOT_THINGS:
                return []  # "This is my job for today": the thing is the conversation's
            content = _sentence_case(f"{voice.name} {verb} {value}")
            return [Finding("fact", f"personal.{attr}", value, content, 0.8,
                            f"Offline rule: stated {attr}.", ("fact", "personal"))]
    return []


def _sentence_case(text: str) -> str:
    text = text.strip().rstrip(".!,;:")
    return text[:1].upper() + text[1:] + "."


def _relation(canonical: str, phrase: str, name: str, voice: Voice) -> Finding:
    """ "my sister Yuki" -> relation.sister = Yuki ("Kenji has a sister named Yuki.")."""
    return Finding("fact", f"relation.{canonical}", name,
                   _sentence_case(f"{voice.name} has a {phrase} named {name}"), 0.85,
                   "Offline rule: named family member or friend.", ("fact", "relation"))


def _compose(slot: Slot, role: _Role | None, voice: Voice, predicate: str,
             time: str | None) -> Finding:
    if role is None:
        key, kind, confidence = f"{slot.domain}.{slot.attr}", slot.kind, slot.confidence
        subject = voice.name
    else:
        attr = slot.attr if slot.domain in {"personal", "relation"} else f"{slot.domain}.{slot.attr}"
        # "my daughter is called Iris" names the relative, like "my daughter Iris" does.
        key = f"relation.{role.canonical}" + ("" if attr == "name" else f".{attr}")
        kind = "event" if slot.kind == "event" else "fact"
        confidence = min(slot.confidence, 0.75)  # second-hand: the speaker reports someone else
        subject = third_person(role.subject, voice.name, voice.other)
    body = clip(predicate, strip_time=False)
    if time and time.lower() not in body.lower():
        body = f"{body} {time[:1].lower()}{time[1:]}"
    content = _sentence_case(f"{subject} {third_person(body, voice.name, voice.other)}")
    value = third_person(slot.value, voice.name, voice.other)
    tags = (kind, key.split(".", 1)[0]) + (("relation",) if role else ())
    return Finding(kind, key, value, content, confidence, f"Offline rule: {slot.rule}.", tags)


def _attribute(clause: str, voice: Voice, prefix: str) -> Finding | None:
    """ "my birthday is March 14" -> personal.birthday; "my favourite X is Y" -> preference."""
    clause = re.sub(r"^([Mm]y name)'s\b", r"\1 is", clause)  # "My name's Luca"
    clause = re.sub(r"^([Mm]y [a-z]+)'s(?= (?:on (?:the )?\d{1,2}(?:st|nd|rd|th)\b|on [A-Z]|in [A-Z]|"
                    rf"from [A-Z]|{MONTH}\b|\d))", r"\1 is", clause,
                    flags=re.IGNORECASE)  # "my birthday's on the 2nd of March", "... November 9th"
    match = _ATTRIBUTE.match(clause)
    if match is None:
        return None
    # A quoted title ("Heat") is the value, not the end of the clause.
    raw = re.sub(r"^[\"“]([^\"”]+)[\"”]", r"\1", match.group("v").strip())
    attr, value = match.group("attr").strip(), clip(raw, strip_time=False)
    words = attr.split(" ")
    while len(words) > 2 and words[0] in _FAVOURITE_MODIFIERS and \
            words[1] in _FAVOURITE_MODIFIERS | {"favorite", "favourite", "fave"}:
        words = words[1:]  # "my all-time favourite film": the favourite film
    # "my gate code is 4471" is an attribute; "my code is a mess" is talk about the work.
    numbered_code = words[-1] == "code" and len(words) > 1 and any(c.isdigit() for c in value)
    if not value or len(words) > 3 or words[0] in _NOT_ATTRIBUTES or \
            (words[-1] in _NOT_ATTRIBUTES and not numbered_code):
        return None
    if _PASSING.match(value):
        return None  # "my train is delayed again": a passing state, not an attribute
    content = _sentence_case(third_person(clip(clause, strip_time=False), voice.name,
                                          voice.other))
    if words[0] in {"favorite", "favourite", "fave"} and len(words) > 1:
        if words[-1] in _MOMENTS or re.search(r"\b(?:was|were)\b", clause[:match.start("v")]):
            return None  # "my favourite part was the ending": one film, not a taste
        key = f"preference.favorite_{topic(' '.join(words[1:]))}"
        if prefix:
            key = f"{prefix}.{key}"
        return Finding("preference" if not prefix else "fact", key, value, content, 0.9,
                       "Offline rule: stated favourite.", ("preference", "preference"))
    slug = _ATTRIBUTE_KEYS.get(attr, attr.replace(" ", "_").replace("-", "_"))
    if slug == "name" and not value[:1].isupper():
        return None
    key = f"{prefix}.{slug}" if prefix else f"personal.{slug}"
    confidence = 0.9 if slug == "name" else 0.7
    return Finding("fact", key, third_person(value, voice.name, voice.other), content,
                   confidence, f"Offline rule: stated {attr}.", ("fact", key.split(".")[0]))


def _we(match: re.Match[str], voice: Voice, clause: str, time: str | None,
        frame: str | None) -> list[Finding]:
    contraction = match.group("c") or match.group("c2") or ""
    lead = _WE_LEAD.get(contraction, "I")
    predicate = conjugate_lead(f"{lead} {match.group('rest')}")
    slot = match_predicate(make_predicate(predicate, clause, time, frame))
    if slot is None or not (slot.domain in _SHARED_DOMAINS or slot.attr == "location"):
        return []
    role = match.group("role")
    if role and role.lower() in ROLES:
        who = f"{voice.name} and {voice.name}'s {role.lower()}"
        who += f" {match.group('n')}" if match.group("n") else ""
        predicate = re.sub(r"^is\b", "are", re.sub(r"^has\b", "have", predicate))
    else:
        who = f"{voice.name} (with others)"
    together = Voice(who, voice.other)
    finding = _compose(slot, None, together, predicate, time)
    return [Finding(finding.kind, finding.key, finding.value, finding.content,
                    min(finding.confidence, 0.75), finding.reasoning + " Said as 'we'.",
                    finding.tags + ("we",))]


def _fronted(clause: str, voice: Voice) -> list[Finding]:
    found = fronted(clause)
    if found is None or momentary(clause):
        return []  # "the traffic drives me mad today": this moment, not a lasting taste
    content = _sentence_case(third_person(clip(clause, strip_time=False), voice.name,
                                          voice.other))
    return [Finding("preference", f"preference.{found.attr}",
                    third_person(found.value, voice.name, voice.other), content,
                    found.confidence, f"Offline rule: {found.rule}.", ("preference", "preference"))]


def _clause(clause: str, voice: Voice, last_role: _Role | None
            ) -> tuple[list[Finding], _Role | None]:
    time, clause = split_leading_time(strip_discourse(clause))
    frame, clause = split_leading_frame(clause)
    if time is None:
        time, clause = split_leading_time(clause)
    spoken = [w.lower().strip(",.!") for w in clause.split(" ")]
    words = {w for i, w in enumerate(spoken) if i and spoken[i - 1] != "you"}  # "you suggest"
    if not clause or is_hypothetical(clause) or words & REPORTING_WORDS:
        return [], last_role
    if starts_with_i(clause):
        return _predicate(conjugate_lead(clause), None, voice, clause, time, frame), last_role
    if (we := _WE.match(clause)) is not None:
        return _we(we, voice, clause, time, frame), last_role
    if (named := _PET_NAMED.match(clause)) and POSSESSIONS.get(named.group("pet")) == "pet":
        name, animal = named.group("n"), named.group("pet")
        return [Finding("fact", "possession.pet", f"{animal} named {name}",
                        _sentence_case(f"{voice.name} has a {animal} named {name}"), 0.85,
                        "Offline rule: named pet.", ("fact", "possession"))], last_role
    if (pet := _PET.match(clause)) and POSSESSIONS.get(pet.group("pet")) == "pet":
        name, animal = pet.group("n"), pet.group("pet")
        return [Finding("fact", "possession.pet", f"{animal} named {name}",
                        _sentence_case(f"{voice.name} has a {animal} named {name}"), 0.8,
                        "Offline rule: named pet.", ("fact", "possession"))], last_role
    role_match = _ROLE_MODIFIED.match(clause)
    if role_match is None or not _is_role(role_match):
        role_match = _ROLE.match(clause)
    if role_match is not None and _is_role(role_match):
        return _role_clause(role_match, clause, voice, time)
    if last_role is not None:  # "my daughter is called Linh, she's five"
        clause = re.sub(r"^(he|she)'s (got|been)\b", r"\1 has \2", clause, flags=re.IGNORECASE)
        clause = re.sub(r"^(he|she)'s\b", r"\1 is", clause, flags=re.IGNORECASE)
    if (pronoun := _PRONOUN.match(clause)) is not None and last_role is not None:
        return _predicate(pronoun.group("rest"), last_role, voice, clause, time), last_role
    if clause.lower().startswith("my "):
        finding = _attribute(clause, voice, "")
        return ([finding] if finding else []), last_role
    if (intro := SELF_INTRO.match(clause)) is not None:
        name = intro.group("n") or intro.group("n2")
        return [Finding("fact", "personal.name", name, _sentence_case(f"{voice.name} is {name}"),
                        0.85, "Offline rule: introduced themselves.", ("fact", "personal"))
                ], last_role
    if (found := _thing_fact(clause, voice)):
        return found, last_role
    if (said := ellipsis(clause)) is not None:
        if said.startswith("My "):
            finding = _attribute(said, voice, "")
            return ([finding] if finding else []), last_role
        if starts_with_i(said):
            return _predicate(conjugate_lead(said), None, voice, said, time, frame), last_role
    return _fronted(clause, voice), last_role


def _is_role(match: re.Match[str]) -> bool:
    mods = match.group("mods").split()
    role = match.group("role").lower()
    return role in ROLES and all(m in ROLE_MODIFIERS for m in mods)


def _role_clause(match: re.Match[str], clause: str, voice: Voice, time: str | None
                 ) -> tuple[list[Finding], _Role | None]:
    raw = match.group("role").lower()
    canonical = ROLES[raw]
    subject = clause[: match.start("rest")].strip()
    role = _Role(canonical, subject, raw in _PLURAL_ROLES)
    phrase = f"{match.group('mods')}{raw}"  # "younger sister"
    rest = match.group("rest")
    if match.group("poss") and re.match(r"(?:a|an) [a-z]|(?:from|in) [A-Z]", rest):
        rest = f"is {rest}"  # "my dad's a retired plumber", "my sister's from Cork"
    elif match.group("poss"):
        if (named := _NAME_IS.match(rest)) is not None:
            return [_relation(canonical, phrase, named.group("n"), voice)], role
        finding = _attribute(rest, voice, f"relation.{canonical}")
        if finding is not None:
            content = _sentence_case(third_person(clip(clause, strip_time=False),
                                                  voice.name, voice.other))
            finding = Finding(finding.kind, finding.key, finding.value, content,
                              min(finding.confidence, 0.75), finding.reasoning,
                              finding.tags + ("relation",))
        return ([finding] if finding else []), role
    findings: list[Finding] = []
    if match.group("n"):
        findings.append(_relation(canonical, phrase, match.group("n"), voice))
    elif (named := ROLE_IS_NAME.match(rest)) is not None and \
            named.group("n").lower() not in NATURAL_LANGUAGES | NOT_NAMES:
        # "My team lead is Priya": the role's name, as "my team lead Priya" gives it.
        return [_relation(canonical, phrase, named.group("n"), voice)], role
    findings.extend(_predicate(rest, role, voice, clause, time))
    return findings, role


def _predicate(predicate: str, role: _Role | None, voice: Voice, clause: str,
               time: str | None, frame: str | None = None) -> list[Finding]:
    ruled = predicate
    if role is not None and role.plural:
        # The rules read third-person singular verbs; "my kids love" reads as "loves".
        ruled = conjugate_lead(f"I {predicate}")
    slot = match_predicate(make_predicate(ruled, clause, time, frame))
    if slot is None:
        return []
    # The content uses the predicate as said, adverbs included ("just moved to Osaka").
    found = _compose(slot, role, voice, predicate, time)
    named = _JOB_THEN_NAME.match(found.value) if role is None and found.key.startswith("relation.") \
        else None
    if named is None or not is_job(named.group("job").split(" ")[-1]):
        return [found]
    # "I'm married to a pilot called Suvi": the relative's name, and their job under them
    job = named.group("job")
    article = "an" if job[:1] in "aeiou" else "a"
    return [replace(found, value=named.group("n")),
            Finding("fact", f"{found.key}.job", job, _sentence_case(
                f"{voice.name}'s {found.key.split('.')[1]} {named.group('n')} is {article} {job}"),
                min(found.confidence, 0.75), found.reasoning, ("fact", "relation"))]


_JOB_THEN_NAME = re.compile(r"^(?:a|an) (?P<job>[a-z][a-z -]{2,30}?) (?:called|named) (?P<n>[A-Z][\w'-]+)$")


# "I used to live in Perth but now I'm in Hobart": only the part after "now" holds today.
_USED_TO_NOW = re.compile(
    r"^I used to (?P<verb>[a-z]+) (?P<obj>[^,]+?),? but (?:now|these days|nowadays),? "
    r"(?P<now>I\b.+)$", re.IGNORECASE | re.DOTALL)
_BACK_REFERENCE = re.compile(r"\s(?:them|it|those)(?P<end>\W*)$", re.IGNORECASE)
_NOW_IN = re.compile(r"^I'm (?:in|at) (?=[A-Z])")


def _now_part(text: str) -> str:
    """The current half of "I used to X but now Y", its "them" filled in ("I used to love
    energy drinks but now I can't stand them"); any other text as it is."""
    match = _USED_TO_NOW.match(text.strip())
    if match is None:
        return text
    now, verb = match.group("now"), match.group("verb").lower()
    if verb in {"live", "work"} and _NOW_IN.match(now):  # "... but now I'm in Hobart"
        now = _NOW_IN.sub("I live in " if verb == "live" else "I work at ", now)
    return _BACK_REFERENCE.sub(lambda m: f" {match.group('obj')}{m.group('end')}", now)


# What a value given up starts with, dropped when the same sentence names the new thing.
_GIVEN_UP = ("quit ", "gave up ", "stopped ", "ditched ", "dropped ", "cut out ")


def statement_findings(text: str, voice: Voice) -> list[Finding]:
    """Every finding in the clauses of one sentence (no markers, no questions).

    "I no longer live in Paris, I moved to Nantes": the ended value is dropped when the
    same sentence gives the slot its new one.
    """
    text = _now_part(text)
    findings: list[Finding] = []
    last_role: _Role | None = None
    for clause in (part for whole in split_clauses(text) for part in shared_subject(whole)):
        found, last_role = _clause(clause, voice, last_role)
        findings.extend(found)
    current = {f.key for f in findings if not f.value.startswith("no longer ")}
    if any(f.value.startswith("switched to ") for f in findings):
        # "I quit coffee in January and switched to green tea": the change of mind lands
        # on the new thing; what was given up is not a memory of its own.
        findings = [f for f in findings if not f.value.startswith(_GIVEN_UP)]
    return [f for f in findings if not (f.value.startswith("no longer ") and f.key in current)]

