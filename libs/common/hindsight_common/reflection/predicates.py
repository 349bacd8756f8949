"""Rules over the predicate of one third-person clause ("lives in Rome", "loves jazz").

The subject has already been found and the verb conjugated ("I love" -> "loves"), so one rule
serves both "I love jazz" and "my sister loves jazz". Each rule returns a `Slot`: the domain
and attribute of the key, the value, and a confidence that reflects how explicit the wording
is. The first rule that matches wins; the order below resolves overlaps (a plan before a
location, "fan of" before "X fan").
"""

from __future__ import annotations

import re
from dataclasses import replace

from hindsight_common.reflection.english import (
    ADVERBS,
    TIME_PHRASE,
    base_form,
    clip,
    find_habit,
    find_time,
    third_singular,
    topic,
)
from hindsight_common.reflection.ended import ANY_MORE, ended_without_rule, positive_form
from hindsight_common.reflection.lexicon import (
    DIETS,
    IRREGULAR_PAST,
    JOBS,
    LIFE_EVENTS,
    NATURAL_LANGUAGES,
    NON_EVENT_PAST,
    NOT_JOBS,
    PARTICLES,
    POSSESSIONS,
    ROLE_MODIFIERS,
    ROLES,
)
from hindsight_common.reflection.plans import errand, plan
from hindsight_common.reflection.preferences import category, wording
from hindsight_common.reflection.slots import (
    PRONOUN_OBJECT,
    Predicate,
    Rule,
    Slot,
    place_like,
    rx,
    value_of,
)
from hindsight_common.reflection.stance import conversational, momentary

__all__ = ["RULES", "Predicate", "Slot", "make_predicate", "match_predicate"]


_NAME = rx(r"^(?:is called|goes by|(?:prefers|likes|wants) to be called|is named|"
            r"is known as)\s+(?P<v>.+)")
_SPOUSE = rx(r"^is (?:happily )?(?P<how>married|engaged) to\s+(?P<v>.+)")
_STUDY = rx(r"^(?:studies|is studying|has been studying|is majoring in|majors in|"
             r"is doing (?:a |an |my )?(?:phd|masters|master's|degree|bachelor's) in|"
             r"is (?:a |an )(?:phd |grad |graduate |college |university |med |law )?"
             r"student (?:at|in|of))\s+(?P<v>.+)")
_LEARNING = rx(r"^(?:is learning|has been learning|is teaching (?:himself|herself|myself|themselves) )"
               r"\s*(?P<v>.+)")
_DIET = rx(r"^(?:is|has been|is a|has been a|is strictly|eats)\s+(?:strict\s+)?"
            rf"(?P<v>{'|'.join(re.escape(d) for d in DIETS)})\b")
_ALLERGY = rx(r"^(?:is|has been)\s+(?:severely |very |super |deathly )?allergic to\s+(?P<v>.+)"
               r"|^has (?:a |an )?(?:severe |bad )?(?P<n>[a-z]+) allergy")
_NUMBER_WORD = (r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
                r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|"
                r"fifty|sixty|seventy|eighty|ninety)(?:-[a-z]+)?")
_AGE = rx(r"^(?:is|just turned|turned|is turning)\s+(?P<v>\d{1,3}|" + _NUMBER_WORD + r")(?:\s*(?:years?|yrs?)"
           r"(?:\s+old)?)?(?=\s*$|\s*[,.!;]|\s+(?:yesterday|today|last|this|on|in|and|but|so|not|now)\b)")
_LOCATION = rx(r"^(?:lives|is living|has been living|has lived|is based|is currently based|"
                r"resides|is residing|is settled|moved|has moved|relocated|has relocated)"
                r"\s+(?:\w+\s+)?(?:out of\s+)?(?:with (?:my |his |her )?[\w' -]{1,30}? )?(?:in|to|out of)\s+(?P<v>.+)")
_MOVED_AWAY = rx(r"^(?:has )?(?:moved|relocated) away from\s+(?P<v>.+)")
_ORIGIN = rx(r"^(?:is (?:originally )?from|comes from|hails from|grew up in|"
              r"was born (?:and raised )?in|was raised in|came (?:over |here )?from|emigrated from|"
              r"immigrated from|moved (?:over |here )from)\s+(?P<v>.+)")
_JOB_AS = rx(r"^(?:works|is working|has been working) as\s+(?:a|an)\s+(?P<v>.+)")
_JOB_IS = rx(r"^(?:is|has been)\s+(?:a|an)\s+(?P<v>.+)")
_EMPLOYER = rx(r"^(?:(?:works|is working|has worked|has been working)\s+"
                r"(?:remotely\s+|full[- ]time\s+|part[- ]time\s+|freelance\s+)?(?:at|for)|"
                r"is (?:employed|hired|contracted|on the payroll) (?:by|at|of))\s+(?P<v>.+)")
_FIELD = re.compile(r"^(?:works|is working) in\s+(?P<v>[a-z][\w -]*)|^is in (?P<f>logistics|finance|"
                    r"banking|insurance|marketing|sales|retail|hospitality|healthcare|education|"
                    r"construction|publishing|advertising|tech|IT|consulting|accounting|journalism|"
                    r"pharma|manufacturing|recruitment|real estate|property|academia|research|"
                    r"telecoms|aviation|shipping|fintech|biotech|HR|PR|law)\b")
_PREFERENCE = rx(
    r"^(?P<verb>loves|likes|enjoys|adores|prefers|hates|dislikes|detests|loathes|"
    r"(?:can't|cannot|can not) (?:stand|handle|bear|tolerate|deal with|abide)|can't get enough of|"
    r"can't stop (?:eating|drinking|listening to|watching|playing|reading|buying)|"
    r"(?:can't|cannot) be doing with|steers (?:well |well well |very )?clear of|swears by|"
    r"reaches for|lives for|rates|"
    r"(?:doesn't|does not) (?:like|enjoy|mind|care for)|"
    r"is (?:not |n't )?(?:a |an )?(?:(?:big|huge|massive|real|total) )?fan of|"
    r"isn't (?:a |an )?(?:(?:big|huge) )?fan of|"
    r"is (?:(?:really|totally|so|very|quite|absolutely|truly|deeply|[a-z]{3,}ly) )?(?:into|obsessed with|"
    r"passionate about|crazy about|addicted to|a sucker for)|"
    r"would prefer|would rather)\s+(?P<v>.+)")
_FAN = rx(r"^is (?:a |an )(?:(?:big|huge|massive|die-hard|diehard|lifelong|true)\s+)?"
           r"(?P<v>[\w' .-]+?) (?:fan|supporter)\b")
_SPEAKS = rx(r"^(?:speaks|is fluent in|is (?:a )?native (?:speaker )?(?:of|in)|gets by in|"
             r"is conversational in|is bilingual in)\s+(?P<v>.+)")
_HAS = rx(r"^(?:has got|has|owns|keeps|is having)\s+(?P<v>.+)")
_DRIVES = rx(r"^(?:drives|rides)\s+(?P<v>(?:a|an|my|the|\w+'s)\s.+|[A-Z].+)")
_IDIOM_EVENTS = {"tied the knot": "got_married", "got hitched": "got_married",
                 "popped the question": "proposed", "said yes": "got_engaged"}
_GOT = rx(r"^got (?P<v>married|engaged|promoted|divorced|hired|fired|accepted|laid off)\b")
_EVENT = re.compile(r"^(?P<verb>[a-z]+)(?:\s+(?P<particle>[a-z]+))?\b")
_HOW_IT_WENT = rx(r"^(?:a|an|such a|the)\s+(?:[\w-]+\s+){0,2}?(?:time|day|night|evening|week|"
                   r"weekend|morning|afternoon|laugh|chat|blast|nap|rest|lie-in)\b")
_PRONOUN_END = rx(r"\b(?:it|that|this|them)(?:\s+(?:up|out|off|back|over|down))?\W*$")
_PREPOSITIONS = frozenset({"about", "with", "for", "at", "in", "on", "from", "to", "of", "by"})
_NEGATIVE = ("hate", "dislike", "detest", "loathe", "stand", "not", "n't")
_NOT_NEGATIVE = ("mind", "enough", "stop")
_NEGATIVE_VERBS = ("doing with", "clear of")
# "has always preferred vinyl", "has never liked olives": a lasting taste said in the perfect.
_PERFECT = rx(r"^has (?P<how>always |long |forever |never |honestly never |always really )?"
              r"(?P<verb>loved|liked|preferred|enjoyed|hated|adored|disliked|detested)\b")
_PRESENT = {"loved": "loves", "liked": "likes", "preferred": "prefers", "enjoyed": "enjoys",
            "hated": "hates", "adored": "adores", "disliked": "dislikes", "detested": "detests"}
# "I'd rather you didn't use emojis": how the speaker wants to be treated.
_RATHER_YOU = rx(r"^would (?:much )?(?:rather|prefer(?: it if)?) (?:you|the assistant) "
                 r"(?P<neg>didn't|did not|don't|never|wouldn't|not)? ?(?P<v>.+)")


def _name(p: Predicate) -> Slot | None:
    match = _NAME.match(p.text)
    value = value_of(match) if match else ""
    if not value[:1].isupper():
        return None
    return Slot("fact", "personal", "name", value, 0.9, "stated name")


def _moved_away(p: Predicate) -> Slot | None:
    """ "moved away from Nairobi": the old home has ended (the same slot, so it is replaced)."""
    match = _MOVED_AWAY.match(p.text)
    value = value_of(match) if match else ""
    if not place_like(value) or TIME_PHRASE.fullmatch(value):
        return None
    return Slot("fact", "personal", "location", f"no longer {value}", 0.8, "stated move away")


def _spouse(p: Predicate) -> Slot | None:
    match = _SPOUSE.match(p.text)
    if match is None:
        return None
    attr = "spouse" if match.group("how").lower() == "married" else "fiance"
    return Slot("fact", "relation", attr, value_of(match), 0.85, "stated marriage")


def _simple(pattern: re.Pattern[str], attr: str, confidence: float, rule: str,
            place: bool = False) -> Rule:
    """A rule whose whole job is "this wording sets personal.<attr> to the captured text"."""

    def apply(p: Predicate) -> Slot | None:
        match = pattern.match(p.text)
        if match is None:
            return None
        groups = match.groupdict()
        value = value_of(match) if groups.get("v") else groups.get("n") or groups.get("f") or ""
        if not value or (place and (not place_like(value) or TIME_PHRASE.fullmatch(value))):
            return None  # "moved house in April": a date, not a place
        return Slot("fact", "personal", attr, value, confidence, rule)

    return apply


_NOT_NOW = rx(r"^(?:former|ex-?|aspiring|wannabe|would-be|future)\b")
_JOB_SUFFIXES = ("ist", "ician", "grapher")
def is_job(word: str) -> bool:
    """True for a word that names a job (\"nurse\", \"pharmacist\")."""
    low = word.lower().strip(".,")
    if low.removesuffix("s") in NOT_JOBS:
        return False
    return low in JOBS or low.removesuffix("s") in JOBS or (
        len(low) > 6 and low.removesuffix("s").endswith(_JOB_SUFFIXES))


def _job(p: Predicate) -> Slot | None:
    match = _JOB_AS.match(p.text)
    confidence = 0.85
    if match is None:
        match, confidence = _JOB_IS.match(p.text), 0.7
    if match is None:
        return None
    words = value_of(match).split(" ")
    cut = next((i for i, w in enumerate(words) if w.lower() in _PREPOSITIONS), len(words))
    title = " ".join(words[:cut])
    if not any(is_job(w) for w in words[:cut]) or _NOT_NOW.search(title):
        return None  # "a former teacher", "an aspiring writer": not the job they do now
    return Slot("fact", "personal", "job", title, confidence, "stated occupation")


def _preference(p: Predicate) -> Slot | None:
    if momentary(p.text):
        return None  # "I love the sunshine today": how things are now, not a taste
    text = p.text
    if (perfect := _PERFECT.match(text)) is not None:
        verb = _PRESENT[perfect.group("verb").lower()]
        verb = f"doesn't {base_form(verb)}" if "never" in (perfect.group("how") or "").lower() \
            else verb
        text = f"{verb}{text[perfect.end():]}"
    if (rather := _RATHER_YOU.match(text)) is not None:
        obj = clip(rather.group("v"), strip_time=True)
        attr = topic(obj)
        if not attr or _PRONOUN_END.search(obj):
            return None
        neg = "didn't" if rather.group("neg") else "would"
        return Slot("preference", "preference", attr, f"would rather the other party {neg} {obj}",
                    0.85, "stated wish about replies")
    match = _PREFERENCE.match(text)
    if match is None:
        fan = _FAN.match(p.text)
        if fan is None or not topic(fan.group("v")):
            other = wording(p.text)
            return None if other is None else Slot("preference", "preference", other.attr,
                                                   other.value, other.confidence, other.rule)
        return Slot("preference", "preference", topic(fan.group("v")),
                    f"is a fan of {fan.group('v')}", 0.85, "stated fandom")
    obj = clip(match.group("v"), strip_time=True)
    verb = match.group("verb").lower()
    if not obj or PRONOUN_OBJECT.match(obj) or _PRONOUN_END.search(obj) or conversational(obj):
        return None
    negative = (any(n in verb for n in _NEGATIVE) and not any(n in verb for n in _NOT_NEGATIVE)
                ) or verb.endswith(_NEGATIVE_VERBS)
    # A liked language is a value of one shared slot, so a later one supersedes it; a
    # disliked one is not (hating Java says nothing about what is preferred now).
    attr = topic(obj) if negative else category(
        obj, strict=verb not in {"prefers", "would prefer", "would rather"})
    if not attr:
        return None
    rule = "stated dislike" if negative else "stated preference"
    return Slot("preference", "preference", attr, f"{verb} {obj}", 0.9, rule)


def _speaks(p: Predicate) -> Slot | None:
    match = _SPEAKS.match(p.text)
    value = value_of(match) if match else ""
    if not any(w.lower().strip(".,") in NATURAL_LANGUAGES for w in value.split(" ")):
        return None
    return Slot("fact", "personal", "language", value, 0.85, "stated language")


def _has(p: Predicate) -> Slot | None:
    if (drives := _DRIVES.match(p.text)) is not None:
        value = value_of(drives)
        found = next((POSSESSIONS[w.lower()] for w in value.split(" ")[:4]
                      if POSSESSIONS.get(w.lower()) in {"car", "bike", "boat"}), None)
        if found is None and re.match(r"^(?:a|an)\s+(?:(?:old|new|little|battered|vintage|red|"
                                      r"blue|black|white|silver|grey|gr[ae]y|second-hand|used|"
                                      r"electric|ancient|trusty|secondhand|second-hand|folding|rusty|beat-up|shiny)\s+)*[A-Z]", value):
            found = "car" if p.text.lower().startswith("drives") else "bike"  # "an old Land Rover"
        return Slot("fact", "possession", found, value, 0.75, "stated vehicle") if found else None
    match = _HAS.match(p.text)
    if match is None:
        return None
    value = value_of(match)
    if value.lower().startswith("no "):
        return None
    words = [w.lower().strip(".,!") for w in value.split(" ")[:5]]
    for at, low in enumerate(words):
        if low in _PREPOSITIONS:
            break
        if low in ROLE_MODIFIERS and at + 1 < len(words) and words[at + 1] in ROLES:
            continue  # "a twin sister": the role is the word after the modifier
        singular = low if low in ROLES else low.removesuffix("s") if low.endswith(("ers", "ters", "ons", "ews", "ces",
                                                             "nts", "cles")) else low
        if singular in ROLES:  # "two daughters": the role, not its plural
            return Slot("fact", "relation", ROLES[singular], value, 0.8, "stated family member")
        pair = f"{low} {words[at + 1].removesuffix('s')}" if at + 1 < len(words) else ""
        if low in POSSESSIONS or pair in POSSESSIONS:  # "two guinea pigs"
            return Slot("fact", "possession", POSSESSIONS.get(low) or POSSESSIONS[pair], value, 0.8,
                        "stated possession")
    return None


def _event(p: Predicate) -> Slot | None:
    idiom = next((v for k, v in _IDIOM_EVENTS.items() if p.text.lower().startswith(k)), None)
    if idiom is not None:
        return Slot("event", "event", idiom, clip(p.text, strip_time=False), 0.8, "life event")
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
    rest = p.text[match.end("verb"):].strip()
    if PRONOUN_OBJECT.match(rest):
        return None  # "I gave it a try yesterday": about something said before
    if verb == "had" and _HOW_IT_WENT.match(rest):
        return None  # "had a great time yesterday": how it went, not what happened
    if conversational(rest) or (verb == "went" and errand(rest.removeprefix("to ").strip())):
        return None  # "saw your message", "went to bed": the conversation, an errand
    attr = f"{verb}_{particle}" if particle in PARTICLES else verb
    if p.time is None and attr not in LIFE_EVENTS and verb not in LIFE_EVENTS:
        return None
    confidence = 0.8 if p.time else 0.7
    return Slot("event", "event", attr, clip(p.text, strip_time=False), confidence, "reported event")


# Verbs whose habit is a happening, not a taste ("always forgets the keys").
_NOT_HABITS = frozenset({"is", "has", "was", "did", "says", "said", "thinks", "forgets", "got",
                         "forgot", "thought", "knew", "had", "went", "felt",
                         "loses", "misses", "gets", "feels", "seems", "worries", "struggles",
                         "ends", "doesn't", "hasn't", "isn't", "wasn't", "waits", "wakes",
                         "arrives"})


# "never bothers with breakfast", "always goes for the window seat": the object is the taste.
_FRAME_VERBS = frozenset({"bothers", "goes", "opts", "sticks"})
_HABIT_FRAME = rx(r"^(?:with|for|to)\s+")
# Light verbs whose habit names no taste without their object ("I play most evenings").
_NEEDS_OBJECT = frozenset({"play", "watch", "use", "do", "make", "have", "take", "get", "eat",
                           "drink", "buy", "try", "practise", "practice"})


def _habit(p: Predicate) -> Slot | None:
    if p.habit is None:
        return None
    verb, _, rest = p.text.partition(" ")
    if verb.lower() in _NOT_HABITS or (verb.lower() == "does" and rest.startswith(("not", "n't"))):
        return None
    if PRONOUN_OBJECT.match(rest) or _PRONOUN_END.search(clip(rest, strip_time=True)):
        return None  # "I do it every summer": about something said before
    frame = _HABIT_FRAME.match(rest) if verb.lower() in _FRAME_VERBS else None
    if frame is None and base_form(verb.lower()) in _NEEDS_OBJECT and \
            not topic(rest.lower().replace(p.habit, " ")):
        return None  # "I play most evenings": play what? (said in the clause before)
    attr = topic(rest[frame.end():] if frame else f"{base_form(verb)} {rest}")
    if not attr:
        return None
    body = clip(p.text, strip_time=False)
    value = body if p.habit in body.lower() else f"{p.habit} {body}"
    return Slot("preference", "preference", attr, value, 0.7, f"stated habit ('{p.habit}')")


RULES: tuple[Rule, ...] = (
    _name,
    _spouse,
    _simple(_STUDY, "study", 0.85, "stated studies"),
    _simple(_LEARNING, "learning", 0.8, "stated learning"),
    _simple(_DIET, "diet", 0.85, "stated diet"),
    _simple(_ALLERGY, "allergy", 0.9, "stated allergy"),
    _simple(_AGE, "age", 0.85, "stated age"),
    plan,
    _moved_away,
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


def _first(predicate: Predicate) -> Slot | None:
    for rule in RULES:
        slot = rule(predicate)
        if slot is not None:
            return slot
    return None


def match_predicate(predicate: Predicate) -> Slot | None:
    """Apply the rules in order; return the first slot found, or None.

    An ended statement ("no longer lives in Paris", "isn't vegan any more") is read as its
    positive form, and the slot's value says it ended ("no longer Paris"): the same key, so
    consolidation replaces the old value. An ended habit with no other rule is a preference.
    """
    if not predicate.ended:
        return _first(predicate)
    positive = replace(predicate, text=positive_form(predicate.text), ended=False)
    slot = _first(positive) or ended_without_rule(positive.text)
    if slot is None:
        verb, _, rest = positive.text.partition(" ")
        attr = topic(f"{base_form(verb)} {rest}") if verb.lower() not in _NOT_HABITS else ""
        if not attr:
            return None
        return Slot("preference", "preference", attr, f"no longer {clip(positive.text, strip_time=True)}",
                    0.8, "stated change of habit")
    if slot.kind not in {"fact", "preference"}:
        return None
    return replace(slot, value=f"no longer {slot.value}", confidence=min(slot.confidence, 0.8),
                   rule=f"{slot.rule}, ended")


_PAST_TIME = rx(r"\b(?:last|ago|yesterday|recently|earlier|the other day|since)\b")
_HABIT_ADVERBS = frozenset({"always", "never", "usually", "often", "normally", "typically",
                            "regularly", "rarely", "seldom", "hardly", "generally"})
_AUXILIARIES = frozenset({"is", "has", "isn't", "hasn't", "does", "doesn't", "was", "would"})
# "tends to journal", "hardly ever eats": the verb after the marker is the predicate's.
_TENDS = rx(r"^tends to (?P<verb>[a-z]+)\b")
_NO_LONGER = rx(r"^(?:\w+ )?no longer\b")


def make_predicate(text: str, clause: str, leading_time: str | None,
                   frame: str | None = None) -> Predicate:
    """Build a `Predicate` from a conjugated predicate, stripping and noting adverbs.

    A habit is a leading frequency adverb ("always"), "tends to", or a how-often phrase
    anywhere in the clause ("twice a week"); a habit's time words never anchor a plan.
    """
    words = text.split(" ")
    habit: str | None = None
    while words and words[0].lower() in ADVERBS:
        if words[0].lower() in _HABIT_ADVERBS:
            habit = habit or words[0].lower()
        words = words[1:]
    if (tends := _TENDS.match(" ".join(words))) is not None:
        habit = habit or "tends to"
        words = [third_singular(tends.group("verb"))] + words[3:]
        while len(words) > 1 and words[1].lower() in ADVERBS:
            del words[1]
    if words and words[0].lower() in _AUXILIARIES:
        # "is now working at", "is not really into": adverbs after the auxiliary say nothing
        # about the slot.
        words = words[:1] + [w for w in words[1:4] if w.lower() not in ADVERBS or
                             w.lower() == "never"] + words[4:]
    habit = habit or find_habit(frame or "") or find_habit(clause)
    time = leading_time or find_time(clause)
    future = time is not None and _PAST_TIME.search(time) is None and (
        habit is None or habit in _HABIT_ADVERBS)
    ended = bool(_NO_LONGER.search(text) or ANY_MORE.search(clause))
    return Predicate(" ".join(words), habit, time, future, ended)
