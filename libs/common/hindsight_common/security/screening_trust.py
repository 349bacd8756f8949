"""Where content came from, and how far it is trusted (pure).

Every interaction has a role (user, assistant, tool, system); its *source* follows from
the role, unless the caller says the content is someone else's words (a web page, an
e-mail, a document pasted in): then it is ``third_party``. A caller may lower the trust
of what it sends that way, never raise it: a tool result cannot be declared the user's
own words. Extracted memories inherit the lowest trust of the turns they came from.

Trust sets how hard screening looks: the quarantine threshold falls with trust, so tool
output and third-party text are quarantined on weaker evidence than the user's own words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import get_args

from hindsight_common.events.security import Source

SOURCES: tuple[Source, ...] = get_args(Source)

#: The source an interaction has when the caller names none, by role.
SOURCE_OF_ROLE: Mapping[str, Source] = {
    "user": "user", "assistant": "assistant", "tool": "tool_output", "system": "system",
}

#: Trust per source, in [0, 1] (``Settings.screening_trust`` overrides entries).
DEFAULT_TRUST: Mapping[Source, float] = {
    "user": 1.0, "system": 1.0, "assistant": 0.8, "tool_output": 0.4, "third_party": 0.3,
}

#: The quarantine threshold is ``THRESHOLD_BASE + THRESHOLD_SLOPE * trust``: 0.70 for the
#: user's own words, 0.43 for tool output, 0.385 for third-party text.
THRESHOLD_BASE = 0.25
THRESHOLD_SLOPE = 0.45


def source_of(role: str, given: Source | None = None) -> Source:
    """The source of a turn with this ``role``: ``given`` when the caller named one it may
    name (its role's own source, or ``third_party``), else the role's. Raises ValueError
    when ``given`` would claim another role's source (the API turns it into a 422)."""
    own = SOURCE_OF_ROLE.get(role, "third_party")
    if given is None or given == own:
        return own
    if given == "third_party":
        return given
    raise ValueError(
        f"a {role} turn can have source {own!r} or 'third_party', not {given!r}"
    )


def trust_table(overrides: Mapping[str, float] | None = None) -> dict[Source, float]:
    """The default trust per source with ``overrides`` applied; raises ValueError on an
    unknown source or a trust outside [0, 1]."""
    table: dict[str, float] = {str(k): v for k, v in DEFAULT_TRUST.items()}
    for name, value in (overrides or {}).items():
        if name not in SOURCES:
            raise ValueError(f"unknown source {name!r}; known: {', '.join(SOURCES)}")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"trust of {name!r} must be in [0, 1], got {value}")
        table[name] = float(value)  # a Source: checked against SOURCES above
    return {s: table[s] for s in SOURCES}


def threshold(trust: float) -> float:
    """The score at or above which an item of this trust is quarantined."""
    return THRESHOLD_BASE + THRESHOLD_SLOPE * max(0.0, min(1.0, trust))


def lowest(sources: Iterable[Source], table: Mapping[Source, float]) -> tuple[Source, float]:
    """The least trusted of ``sources`` with its trust (``third_party`` when empty)."""
    ranked = sorted(((table[s], s) for s in sources), key=lambda p: p[0])
    if not ranked:
        return "third_party", table["third_party"]
    trust, source = ranked[0]
    return source, trust
