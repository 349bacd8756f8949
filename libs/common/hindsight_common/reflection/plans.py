"""Plan rules: trips, bookings, time off and dated intentions ("is moving to Lyon in May").

A plan is an `event` with a `plan.<verb>` key (`plan.trip` for travel). It needs a time that
can anchor it ("next month", "on Friday"), except for trips to a named place and explicit
intentions ("plans to ...").
"""

from __future__ import annotations

from hindsight_common.reflection.english import clip, ing_to_base, topic
from hindsight_common.reflection.lexicon import ERRANDS, PARTICLES
from hindsight_common.reflection.slots import (
    PRONOUN_OBJECT,
    Predicate,
    Slot,
    place_like,
    rx,
    value_of,
)

_TRAVEL = rx(r"^(?:is|are)\s+(?P<verb>going|heading|flying|travell?ing|driving|off)\s+"
              r"(?:back\s+|out\s+|over\s+|down\s+|up\s+|home\s+)?to\s+(?P<v>.+)")
_VISIT = rx(r"^is visiting\s+(?P<v>.+)")
_GOING_ING = rx(r"^(?:is|are) going (?:wild |solo |night |off-grid )?(?P<act>[a-z]+ing) (?:in|to|around|through|across|on|at)"
                 r"\s+(?P<v>.+)")
_TAKING_ING = rx(r"^is taking (?:\w+ ){1,3}?(?P<act>[a-z]+ing) (?:in|to|around|through|across|on|at)"
                  r"\s+(?P<v>.+)")
_TRAVEL_ING = frozenset({"flying", "driving", "travelling", "traveling", "heading", "sailing",
                         "cycling", "hiking", "backpacking", "touring"})
_BOOKED = rx(r"^(?:has )?(?:just |already |finally )?(?:booked|reserved)\s+(?P<v>.+)")
_TRIP_WORDS = rx(r"\b(?:flights?|trip|holiday|vacation|cabin|hotel|cottage|train|ferry|villa|"
                  r"airbnb|campsite|b&b|hostel|tickets? to|week in|weekend in|cruise)\b")
_TIME_OFF = rx(r"^is taking (?:a|an|the|\w+) (?:[\w-]+ )?(?:week|weeks|days?|months?|time|"
                r"fortnight)(?: off)?\b(?P<rest>.*)$")
_TRAVEL_VERB = rx(r"\bto (?:go|visit|travel|see|hike|explore|fly|drive|tour)\b")
_WILL_BE = rx(r"^will be (?:in|at|back in|visiting)\s+(?P<v>.+)")
_TRIP_NOUN = rx(r"^is (?:planning|organi[sz]ing|booking|taking|going on)\s+(?:a|an|the|my|our)"
                 r"\s+(?:[\w-]+\s+)?(?:trip|vacation|holiday|getaway|road trip)\b")
_INTENT = rx(r"^(?:is planning|plans|is intending|intends|has decided|is scheduled|"
              r"is aiming|aims)\s+(?:to|on)\s+(?P<verb>[a-z]+)")
_PLANNING_NOUN = rx(r"^is planning (?:a|an|the|my|our)\s+(?P<v>.+)")
_WILL = rx(r"^will (?P<verb>[a-z]+)\b")
# Any other "is <verb>ing" with a date is a plan, except verbs of state or thought.
_PROGRESSIVE_ANY = rx(r"^is (?P<verb>[a-z]{2,}ing)\b")
_NOT_PLAN_VERBS = frozenset({"feeling", "thinking", "wondering", "hoping", "trying", "wanting",
                             "looking", "waiting", "being", "saying", "telling", "asking",
                             "struggling", "considering", "dreading", "missing", "loving",
                             "enjoying", "hating", "liking", "sitting", "staying", "reading"})
_PROGRESSIVE = rx(r"^is (?P<verb>moving|starting|getting|having|taking|leaving|joining|"
                   r"quitting|retiring|graduating|meeting|attending|hosting|celebrating|"
                   r"launching|beginning|throwing|running)\b")

def errand(place: str) -> bool:
    """True for an everyday destination ("the gym", "bed", "work"), which is no trip."""
    words = place.lower().split(" ")
    if words[:1] in (["the"], ["my"], ["a"]):
        words = words[1:]
    return " ".join(words[:2]) in ERRANDS or (words[:1] != [] and words[0] in ERRANDS)


def _with_particle(verb: str, after: str) -> str:
    """ "sign" + " up for a triathlon" -> "sign_up": a particle stays in the key."""
    particle = after.strip().split(" ")[0].lower().strip(",.!")
    return f"{verb}_{particle}" if particle in PARTICLES else verb


def plan(p: Predicate) -> Slot | None:
    """A trip or a plan with a date: "is flying to Oslo next month", "plans to repaint ..."."""
    def trip(value: str) -> Slot:
        return Slot("event", "plan", "trip", value, 0.7, "announced trip")

    if (match := _TRAVEL.match(p.text)) is not None:
        dest = value_of(match)
        if errand(dest):
            return None  # "heading to the gym later": an errand, not a trip
        if match.group("verb").lower() != "going":
            return trip(dest) if dest else None
        if place_like(dest) and (dest[0].isupper() or p.future_time):
            return trip(dest)
        first, _, after = dest.lower().partition(" ")
        if p.future_time and first.isalpha():
            verb = _with_particle(first, after)  # "going to sign up" -> plan.sign_up
            return Slot("event", "plan", verb, dest, 0.7, "announced plan")
        return None
    if (match := _VISIT.match(p.text)) is not None and p.future_time:
        return trip(value_of(match))
    if (match := _GOING_ING.match(p.text)) is not None:
        dest = value_of(match)
        if dest and (dest[0].isupper() or p.future_time):
            return trip(f"{match.group('act').lower()} in {dest}")
    if (match := _TAKING_ING.match(p.text)) is not None:  # "taking the kids camping in Wales"
        dest = value_of(match)
        if dest and (dest[0].isupper() or p.future_time):
            return trip(f"{match.group('act').lower()} in {dest}")
    if (match := _BOOKED.match(p.text)) is not None:
        booked = value_of(match)
        if _TRIP_WORDS.search(booked):
            return trip(booked)
        if p.future_time or p.time:
            return Slot("event", "plan", "book", booked, 0.7, "stated booking")
    if (match := _TIME_OFF.match(p.text)) is not None:
        if _TRAVEL_VERB.search(match.group("rest")) or place_like(match.group("rest").strip()):
            return trip(clip(p.text, strip_time=False).removeprefix("is taking "))
        if p.future_time:
            return Slot("event", "plan", "time_off", clip(p.text, strip_time=False), 0.65,
                        "stated time off")
    if (match := _WILL_BE.match(p.text)) is not None and p.future_time:
        dest = value_of(match)
        return trip(dest) if dest[:1].isupper() else None
    if _TRIP_NOUN.match(p.text) is not None:
        return trip(clip(p.text, strip_time=True))
    if (match := _INTENT.match(p.text)) is not None:
        verb = _with_particle(ing_to_base(match.group("verb")), p.text[match.end():])
        return Slot("event", "plan", verb, clip(p.text, strip_time=False), 0.7, "stated plan")
    if (match := _PLANNING_NOUN.match(p.text)) is not None and topic(match.group("v")):
        return Slot("event", "plan", topic(match.group("v")), value_of(match), 0.7, "stated plan")
    timed = (_WILL.match(p.text) or _PROGRESSIVE.match(p.text)) if p.future_time else None
    if timed is None and p.future_time and (any_ing := _PROGRESSIVE_ANY.match(p.text)):
        timed = None if any_ing.group("verb").lower() in _NOT_PLAN_VERBS else any_ing
    if timed is not None:
        if _TRIP_WORDS.search(p.text[timed.end():]) or timed.group("verb").lower() in _TRAVEL_ING:
            return trip(clip(p.text, strip_time=False).removeprefix("is "))
        verb = _with_particle(ing_to_base(timed.group("verb")), p.text[timed.end():])
        # "I'll try that tomorrow": a plan about "that" is not self-contained.
        if verb == "be" or PRONOUN_OBJECT.match(p.text[timed.end():].strip()):
            return None
        return Slot("event", "plan", verb, clip(p.text, strip_time=False), 0.65, "stated plan")
    return None


