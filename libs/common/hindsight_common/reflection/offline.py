"""The offline reflector: rule-based memories from a session's turns, no LLM needed.

It is the default reflector on a fresh machine (docs/architecture.md, "Reflection"). It
reads English chat turns and keeps what a speaker states explicitly about themselves and
their people:
preferences, personal facts, relations, possessions, dated events and plans, corrections,
"remember that ..." requests, lessons and the other party's errors. Everything it cannot
read with confidence (questions, hypotheticals, reported opinions) it leaves alone: a missed
memory costs less than a false one. See README.md in this package for the key scheme and the
measured precision and recall.

Pure functions, standard library only, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from hindsight_common.reflection.english import entities
from hindsight_common.reflection.lexicon import GENERIC_SPEAKERS, MACHINE_SPEAKERS
from hindsight_common.reflection.markers import Reading, read_message
from hindsight_common.reflection.statements import Finding, Voice

KINDS = ("fact", "preference", "event", "lesson", "error")
_SKIPPED_ROLES = frozenset({"tool", "system"})


@dataclass(frozen=True)
class Turn:
    """One message of a session, as the reflector sees it."""

    event_id: str
    speaker: str  # a person's name, or "user" / "assistant"
    role: str  # "user", "assistant", "tool", "system"
    content: str
    occurred_at: datetime
    external_id: str | None = None


@dataclass(frozen=True)
class Candidate:
    """A memory the reflector proposes, with where it came from.

    `content` is a short third-person statement that names its subject. `key` is
    `<domain>.<attribute>` (README.md): a later candidate with the same key and subject and a
    different value is a new value for the same slot. `entities[0]` is the subject.
    """

    content: str
    kind: str
    key: str
    value: str
    confidence: float
    tags: tuple[str, ...]
    entities: tuple[str, ...]
    valid_from: datetime | None
    source_event_ids: tuple[str, ...]
    source_external_ids: tuple[str, ...]
    reasoning: str

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be within [0, 1], got {self.confidence}")


@dataclass(frozen=True)
class _Draft:
    speaker: str  # the subject's entity name ("Caroline", "user")
    finding: Finding
    valid_from: datetime | None
    event_ids: tuple[str, ...]
    external_ids: tuple[str, ...]


def _is_human(speaker: str) -> bool:
    return speaker.strip().lower() not in GENERIC_SPEAKERS


def _display(turn: Turn) -> str:
    """How content names a speaker: their name, or a role when they have none."""
    if _is_human(turn.speaker):
        return turn.speaker.strip()
    machine = turn.role == "assistant" or turn.speaker.strip().lower() in MACHINE_SPEAKERS
    return "the assistant" if machine else "the user"


def _voice(turns: Sequence[Turn], index: int) -> Voice:
    """The speaker of turns[index], and who "you" means: the nearest other party to speak,
    looking back first and then ahead (the first turn of a session has no one before it)."""
    turn = turns[index]
    for other in [*reversed(turns[:index]), *turns[index + 1:]]:
        if other.role not in _SKIPPED_ROLES and other.speaker != turn.speaker:
            return Voice(_display(turn), _display(other))
    return Voice(_display(turn), "the assistant")


def _unique(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(item for item in items if item))


def _replace_once(text: str, old: str, new: str) -> str:
    at = text.casefold().find(old.casefold())
    return text if at < 0 else text[:at] + new + text[at + len(old):]


def _rewrite_previous(drafts: list[_Draft], reading: Reading, speaker: str,
                      turn: Turn) -> None:
    """Apply a bare correction ("No, I meant Lisbon") to the speaker's previous finding."""
    new, old = reading.new_value or "", reading.old_value
    for position in range(len(drafts) - 1, -1, -1):
        draft = drafts[position]
        found = draft.finding
        if draft.speaker != speaker or found.kind == "error":
            continue
        target = old if old and old.casefold() in found.content.casefold() else None
        if old and target is None:
            continue  # "not Porto" names a statement other than this one
        target = target or found.value
        if target.casefold() not in found.content.casefold():
            return  # cannot tell which words the correction replaces: leave it alone
        if target.casefold() in found.value.casefold():
            value = _replace_once(found.value, target, new)
        else:  # "it's Saturday, not Friday" corrects the wording, not the trip's destination
            value = found.value if old else new
        corrected = replace(found, value=value, content=_replace_once(found.content, target, new),
                            confidence=max(found.confidence, 0.9),
                            tags=found.tags + ("correction",),
                            reasoning=found.reasoning + " Corrected by a later turn.")
        del drafts[position]
        drafts.append(_Draft(speaker, corrected, draft.valid_from,
                             draft.event_ids + (turn.event_id,),
                             draft.external_ids + _unique([turn.external_id or ""])))
        return


def _apply(drafts: list[_Draft], reading: Reading, speaker: str, turn: Turn) -> None:
    if reading.new_value is not None:
        _rewrite_previous(drafts, reading, speaker, turn)
    for finding in reading.findings:
        if reading.correction and finding.kind != "error":
            # A correction supersedes what the same speaker said earlier on the same key.
            drafts[:] = [d for d in drafts
                         if not (d.speaker == speaker and d.finding.key == finding.key)]
        valid_from = None if finding.kind == "lesson" else turn.occurred_at
        drafts.append(_Draft(speaker, finding, valid_from, (turn.event_id,),
                             _unique([turn.external_id or ""])))


def _merge(drafts: Sequence[_Draft]) -> list[Candidate]:
    """One candidate per (subject, key, value); provenance, tags and entities are unioned."""
    groups: dict[tuple[str, str, str], list[_Draft]] = {}
    for draft in drafts:
        identity = (draft.speaker, draft.finding.key, draft.finding.value.casefold().strip(" ."))
        groups.setdefault(identity, []).append(draft)
    candidates: list[Candidate] = []
    for group in groups.values():
        first = group[0].finding
        starts = [d.valid_from for d in group if d.valid_from is not None]
        candidates.append(Candidate(
            content=first.content,
            kind=first.kind,
            key=first.key,
            value=first.value,
            confidence=max(d.finding.confidence for d in group),
            tags=_unique([t for d in group for t in d.finding.tags]),
            entities=_unique([e for d in group
                              for e in entities(d.finding.content, d.speaker)]),
            valid_from=min(starts) if starts else None,
            source_event_ids=_unique([i for d in group for i in d.event_ids]),
            source_external_ids=_unique([i for d in group for i in d.external_ids]),
            reasoning=first.reasoning,
        ))
    return candidates


def reflect_turns(turns: Sequence[Turn]) -> list[Candidate]:
    """Turn a session's turns into candidate memories, in the order they were stated.

    Tool and system turns are ignored, and so are assistant turns unless the speaker has a
    person's name (a conversation between two people). First-person statements are
    attributed to the turn's speaker. Returns an empty list when nothing qualifies; never
    raises on odd text.
    """
    drafts: list[_Draft] = []
    for index, turn in enumerate(turns):
        if turn.role in _SKIPPED_ROLES:
            continue
        if turn.role == "assistant" and not _is_human(turn.speaker):
            continue
        speaker = turn.speaker.strip() if _is_human(turn.speaker) else "user"
        for reading in read_message(turn.content, _voice(turns, index)):
            _apply(drafts, reading, speaker, turn)
    return _merge(drafts)
