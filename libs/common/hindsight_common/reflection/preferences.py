"""Preference shapes beyond "I like X": comparisons, hedges, changes of mind, "my thing".

`predicates.py` reads a conjugated predicate ("prefers Kotlin over Java"); the rules here
add the wordings people use for the same slot: "is fond of", "finds opera boring", "is not a
morning person", "switched to oat milk", "gave up smoking", and the shapes whose subject is
the thing itself: "Cold showers are my thing", "Swift beats Objective-C for me", "Window
seats over aisle seats, always". Every result is a `preference.<topic>` slot, or
`preference.programming_language` / `preference.language` when the preferred thing is one,
so that a later value for the same category supersedes the earlier one in consolidation.

Pure functions over strings, standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hindsight_common.reflection.english import ADVERBS, clip, topic
from hindsight_common.reflection.lexicon import NATURAL_LANGUAGES, PROGRAMMING_LANGUAGES
from hindsight_common.reflection.stance import conversational

_I = re.IGNORECASE
# Words that may stand before the preferred thing without naming it.
_CATEGORY_SKIP = frozenset({"a", "an", "the", "to", "use", "using", "writing", "coding", "in",
                            "plain", "modern", "write", "code", "program", "programming"})
# Lower-case spellings that are ordinary English words first ("go", "swift", "rust").
_AMBIGUOUS_LANGUAGES = frozenset({"go", "c", "r", "swift", "rust", "dart", "julia", "ruby",
                                  "lua", "perl", "scala", "elixir", "zig", "sql"})
# Words that may follow a language named as such ("Spanish with my gran", "Turkish more
# than Arabic"): anything else after it is the noun it describes ("Thai curries").
_AFTER_LANGUAGE = frozenset({
    "more", "most", "better", "best", "less", "than", "over", "to", "for", "with", "when",
    "whenever", "at", "in", "on", "by", "from", "please", "too", "instead", "if", "and", "or",
    "but", "though", "rather", "all", "any", "every", "because", "so", "as", "again", "since",
    "anyway", "mostly", "whereas", "while", "unless", "only", "i", "you", "we", "it", "is",
    "are", "was", "a", "the",
})


@dataclass(frozen=True)
class Preference:
    """A preference found by these rules: the key's attribute, its value, and the wording."""

    attr: str
    value: str
    confidence: float
    rule: str


def category(obj: str, *, strict: bool) -> str:
    """`programming_language` or `language` when `obj` starts with one, else its topic.

    `strict` asks for the name as written (capitalised or with a symbol: "Go", "C++"), so
    that "I love to go out" or "rust on the bike" are not read as languages.
    """
    words = [w.strip(".,!") for w in obj.split(" ")]
    at = next((i for i, w in enumerate(words) if w.lower() not in _CATEGORY_SKIP), len(words))
    head = words[at] if at < len(words) else ""
    low = head.lower()
    named = head[:1].isupper() or not head.isalpha()
    if low in PROGRAMMING_LANGUAGES and (named or not strict or low not in _AMBIGUOUS_LANGUAGES):
        return "programming_language"
    lowered = [w.lower() for w in words]
    if low in NATURAL_LANGUAGES and named and not _modifies_noun(words[at + 1:]) or any(
            w == "in" and set(lowered[i + 1:i + 3]) & NATURAL_LANGUAGES
            for i, w in enumerate(lowered)):  # "answers in (British) English"
        return "language"
    return topic(obj)


def _modifies_noun(after: list[str]) -> bool:
    """True when a language word is an adjective: "Thai curries", "French films".

    A language named as the preferred thing stands alone or before a function word ("I
    prefer Spanish with my gran", "Turkish more than Arabic"); one followed by a noun names
    a cuisine, a style or a people's thing, whose taste says nothing about replies.
    """
    if not after:
        return False
    word = after[0].lower()
    return word.isalpha() and word not in _AFTER_LANGUAGE and word not in ADVERBS


# --- wordings of a conjugated predicate ("is fond of X") -----------------------------------

_MILD = re.compile(
    r"^is (?P<neg>not |n't )?(?:(?:really|very|quite|so|too|that|particularly|super|pretty|"
    r"totally|always|also|much|way|far|even|more) )*(?P<verb>fond of|keen on|okay with|ok with|fine with|happy with|"
    r"crazy about|mad about|into|partial to|big on|a sucker for|"
    r"a (?:big |firm |great |huge )?believer in)\s+(?P<v>.+)$", _I)
# "a proper night owl", "a bit of a homebody": what kind of person, in a set phrase.
_IDENTITY = re.compile(
    r"^is (?P<neg>not )?(?:(?:really|definitely|totally|such|more of|much of|always been|"
    r"very much) )*(?:a|an) (?:(?:proper|real|total|complete|huge|big|massive|bit of a|"
    r"true|born|natural|hopeless|confirmed) )*(?P<v>night owl|early bird|early riser|homebody|"
    r"foodie|bookworm|couch potato|gym rat|creature of habit|introvert|extrovert|"
    r"thrill-seeker|adrenaline junkie|neat freak|clean freak|people person)\b", _I)
# "a keen birdwatcher", "an avid cyclist": a pastime said as what the speaker is.
_KEEN = re.compile(r"^is (?:a|an) (?:really )?(?:keen|avid|passionate|enthusiastic|devoted)\s+"
                   r"(?P<v>[a-z-]+(?:er|ist|or))\b", _I)
_PERSON = re.compile(
    r"^is (?P<neg>not )?(?:really |definitely |totally |more of |much more of |very much |proper |"
    r"(?:really |that )?(?:much )?of |(?:really |that )?big on being )?"
    r"(?:a|an) (?:(?:big|huge|real|total|bit of a) )?(?P<v>(?:[a-z-]+ )?[a-z-]+) "
    r"(?P<noun>person|lover|snob|addict|nerd|geek|buff|enthusiast|junkie|fanatic|drinker|"
    r"eater|reader|goer)\b"
    r"(?P<rest>.*)$", _I)
_FINDS = re.compile(
    r"^finds (?P<v>.+?) (?:(?:really|pretty|so|very|quite|kind of|a bit|rather|totally|"
    r"incredibly|super|a little|utterly|genuinely) )*(?P<adj>boring|dull|tedious|unbearable|"
    r"annoying|irritating|relaxing|soothing|calming|fun|fascinating|exhausting|overrated|"
    r"stressful|addictive|delicious|disgusting|gross|satisfying|therapeutic|pointless|"
    r"depressing|hilarious|magical|beautiful|ugly|awful|amazing|wonderful|terrifying)\b", _I)
_NEGATIVE_ADJ = frozenset({"boring", "dull", "tedious", "unbearable", "annoying", "irritating",
                           "exhausting", "overrated", "stressful", "disgusting", "gross",
                           "pointless", "depressing", "ugly", "awful", "terrifying"})
_SWITCHED = re.compile(r"^(?:has )?(?:switched|changed|swapped|moved on|converted|gone back)(?: over)?"
                       r"(?: from (?P<old>.+?))? to (?P<v>.+)$", _I)
_TRADED = re.compile(r"^(?:has )?(?:ditched|dumped|swapped|traded|exchanged|dropped) (?P<old>.+?) "
                     r"for (?P<v>.+)$|^(?:has )?replaced (?P<old2>.+?) with (?P<v2>.+)$", _I)
_CUT_OUT = re.compile(r"^(?:has )?(?:cut out (?P<v>.+?)|cut (?P<v2>[\w' -]+?) out)"
                      r"(?: (?:completely|entirely|totally|for good|altogether))*$", _I)
_GAVE_UP = re.compile(r"^(?:has )?(?:gave|given) up (?P<v>.+?)(?: for (?P<new>.+))?$", _I)
# "quit smoking" is a change of habit; "quit my job" or "quit sugar in May" a life event.
_STOPPED = re.compile(r"^(?:has )?(?:stopped|quit) (?P<v>[a-z]+ing\b.*)$", _I)
_CONSUMES = re.compile(r"^(?:doesn't|does not) (?P<verb>eat|drink|smoke|touch)\s+(?P<v>.+)$",
                       _I)


_ENDS_IN_PRONOUN = re.compile(r"^(?:it|that|this|them|him|her)\b|\b(?:it|that|this|them)"
                              r"(?:\s+(?:up|out|off|back|over|down))?\W*$"
                              r"|\b(?:it|them) to\b", _I)  # "on getting it to work"
_WOULD_PICK = re.compile(r"^would (?:much |always )?(?:take|pick|choose|go for) (?P<v>.+?) over "
                         r"(?P<other>.+)$", _I)


def _slot(obj: str, verb: str, rule: str, confidence: float = 0.85,
          strict: bool = True) -> Preference | None:
    obj = clip(obj, strip_time=True)
    if _ENDS_IN_PRONOUN.search(obj) or conversational(obj):
        return None  # "gave up trying to fix it", "fine with either": not self-contained
    attr = category(obj, strict=strict) if obj else ""
    if not attr:
        return None
    return Preference(attr, f"{verb} {obj}".strip(), confidence, rule)


def wording(predicate: str) -> Preference | None:
    """Preference wordings of a conjugated predicate that `predicates.py` does not list."""
    predicate = predicate.strip().rstrip(".!")
    if (mild := _MILD.match(predicate)) is not None:
        neg = "not " if mild.group("neg") else ""
        return _slot(mild.group("v"), f"is {neg}{mild.group('verb').lower()}",
                     "stated preference", 0.85)
    if (person := _PERSON.match(predicate)) is not None:
        slug = topic(person.group("v"))
        if not slug:
            return None
        neg = "not " if person.group("neg") else ""
        noun = person.group("noun").lower()
        return Preference(f"{slug}_{noun}", f"is {neg}a {person.group('v')} {noun}", 0.8,
                          "stated kind of person")
    if (owl := _IDENTITY.match(predicate)) is not None:
        slug = topic(owl.group("v"))
        neg = "not " if owl.group("neg") else ""
        return Preference(slug, f"is {neg}a {owl.group('v').lower()}", 0.8, "stated kind of person")
    if (keen := _KEEN.match(predicate)) is not None:
        slug = topic(keen.group("v"))
        return Preference(slug, f"is a keen {keen.group('v')}", 0.8,
                          "stated pastime") if slug else None
    if (pick := _WOULD_PICK.match(predicate)) is not None:
        return _slot(pick.group("v"), "prefers", "stated comparison", 0.85)
    if (finds := _FINDS.match(predicate)) is not None:
        adj = finds.group("adj").lower()
        return _slot(finds.group("v"), f"finds it {adj}:", "stated dislike" if adj in
                     _NEGATIVE_ADJ else "stated liking", 0.8)
    return change_of_mind(predicate)


def change_of_mind(predicate: str) -> Preference | None:
    """ "switched to oat milk", "gave up sugar (for honey)", "stopped drinking coffee"."""
    predicate = predicate.strip().rstrip(".!")
    if (switched := _SWITCHED.match(predicate)) is not None:
        return _slot(switched.group("v"), "switched to", "stated change of preference")
    if (traded := _TRADED.match(predicate)) is not None:
        new = traded.group("v") or traded.group("v2")
        return _slot(new, "switched to", "stated change of preference")
    if (cut := _CUT_OUT.match(predicate)) is not None:
        return _slot(cut.group("v") or cut.group("v2"), "cut out", "stated change of preference",
                     0.8)
    if (gave := _GAVE_UP.match(predicate)) is not None:
        if gave.group("new"):
            return _slot(gave.group("new"), "gave up " + clip(gave.group("v"), strip_time=True)
                         + " for", "stated change of preference")
        return _slot(gave.group("v"), "gave up", "stated change of preference", 0.8)
    if (stopped := _STOPPED.match(predicate)) is not None:
        return _slot(stopped.group("v"), "stopped",
                     "stated change of preference", 0.8)
    if (consumes := _CONSUMES.match(predicate)) is not None:
        return _slot(consumes.group("v"), f"doesn't {consumes.group('verb').lower()}",
                     "stated dislike", 0.8)
    return None


# --- clauses whose subject is the preferred thing ------------------------------------------

_THING = re.compile(
    r"^(?P<v>[\w'+# -]{2,40}?)(?: |'s)(?:(?:is|are|has always been|have always been)?"
    r"(?P<neg> not|n't)?|isn't|aren't)(?P<neg2> not)?(?: really| totally| definitely| so| hands down|"
    r" easily| probably| by far| without doubt| still)?"
    r" (?:more |less )?(?:kind of |sort of |kinda |sorta |pretty much |very much |just )?"
    r"(?:right up |up )?(?:my|not my) (?:absolute |all-time |ultimate |total |"
    r"number one |biggest |true |real |personal )?(?P<what>favou?rite|fave|alley|street|thing|jam|passion|cup of tea|kind of thing|weakness|"
    r"guilty pleasure|happy place|therapy|religion|go-to|comfort food|obsession)\b", _I)
_BEATS = re.compile(
    r"^(?P<v>[\w'+# .-]{1,40}?) (?:beats?|trumps?|wins? over|works better(?: for me)? than|is "
    r"(?:(?:way|much|far|a lot|so much) )?(?:better|nicer|more fun|easier) (?:for me )?than)"
    r" (?P<other>[\w'+# .-]{1,40}?)(?P<tail>(?:,? for me| for me personally|,? any day|,? every "
    r"(?:single )?time|,? hands down|,? no contest|,? by a mile|,? easily)*)$", _I)
_OVER = re.compile(
    r"^(?:give me |I'll take |me: )?(?P<v>[\w'+# -]{1,40}?) over (?P<other>[\w'+# -]{1,40}?)"
    r"(?:,)? (?:always|any day|every (?:single )?time|hands down|all day)\W*$"
    r"|^give me (?P<v2>[\w'+# -]{1,40}?) over (?P<other2>[\w'+# -]{1,40}?)\W*$", _I)
# "Crowded trains really aren't for me", "Podcasts have replaced the radio for me".
_FOR_ME = re.compile(
    r"^(?P<v>[\w'+# -]{2,40}?) (?:(?:is|are)(?: really| just| definitely| totally| so| honestly)?"
    r"(?P<neg> not)?|(?P<neg2>isn't|aren't)(?: really| just| honestly)?) (?:really )?(?:(?:just|very "
    r"much|definitely|totally) )?for me\W*$", _I)
_REPLACED = re.compile(r"^(?P<v>[\w'+# -]{2,40}?) (?:has|have) (?:(?:pretty much|basically|"
                       r"completely|totally|now) )?(?:replaced|taken over from) (?P<other>.+?)"
                       r" for me\W*$", _I)
# "Golf bores me to tears", "Opera does nothing for me", "Woodworking is how I unwind",
# "it's green tea for me now".
_THING_TASTE = re.compile(
    r"^(?P<v>[\w'+# -]{2,40}?) (?:(?P<neg>bores? me|does nothing for me|do nothing for me|"
    r"leaves? me cold|(?:is|are) (?:not|never) (?:really )?my scene)|(?:is|are) (?:how|what) I "
    r"(?:unwind|relax|switch off|de-stress|destress|recharge|live for|love)|(?:makes?|keeps?) me "
    r"(?:happy|sane|calm)|(?P<neg2>drives? me (?:mad|crazy|nuts|insane|bonkers|up the wall|round the "
    r"bend|around the bend|spare)|(?:gets?|gets? on) my nerves|(?:is|are) my pet peeve)|"
    r"(?:has|have) (?:totally |completely |basically |kind of )?taken over my (?:life|weekends?|"
    r"evenings?|free time|spare time|summers?))\b", _I)
_FOR_ME_NOW = re.compile(r"^it's (?P<v>[\w'+# -]{2,40}?) for me(?: now| these days| from now on)?\W*$",
                         _I)
_NOT_A_THING = re.compile(r"^(?:it|this|that|which|what|he|she|they|you|there|here)\b", _I)


def _taste(thing: str, negative: bool) -> Preference | None:
    """A liked thing keeps its category (a language slot); a disliked one its own topic."""
    attr = topic(thing) if negative else category(thing, strict=True)
    value = f"{'does not like' if negative else 'likes'} {thing}"
    return Preference(attr, value, 0.8, "stated preference") if attr else None


def fronted(clause: str) -> Preference | None:
    """A preference whose subject is the thing: "Jazz isn't my thing", "X over Y, always"."""
    text = clause.strip().rstrip(".!")
    if (thing := _THING.match(text)) is not None and not _NOT_A_THING.match(thing.group("v")):
        negative = bool(thing.group("neg") or thing.group("neg2")) or " not my" in text.lower() \
            or "n't" in text[thing.end("v"):thing.start("what")]
        attr = category(thing.group("v"), strict=True)
        kind = text[thing.end("what"):].strip(" ,")
        if thing.group("what").lower().startswith("fav") and re.match(r"[a-z]", kind) and topic(kind):
            attr = f"favorite_{topic(kind)}"  # "Tarte tatin is my favourite dessert"
        name = thing.group("v")
        name = name[:1].lower() + name[1:] if name[1:2].islower() else name
        value = f"{'does not like' if negative else 'likes'} {name}"
        return Preference(attr, value, 0.8, "stated preference") if attr else None
    if (for_me := _FOR_ME.match(text)) is not None and not _NOT_A_THING.match(for_me.group("v")):
        return _taste(for_me.group("v"), bool(for_me.group("neg") or for_me.group("neg2")))
    if (new := _REPLACED.match(text)) is not None and not _NOT_A_THING.match(new.group("v")):
        attr = category(new.group("v"), strict=True)
        return Preference(attr, f"switched to {new.group('v')} from {new.group('other')}", 0.8,
                          "stated change of preference") if attr else None
    if (taste := _THING_TASTE.match(text)) is not None and not _NOT_A_THING.match(taste.group("v")):
        return _taste(taste.group("v"), bool(taste.group("neg") or taste.group("neg2")))
    if (now := _FOR_ME_NOW.match(text)) is not None and not _NOT_A_THING.match(now.group("v")):
        attr = category(now.group("v"), strict=True)
        return Preference(attr, f"prefers {now.group('v')} now", 0.8,
                          "stated preference") if attr else None
    beats = _BEATS.match(text)
    if beats is not None and (beats.group("tail") or " for me " in text[:beats.start("other")]) \
            and not _NOT_A_THING.match(beats.group("v")):
        attr = category(beats.group("v"), strict=True)
        return Preference(attr, f"prefers {beats.group('v')} over {beats.group('other')}", 0.85,
                          "stated comparison") if attr else None
    if (over := _OVER.match(text)) is not None:
        thing_text = over.group("v") or over.group("v2") or ""
        other = over.group("other") or over.group("other2") or ""
        if _NOT_A_THING.match(thing_text):
            return None
        attr = category(thing_text, strict=True)
        return Preference(attr, f"prefers {thing_text} over {other}", 0.85,
                          "stated comparison") if attr else None
    return None
