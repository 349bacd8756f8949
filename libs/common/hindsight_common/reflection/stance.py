"""Is the speaker stating a lasting fact about themselves, or doing something else?

Three things look like statements and are not:

- a reaction to the conversation itself: "I love your second suggestion", "I prefer option
  B", "I like the blue one more" (the thing liked is only identified by what was just said);
- irony: "Oh fantastic, I adore filling in forms", "Yeah right, I love spam calls" (praise
  of a nuisance, or a lead that marks what follows as mock praise);
- hearsay: "According to my sister, I hate surprises", "He said, 'I love this city'" (someone
  else's words, even when they are about the speaker).

Each check is a pure function over one sentence or one object phrase; the rules in
`markers.py`, `predicates.py` and `preferences.py` consult them before keeping a memory.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

# --- reactions to the conversation ---------------------------------------------------------

# What the conversation just put on the table: a demonstrative, the other party or their
# work ("your photos", "the layout you made"), a choice among options ("option B", "the
# other date", "the blue one"), a musing ("the idea of moving"). "Talking to you about
# birds" is a taste, and stays.
_CONVERSATIONAL = re.compile(
    r"^(?:these|those|either|neither|both|whichever|your|yours|you)\b"
    r"|^the (?:idea|thought|sound|prospect|look|notion) of\b"
    r"|\byou(?:'ve| have)?\s+(?:just\s+)?(?:made|sent|wrote|written|suggested|gave|given|"
    r"showed|shown|shared|picked|mentioned|proposed|drew|drafted|linked|posted|recommended|"
    r"found|did|said)\b"
    r"|^(?:option|choice|version|number|draft|plan)\s+(?:[A-Za-z]|\d+|one|two|three)\b"
    r"|^the (?:[\w-]+ )?(?:one|ones)\b"
    r"|^the (?:first|second|third|fourth|last|other|latter|former|previous|next|latest|"
    r"original|shorter|longer|earlier|later|simpler|cheaper|bigger|smaller|top|bottom|"
    r"left|right|middle|new|revised|updated|final)\s+(?:one|ones|option|options|version|"
    r"versions|draft|drafts|choice|suggestion|suggestions|idea|ideas|date|dates|time|slot|"
    r"design|layout|answer|reply|wording|title|photo|picture|colour|color|proposal|link|"
    r"list|plan|route)\b", _I)


# A liking anchored to this very moment: "I love the sunshine today".
_NOW = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now)\b", _I)


def conversational(obj: str) -> bool:
    """True when a liked or disliked thing is only identified by the conversation."""
    return _CONVERSATIONAL.search(obj.strip()) is not None


def momentary(predicate: str) -> bool:
    """True when a liking is about this moment ("the soup tonight"), not a lasting taste."""
    return _NOW.search(predicate) is not None


# --- irony -----------------------------------------------------------------------------------

# Leads that mark what follows as mock praise whatever it praises.
_IRONIC_LEAD = re.compile(
    r"^(?:yeah|yea|ya|oh),?\s+(?:right|sure)\b"
    r"|^(?:yeah,?\s+)?because (?:obviously|clearly|of course|naturally)\b"
    r"|^oh,?\s+(?:great|joy|goody|fantastic|wonderful|brilliant|perfect|lovely|marvell?ous|"
    r"terrific|super|awesome|fabulous)\b"
    r"|\b(?:said no ?one|said nobody) ever\b|\bnot!\s*$", _I)
# Milder leads, ironic only before praise of a nuisance: "Great, I love a two-hour layover".
_PRAISE_LEAD = re.compile(
    r"^(?:great|fantastic|wonderful|brilliant|perfect|lovely|marvell?ous|terrific|super|"
    r"awesome|fabulous|sure|yay|just what I (?:love|need|needed|wanted))\b[\s,!.:]", _I)
_INTENSIFIED = re.compile(
    r"\bI (?:just |totally |absolutely |simply |really )+(?:love|adore|enjoy|live for)\b"
    r"|\bnothing I (?:love|enjoy) more than\b|\bmy favou?rite thing\b", _I)
# Impositions hardly anyone likes: praised, they are sarcasm.
_NUISANCE = re.compile(
    r"\b(?:waiting|queu(?:e|es|ing|eing)|on hold|spam|traffic jams?|stuck in|delays?|"
    r"delayed|cancel+ed|cancel+ations?|layovers?|forms|paperwork|taxes|bureaucracy|"
    r"roadworks|woken|being (?:ignored|interrupted|kept waiting|told)|paying (?:for|fees)|"
    r"fees|parking tickets?|overtime|reply-all|unpaid|jet ?lag|hangovers?|mosquito(?:es)?)\b",
    _I)


def ironic(sentence: str) -> bool:
    """True for mock praise: "Oh great, I just love waiting on hold"."""
    text = sentence.strip()
    if _IRONIC_LEAD.search(text):
        return True
    if _NUISANCE.search(text) is None:
        return False
    return bool(_PRAISE_LEAD.search(text) or _INTENSIFIED.search(text))


# --- hearsay -------------------------------------------------------------------------------

_HEARSAY_LEAD = re.compile(
    r"^(?:according to|apparently|supposedly|allegedly|reportedly|rumou?r has it|word is|"
    r"(?:people|everyone|they) (?:say|keep saying|keep telling me|tell me|told me))\b", _I)
# A quoted first-person statement: "He said, 'I love this city'" (a quoted title is not).
_QUOTED = re.compile(r"(?:^|[\s,:(])[\"“‘'](?:I|I'm|I've|I'd|my|we)\b[^\"“”‘’]*?[\"”’']", _I)


def hearsay(sentence: str) -> bool:
    """True when the sentence passes on what someone else says (about anyone)."""
    text = sentence.strip()
    return _HEARSAY_LEAD.search(text) is not None or _QUOTED.search(text) is not None
