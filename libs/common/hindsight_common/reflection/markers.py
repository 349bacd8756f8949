"""Sentence-level markers that change how a sentence is read.

"remember that ...", "no, I meant ...", "that didn't work because ...", "you got that wrong"
and a few imperatives ("answer in French", "call me Liz") are recognised here, before the
plain statement rules run on what follows the marker. A sentence that is a question yields
nothing, whatever it contains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hindsight_common.reflection.english import (
    clip,
    is_question,
    split_sentences,
    strip_discourse,
    third_person,
    topic,
)
from hindsight_common.reflection.lexicon import NATURAL_LANGUAGES
from hindsight_common.reflection.stance import hearsay, ironic
from hindsight_common.reflection.statements import Finding, Voice, statement_findings


@dataclass(frozen=True)
class Reading:
    """What one sentence contributes.

    A correction's findings supersede the speaker's earlier findings with the same key. A
    bare correction ("No, I meant Lisbon, not Porto") carries no finding of its own: it
    rewrites the speaker's previous finding, replacing `old_value` (or that finding's value)
    with `new_value`.
    """

    findings: tuple[Finding, ...] = ()
    correction: bool = False
    new_value: str | None = None
    old_value: str | None = None


_I = re.IGNORECASE
_TAIL = r"\b[\s,.;:!-]*(?P<rest>.*)$"
_LEAD_NO = r"^(?:(?:no|nope|nah|no no|ugh|um|hmm|sorry|wait|er|erm)[,!.]*\s+)*"
_WRONG = re.compile(
    _LEAD_NO + r"(?:(?:that's|that is|this is|it's|it is|that was|your answer is|you're|"
    r"you are)\s+(?:totally |completely |just |so |all |simply )?(?:wrong|incorrect|not right|"
    r"not correct|not true|mistaken|the wrong \w+)|your [\w ]{1,20}? (?:is|are|was|were) (?:way |all |a bit )?"
    r"(?:off|wrong|incorrect|not right)|you(?:'ve| have)?\s+(?:got|gotten)\s+(?:that|it|this|me|"
    r"(?P<mine>my [a-z]+(?:'s [a-z]+)?))(?: all)?\s+wrong)" + _TAIL, _I)
_IT_IS = re.compile(r"^(?:again[\s,]+)?(?:it's|it is|its|that's|they're|it should be|(?:he's|she's|"
                    r"he is|she is|it's) (?:called|named))\s+", _I)
_MISUNDERSTOOD = re.compile(
    _LEAD_NO + r"(?:(?:that's|that is|this is|it's) not what I (?:asked for|asked|said|"
    r"meant|wanted)|you(?:'ve| have)? (?:misunderstood|misread|misheard|didn't understand|got confused|"
    r"got the wrong end of the stick)"
    r"(?: me| my \w+)?)" + _TAIL, _I)
_CORRECTION = re.compile(
    r"^(?:(?:no|nope|sorry|oops|wait|hmm|my bad|er|erm|uh)\b[\s,!:.-]*)*"
    r"(?:(?:actually|i meant to say|i meant|i mean(?=\s)|i misspoke|what i meant (?:is|was)|"
    r"let me correct (?:that|myself)|correction)\b[\s,:;.-]*)+(?P<rest>.*)$", _I)
_BARE_PREFIX = re.compile(r"^(?:it's|it is|it was|that's|that is|that should be)\s+", _I)
_BARE_NOT = re.compile(r",?\s+(?:and )?not\s+(?P<old>[^,.;!?]+)[.!]*$", _I)
_DISMISSALS = frozenset({"never mind", "nevermind", "forget it", "nothing", "no", "ignore that"})
_REMEMBER = re.compile(
    r"^(?:(?:please|pls|also|and|oh and)\s+)?(?:remember|don't forget|do not forget|"
    r"never forget|keep in mind|bear in mind|note to self|make a note|take note|please note|"
    r"note|for the record|fyi|for future reference|memori[sz]e)\b(?:\s+that)?[\s,:;.-]*"
    r"(?P<rest>.+)$", _I)
# "..., please keep that in mind." / "..., remember that." after the statement itself.
_REMEMBER_TAIL = re.compile(
    r"[\s,;:-]+(?:so\s+|and\s+)?(?:please\s+)?(?:(?:keep|bear)\s+(?:that|this|it)\s+in\s+mind|"
    r"remember\s+(?:that|this|it)|don't\s+forget\s+(?:that|this|it)|"
    r"make\s+a\s+note\s+of\s+(?:that|this|it))(?:\s+please)?\W*$", _I)
_NOT_A_FACT = re.compile(r"^(?:when|how|what|where|who|why|if|to|this|it)\b", _I)
_BECAUSE = re.compile(r"\b(?:(?:didn't|did not|doesn't|does not|won't|wasn't|failed to|never|"
                      r"couldn't) work(?:ed|ing)?|(?:that|it|this|the \w+) (?:failed|broke|"
                      r"crashed|timed out|went wrong))\b.*?\bbecause\b\s*(?P<rest>.+)$", _I)
_FORWARD = re.compile(r"^(?:next time|in the future|in future|going forward|from now on)\b"
                      r"[\s,:;-]*(?P<rest>.+)$", _I)
_LEARNED = re.compile(
    r"^(?:lessons? learn(?:ed|t)|lesson|takeaway|the takeaway is|TIL|today I learned)\b"
    r"[\s,:;-]*(?P<rest>.+)$|^(?P<rest2>.+?)[\s,;:.-]+lessons? learn(?:ed|t)\W*$"
    r"|^(?:I|we)(?:'ve| have)? (?:learned|learnt)(?: the hard way)? that\s+(?P<rest3>.+)$"
    r"|^(?:I|we) should(?:'ve| have) (?P<rest4>.+)$", _I)
_LESSON_ALONE = re.compile(r"^lessons? learn(?:ed|t)\W*$", _I)
# "the itinerary you gave me was wrong": an answer of the other party, called wrong later on.
_WRONG_LATER = re.compile(r"\b(?:the|that|your) [\w -]{1,30}? you (?:gave|sent|wrote|made|suggested|"
                          r"recommended|told) (?:me|us)\b[^.?!]*? (?:was|is|were|are) "
                          r"(?:totally |completely |all |just )?(?:wrong|incorrect|not right)"
                          r"\b[\s,.;:!-]*(?P<rest>.*)$", _I)
_ANSWER_IN = re.compile(r"^(?:please\s+)?(?:always\s+|only\s+)?(?:answer|reply|respond|write|"
                        r"talk|speak|communicate|give me|send)(?:\s+me)?(?:\s+(?:your|the|all)?\s*"
                        r"(?:replies|answers|responses|messages))?(?:\s+to me)?\s+(?:only\s+)?in\s+"
                        r"(?P<lang>[A-Za-z]+)", _I)
# A statement, then a question about it: only the statement is read.
_STATEMENT_THEN_QUESTION = re.compile(
    r"^(?P<stmt>[^?]+?),\s*(?:could|can|would|should|do|does|is|are|will|what|how|where|"
    r"which|any|got)\b[^,?]*\?\s*$", _I)
_CALL_ME = re.compile(r"^(?i:(?:please\s+)?(?:just\s+)?call me)\s+(?P<n>[A-Z][\w'-]+)")


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".!,;: ")
    return text[:1].upper() + text[1:] + "."


def _lower_first(text: str) -> str:
    return text if text[:2].isupper() or text.startswith("I ") else text[:1].lower() + text[1:]


def _as_correction(findings: list[Finding]) -> tuple[Finding, ...]:
    return tuple(replace(f, confidence=max(f.confidence, 0.9), tags=f.tags + ("correction",),
                         reasoning=f.reasoning + " Stated as a correction.") for f in findings)


def _error(core: str, voice: Voice) -> Reading | None:
    wrong = _WRONG.match(core) or _WRONG_LATER.search(core)
    match = wrong or _MISUNDERSTOOD.match(core)
    if match is None:
        return None
    rest = match.group("rest").strip().rstrip(".!")
    if wrong is not None and wrong.groupdict().get("mine") and _IT_IS.match(rest):
        # "you got my daughter's name wrong, it's Maeve": the right value of what was named
        rest = _IT_IS.sub(f"{wrong.group('mine')} is ", rest, count=1)
        rest = re.sub(r"\s+not\s+[\w' -]+$", "", rest)  # "..., it's Kamau not Kamal"
    other = voice.other[:1].upper() + voice.other[1:]
    head = f"{other} gave {voice.name} a wrong answer" if wrong else \
        f"{other} misunderstood {voice.name}"
    said = third_person(_lower_first(rest), voice.name, voice.other)
    error = Finding("error", "error.wrong_answer" if wrong else "error.misunderstood",
                    said or head, _sentence(f"{head}: {said}" if rest else head), 0.8,
                    f"Offline rule: {voice.name} said the other party got it wrong.",
                    ("error", "error"))
    return Reading((error,) + _as_correction(statement_findings(rest, voice)), correction=True)


def _correction(core: str, voice: Voice) -> Reading | None:
    match = _CORRECTION.match(core)
    if match is None:
        return None
    rest = match.group("rest").strip()
    findings = statement_findings(rest, voice)
    if findings:
        return Reading(_as_correction(findings), correction=True)
    rest = _BARE_PREFIX.sub("", rest.rstrip(".! "))
    old = _BARE_NOT.search(rest)
    new = clip(rest[: old.start()] if old else rest, strip_time=False)
    if not new or new.lower() in _DISMISSALS or len(new.split()) > 5 or new.split()[0] == "I":
        return Reading()
    return Reading(correction=True, new_value=new, old_value=old.group("old") if old else None)


def _remembered(findings: list[Finding]) -> tuple[Finding, ...]:
    return tuple(replace(f, confidence=max(f.confidence, 0.95), tags=f.tags + ("remember",),
                         reasoning=f.reasoning + " Explicitly asked to remember.")
                 for f in findings)


def _remember(core: str, voice: Voice) -> Reading | None:
    tail = _REMEMBER_TAIL.search(core)
    if tail is not None and tail.start() > 0:
        found = statement_findings(core[: tail.start()], voice)
        return Reading(_remembered(found)) if found else None
    match = _REMEMBER.match(core)
    if match is None:
        return None
    rest = match.group("rest").strip()
    if _NOT_A_FACT.match(rest):
        return Reading()
    found = statement_findings(rest, voice)
    if found:
        return Reading(_remembered(found))
    key = topic(rest)
    if not key:
        return Reading()
    said = third_person(_lower_first(rest.rstrip(".!")), voice.name, voice.other)
    note = Finding("fact", f"note.{key}", said,
                   _sentence(f"{voice.name} asked to remember that {said}"), 0.95,
                   "Offline rule: explicit request to remember.", ("fact", "note", "remember"))
    return Reading((note,))


def _lesson(core: str, voice: Voice) -> Reading | None:
    forward = _FORWARD.match(core)
    if forward is not None:
        inner = read_sentence(forward.group("rest"), voice)
        if inner.findings:
            return inner
        return _lesson_from(core, forward.group("rest"), voice)
    because = _BECAUSE.search(core)
    if because is not None:
        named = core[:because.start()].strip()
        if named and named.split(" ")[0].lower() in {"the", "my", "our"} and \
                len(named.split(" ")) > 1:
            # "The shortcut didn't work because ...": the lesson is about what failed.
            return _lesson_from(core, named, voice)
        return _lesson_from(core, because.group("rest"), voice)
    learned = _LEARNED.match(core)
    if learned is None:
        return None
    rest = next(g for g in learned.groups() if g)
    whole = core if learned.group("rest4") else rest
    return _lesson_from(whole, rest, voice)


def _lesson_from(text: str, rest: str, voice: Voice) -> Reading:
    key = topic(rest)
    if not key:
        return Reading()
    said = third_person(text.rstrip(".! "), voice.name, voice.other)
    lesson = Finding("lesson", f"lesson.{key}", third_person(rest.rstrip(".! "), voice.name,
                                                             voice.other),
                     _sentence(f"Lesson from {voice.name}: {said}"), 0.8,
                     "Offline rule: a lesson or an improvement for next time.", ("lesson",))
    return Reading((lesson,))


def _imperative(core: str, voice: Voice) -> Reading | None:
    answer = _ANSWER_IN.match(core)
    if answer is not None and answer.group("lang").lower() in NATURAL_LANGUAGES:
        lang = answer.group("lang").capitalize()
        return Reading((Finding("preference", "preference.language", f"replies in {lang}",
                                _sentence(f"{voice.name} wants replies in {lang}"), 0.9,
                                "Offline rule: instruction about the reply language.",
                                ("preference", "preference")),))
    call = _CALL_ME.match(core)
    if call is not None:
        return Reading((Finding("fact", "personal.name", call.group("n"),
                                _sentence(f"{voice.name} wants to be called {call.group('n')}"),
                                0.9, "Offline rule: stated name.", ("fact", "personal")),))
    return None


def read_sentence(sentence: str, voice: Voice) -> Reading:
    """Read one sentence: markers first, then the plain statement rules.

    Hearsay yields nothing; an ironic sentence keeps no taste (stance.py says why).
    """
    core = strip_discourse(sentence)
    opens_as_question = is_question(core.rstrip("?! "))  # a question word leads
    if core and not opens_as_question and (asked := _STATEMENT_THEN_QUESTION.match(core)):
        core = asked.group("stmt")  # "my partner loves fado, could we fit in a show?"
    elif not core or is_question(sentence) or is_question(core):
        return Reading()
    if hearsay(sentence):
        return Reading()
    reading = next((r for marker in (_error, _correction, _remember, _lesson, _imperative)
                    if (r := marker(core, voice)) is not None), None)
    if reading is None:
        reading = Reading(tuple(statement_findings(core, voice)))
    if ironic(sentence):
        reading = replace(reading, findings=tuple(f for f in reading.findings
                                                  if not _is_taste(f)))
    return reading


def _is_taste(finding: Finding) -> bool:
    return finding.kind == "preference" or ".preference." in finding.key


def read_message(text: str, voice: Voice) -> list[Reading]:
    """Read every sentence of one message, in order."""
    readings: list[Reading] = []
    sentences = split_sentences(text)
    for index, sentence in enumerate(sentences):
        if _LESSON_ALONE.match(sentence):
            # "We should have used a queue; lesson learned." marks the sentence before it,
            # unless that sentence already read as a lesson.
            if index > 0 and not any(f.kind == "lesson" for f in readings[-1].findings):
                previous = strip_discourse(sentences[index - 1])
                readings.append(_lesson_from(previous, previous, voice))
            continue
        readings.append(read_sentence(sentence, voice))
    return readings
