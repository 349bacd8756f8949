"""Shapes chat gives a statement: a dropped "I", a thing as the subject, two predicates.

"Completed my first triathlon!" drops the "I"; "Lyon is where I grew up" puts the place
first; "I adore jazz and can't stand country music" gives one subject two predicates. These
helpers turn such clauses back into the shapes `statements.py` reads, or name what they
state. Pure functions over strings, standard library only.
"""

from __future__ import annotations

import re

from hindsight_common.reflection.english import starts_with_i
from hindsight_common.reflection.lexicon import IRREGULAR_PAST

# Chat drops the "I": "Completed my first triathlon on Sunday!", "Not a fan of the heat".
_ELLIPSIS = re.compile(
    r"^(?:(?:just|finally|also|really|totally|honestly|absolutely|recently)\s+)?"
    r"(?P<lead>(?:not|never) (?:a|been a) (?:big |huge |massive )?fan of|(?:a )?(?:big|huge|massive) fan of"
    r"|love|loving|adore|hate|prefer|can't stand|can't get enough of"
    r"|(?P<past>[a-z]+ed|[a-z]+)(?=\s+(?:my|a|an|the|our|his|her|their|up|out|off|back|[A-Z])\b))\b",
    re.IGNORECASE)
# Facts whose subject is the thing: "Valparaíso is where I grew up", "Izmir's my home",
# "Sound engineering is my job", "Penicillin gives me a bad allergic reaction".
THING_FACTS = (
    (re.compile(r"^(?P<v>[A-Z][\w' .-]{1,40}?) is where I (?:grew up|was born|was raised|come from|"
                r"am from|'m from)\b"), "origin", "grew up in"),
    (re.compile(r"^(?P<v>[A-Z][\w' .-]{1,40}?) is where I (?:live|am based|'m based|call home|"
                r"settled|ended up)\b"), "location", "lives in"),
    (re.compile(r"^(?P<v>[A-Z][\w' .-]{1,40}?)(?:'s| is) (?:now |still )?my (?:home|base|"
                r"home base|home now)\b"), "location", "lives in"),
    (re.compile(r"^(?P<v>[A-Z][\w' .-]{1,40}?)(?:'s| is) my (?:hometown|home town)\b"), "origin",
     "is from"),
    (re.compile(r"^(?P<v>[A-Z][\w' -]{2,40}?) is (?:my|what I do for a) (?:job|profession|trade|"
                r"line of work|day job|career|living)\b"), "job", "works in"),
    (re.compile(r"^(?P<v>[A-Z][\w' -]{1,40}?) (?:gives? me (?:a |an )?(?:really |very )?(?:bad |"
                r"terrible |severe |nasty |mild )?(?:allergic reaction|allergy|hives|rash)|sends? me "
                r"to (?:the )?(?:hospital|A&E|ER)|makes? my (?:throat|face|lips) swell)\b"),
     "allergy", "is allergic to"),
    (re.compile(r"^[Hh]ome(?: for me)?(?: these days| now)? is (?P<v>[A-Z][\w' .-]{1,40}?)(?=,|$|\.|"
                r" now| these days)"), "location", "lives in"),
)
ROLE_IS_NAME = re.compile(r"^is (?P<n>[A-Z][a-z]+)(?=\s*(?:$|[,.;!]|and\b|but\b))")
# Capitalised words that describe a person rather than name one ("my boss is Catholic").
NOT_NAMES = frozenset({
    "catholic", "christian", "muslim", "jewish", "hindu", "buddhist", "sikh", "protestant",
    "american", "british", "canadian", "australian", "indian", "irish", "scottish", "mexican",
    "brazilian", "nigerian", "kenyan", "italian", "german", "french", "spanish", "dutch",
    "english", "welsh", "chinese", "japanese", "korean", "polish", "greek", "turkish",
    "swedish", "european", "african", "asian", "latino", "latina", "republican", "democrat",
    "vegan", "gay", "deaf", "blind", "fine", "okay", "ok", "great", "amazing",
})
NOT_THINGS = frozenset({"this", "that", "it", "here", "there", "what", "which", "who", "he",
                         "she", "they", "everything", "nothing", "something", "today"})
SELF_INTRO = re.compile(r"^(?P<n>[A-Z][a-z\u00C0-\u017F'-]+) here\b(?!\s+(?:is|are|was))"
                         r"|^[Tt]he name(?:'s| is) (?P<n2>[A-Z][a-z\u00C0-\u017F'-]+)\b")
_NOT_PAST_LEADS = frozenset({"need", "want", "used", "called", "based", "excited", "tired",
                             "worried", "scared", "supposed", "interested", "obsessed",
                             "married", "engaged", "thanks", "thank", "hope", "wish", "guess",
                             "glad", "sorry", "see", "check", "try", "take", "make", "get",
                             "give", "send", "tell", "show", "let", "keep", "put", "bring"})


_LEADS = (  # a dropped subject and auxiliary, by the word that now leads
    (re.compile(r"^(?:big|huge|massive) fan of\b", re.IGNORECASE), "I'm a "),
    (re.compile(r"^not (?:big on|keen on|into|fond of|crazy about|a (?:big |huge )?fan of|much of a)\b",
                re.IGNORECASE), "I'm "),
    (re.compile(r"^(?:don't|can't|never|haven't|didn't|do not|cannot)\s(?!(?:mind|worry|know|wait|"
                r"believe|remember|think|tell|say|get|care|understand|bother)\b)", re.IGNORECASE), "I "),
    (re.compile(r"^(?:been) ", re.IGNORECASE), "I've "),
    # changes of mind: "switched to oat milk", "stopped drinking coffee", "gave up meat"
    (re.compile(r"^(?:(?:recently|finally|just) )?(?:switched (?:over )?to|moved on to|stopped \w+ing|"
                r"quit \w+ing|gave up|cut out)\s+(?!it\b|that\b|this\b|them\b)", re.IGNORECASE), "I "),
    (re.compile(r"^booked (?:us |me )?(?:a|an|the)\b", re.IGNORECASE), "I've "),
    (re.compile(r"^got (?=married|engaged|promoted|divorced|hired|fired|accepted|laid off)", re.IGNORECASE),
     "I "),
    (re.compile(r"^got (?=a|an|my|two|three)\b", re.IGNORECASE), "I've "),
    (re.compile(r"^(?:originally from|born and raised in|allergic to|based in|fluent in)\b", re.IGNORECASE),
     "I'm "),
    (re.compile(r"^(?:vegan|vegetarian|pescatarian|coeliac|celiac|teetotal)\b(?=\s*(?:$|[,.!;]|and\b|"
                r"so\b|now\b|since\b|these days|btw\b))", re.IGNORECASE), "I'm "),
    (re.compile(r"^(?:doing|heading|planning|moving|flying|driving|starting|visiting|taking|"
                r"going|sitting|training|learning|studying|working|living)\s", re.IGNORECASE), "I'm "),
    (re.compile(r"^(?:favou?rite|fave)\s+\w+\s+(?:is|has to be|would be|must be)\b", re.IGNORECASE), "My "),
    (re.compile(r"^(?:[a-z]+ )?(?:drinker|person|lover|eater|snob|addict|junkie|reader)\b"
                r"(?! (?:is|was|are|were|has|said)\b)", re.IGNORECASE), "I'm a "),
)


def ellipsis(clause: str) -> str | None:
    """ "Completed my first triathlon" -> "I completed my first triathlon", else None."""
    for pattern, subject in _LEADS:
        if pattern.match(clause):
            return subject + clause[:1].lower() + clause[1:]
    match = _ELLIPSIS.match(clause)
    if match is None:
        return None
    past = (match.group("past") or "").lower()
    if match.group("past") is not None and (
            past in _NOT_PAST_LEADS or not (past.endswith("ed") and len(past) > 4
                                            or past in IRREGULAR_PAST)):
        return None
    lead = match.group("lead")
    if re.match(r"\s+to\b", clause[match.end():]):
        return None  # "Hate to interrupt", "Love to!": politeness or a wish, not a taste
    if lead.lower().startswith(("not ", "never ")):
        rest = "I'm not" + lead[3:] if lead.lower().startswith("not") else "I've never" + lead[5:]
        return f"{rest}{clause[match.end():]}"
    return f"I {clause[:1].lower()}{clause[1:]}"




# "I adore jazz and can't stand country music": a second predicate of the same "I".
_SECOND_PREDICATE = re.compile(
    r"\s+(?:and|but)\s+(?=(?:(?:also|now|still|really)\s+)?(?:love|like|hate|enjoy|prefer|adore|"
    r"can't|cannot|don't|never|always|usually|work|live|speak|own)\b|(?:just|recently)\s+"
    r"(?:[a-z]{3,}ed|took|got|went|ran|bought|began|quit|won|met)\b|(?:switched|moved on|changed "
    r"over|went over) to\b)"
    r"|,\s+(?=(?:just\s+|recently\s+)?(?:retired|graduated|adopted|joined|married|got married|"
    r"got engaged)\b)")


def shared_subject(clause: str) -> list[str]:
    """Split "I X and Y" into "I X" and "I Y" when Y is a predicate without a subject."""
    if not starts_with_i(clause):
        return [clause]
    parts = _SECOND_PREDICATE.split(clause)
    return parts[:1] + [f"I {part}" for part in parts[1:]]


