"""PII redaction before the log: what a tenant's policy does with each detected value.

For every PII type (``pii_types.PII_TYPES``) a policy says ``redact`` (the default: the
value is replaced by its placeholder, ``[EMAIL]``, ``[CARD]``, ...), ``reject`` (the whole
write is refused with 422, naming the type and where it stood, never the value) or
``allow`` (kept as sent). Ingest applies it to an interaction's content, its tool calls'
arguments and results, and every string in its metadata, before anything is appended;
the event records each redaction as type, field and position (``Redaction``).

The policy comes from ``HINDSIGHT_PII_POLICY``, a JSON mapping of tenant to type to
action; the tenant ``"*"`` applies to every tenant and the type ``"*"`` to every type.
A tenant's own entry wins over ``"*"``, a named type over ``"*"``; anything unnamed is
redacted. Example: ``{"*": {"ip_address": "allow"}, "bank": {"card": "reject"}}``.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import JsonValue, ValidationError

from hindsight_common.errors import InvalidInput, Problem
from hindsight_common.events.interactions import Redaction, ToolCall
from hindsight_common.security.pii_detect import find_pii
from hindsight_common.security.pii_types import (
    ANY,
    DESCRIPTIONS,
    PII_TYPES,
    PLACEHOLDERS,
    PiiAction,
    PiiType,
    check_policy,
)

DEFAULT_ACTION: PiiAction = "redact"


class PiiPolicy:
    """Which action applies to each PII type for each tenant."""

    def __init__(self, rules: Mapping[str, Mapping[str, PiiAction]] | None = None) -> None:
        self._rules = {t: dict(r) for t, r in (rules or {}).items()}
        check_policy(self._rules)

    def action(self, tenant: str, pii_type: PiiType) -> PiiAction:
        for scope in (self._rules.get(tenant, {}), self._rules.get(ANY, {})):
            for key in (pii_type, ANY):
                if key in scope:
                    return scope[key]
        return DEFAULT_ACTION

    def actions(self, tenant: str) -> dict[PiiType, PiiAction]:
        return {t: self.action(tenant, t) for t in PII_TYPES}


@dataclass(frozen=True)
class Rejection:
    """A value a policy refuses: its type and its place in the text as sent."""

    type: PiiType
    field: str
    start: int
    end: int

    def problem(self, tenant: str) -> Problem:
        return Problem(
            self.field,
            f"holds {DESCRIPTIONS[self.type]} at characters {self.start}-{self.end}; tenant "
            f"{tenant!r} does not accept {self.type} (HINDSIGHT_PII_POLICY): remove it and resend",
        )


class OutgrewLimit(InvalidInput):
    """A field exceeds its length limit once its values are replaced by placeholders;
    ``problems`` name the fields (relative to the interaction)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("too long once personal data is replaced by placeholders", problems)


@dataclass(frozen=True)
class RedactedTurn:
    """One interaction's text fields after the policy: what to store, what was replaced,
    and what the policy refuses (a non-empty ``rejected`` means: append nothing)."""

    content: str
    tool_calls: tuple[ToolCall, ...]
    metadata: dict[str, JsonValue]
    redactions: tuple[Redaction, ...]
    rejected: tuple[Rejection, ...]


class _Pass:
    """One turn's redaction: collects what was replaced and what was refused."""

    def __init__(self, actions: Mapping[PiiType, PiiAction], wanted: frozenset[PiiType] | None = None) -> None:
        self.actions = actions
        self.wanted = looked_for(actions) if wanted is None else wanted
        self.redactions: list[Redaction] = []
        self.rejected: list[Rejection] = []

    def text(self, text: str, field: str) -> str:
        if not self.wanted:
            return text
        out: list[str] = []
        cursor = 0
        for f in find_pii(text, self.wanted):
            if self.actions[f.type] == "reject":
                self.rejected.append(Rejection(f.type, field, f.start, f.end))
                continue
            out.append(text[cursor : f.start])
            start = sum(map(len, out))
            out.append(PLACEHOLDERS[f.type])
            self.redactions.append(Redaction(type=f.type, field=field, start=start, end=start + len(out[-1])))
            cursor = f.end
        out.append(text[cursor:])
        return "".join(out)

    def value(self, value: JsonValue, field: str) -> JsonValue:
        """Every string inside a JSON value (keys stay as they are)."""
        if isinstance(value, str):
            return self.text(value, field)
        if isinstance(value, list):
            return [self.value(v, f"{field}.{i}") for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {k: self.value(v, f"{field}.{k}") for k, v in value.items()}
        return value


def looked_for(actions: Mapping[PiiType, PiiAction]) -> frozenset[PiiType]:
    """The types ``actions`` does not allow: the detectors worth running."""
    return frozenset(t for t, a in actions.items() if a != "allow")


def redact_turn(
    content: str,
    tool_calls: tuple[ToolCall, ...],
    metadata: Mapping[str, JsonValue],
    actions: Mapping[PiiType, PiiAction],
    wanted: frozenset[PiiType] | None = None,
) -> RedactedTurn:
    """Apply ``actions`` (``PiiPolicy.actions(tenant)``) to one interaction's text;
    ``wanted``: ``looked_for(actions)``, when the caller already has it (a batch of one
    tenant's turns works it out once).

    Raises OutgrewLimit when a tool call no longer fits its limits once redacted."""
    run = _Pass(actions, wanted)
    new_content = run.text(content, "content")
    calls = []
    for i, call in enumerate(tool_calls):
        try:
            calls.append(ToolCall(
                name=call.name,
                arguments={k: run.value(v, f"tool_calls.{i}.arguments.{k}") for k, v in call.arguments.items()},
                result=None if call.result is None else run.text(call.result, f"tool_calls.{i}.result"),
                ok=call.ok,
            ))
        except ValidationError as e:
            # A placeholder can be longer than its value ("[NATIONAL_ID]" for an SSN): a
            # result at its length limit may no longer fit once redacted.
            raise OutgrewLimit([
                Problem(f"tool_calls.{i}." + ".".join(map(str, err["loc"])),
                        f"{err['msg']} once personal data is replaced by placeholders; shorten it")
                for err in e.errors()
            ]) from e
    new_metadata = {k: run.value(v, f"metadata.{k}") for k, v in metadata.items()}
    return RedactedTurn(new_content, tuple(calls), new_metadata, tuple(run.redactions), tuple(run.rejected))


class PiiCounters:
    """In-process counts of redacted and rejected values per type, for a metric."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._redacted: Counter[str] = Counter()
        self._rejected: Counter[str] = Counter()

    def count(self, redactions: tuple[Redaction, ...] = (), rejected: tuple[Rejection, ...] = ()) -> None:
        with self._lock:
            self._redacted.update(r.type for r in redactions)
            self._rejected.update(r.type for r in rejected)

    def snapshot(self) -> dict[str, dict[str, int]]:
        """``{"redacted": {type: n}, "rejected": {type: n}}``, every type present."""
        with self._lock:
            return {
                "redacted": {t: self._redacted[t] for t in PII_TYPES},
                "rejected": {t: self._rejected[t] for t in PII_TYPES},
            }


#: The process's counters; ingest counts each value once the write is durable (or refused).
COUNTERS = PiiCounters()
