"""Take the JSON value out of a model's reply, whatever the model wrapped around it.

Models asked for JSON still answer with prose around it, Markdown fences, trailing commas,
single or typographic quotes, Python literals (``True``, ``None``), comments, several blocks,
or a reply cut off at the token limit. ``extract_json`` finds the first JSON object or array
that can be read, repairing only what is unambiguous, and raises ``MalformedReply`` with a
reason otherwise. It never evaluates the text as code.

How it reads a reply:

0. A leading reasoning block (``<think>...</think>``) is removed: it holds drafts.
1. The whole reply as strict JSON (well-behaved servers; a JSON string holding JSON is
   unwrapped once).
2. The content of each Markdown fence, then the whole reply: from each ``{`` or ``[`` in
   turn, a lenient scanner rewrites the block into strict JSON. Strict parsing of the
   original span is tried first, so valid JSON is never altered by a repair.
3. A block cut off by the end of the reply is closed after its last complete value; a
   half-written string, number or key is dropped, never completed by guesswork, and an
   object is never closed empty. When no complete value survives (``{"a": "hal``), the
   reply counts as unparseable.

Non-finite numbers (``NaN``, ``Infinity``) become ``null`` so the result is plain JSON.
"""

from __future__ import annotations

import enum
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from hindsight_common.ports.llm import MalformedReply

__all__ = ["MAX_REPLY_CHARS", "Expect", "extract_json"]

Expect = Literal["object", "array"]

# Replies longer than this are refused rather than scanned (scanning is linear per
# candidate; a reply this size is a runaway model, not an answer).
MAX_REPLY_CHARS = 1_000_000
_MAX_DEPTH = 64
_MAX_CANDIDATES = 32
_TRUNCATION_REPAIRS = 4

_REASONING = re.compile(r"\A\s*<(think|thinking|reasoning)>.*?(?:</\1>|\Z)", re.DOTALL | re.I)
_FENCE = re.compile(r"```[\w-]*[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_START = re.compile(r"[{\[]")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_CLOSER_FOLLOWS = re.compile(r"\s*(?:[,:}\]]|\Z)")
_KEY_FOLLOWS = re.compile(r"\s*:")
_SMART_DOUBLE = "\u201c\u201d\u201e\u201f"
_SMART_SINGLE = "\u2018\u2019\u201a\u201b"
_LITERALS = {
    "true": "true", "True": "true", "TRUE": "true",
    "false": "false", "False": "false", "FALSE": "false",
    "null": "null", "None": "null", "NULL": "null", "nil": "null", "undefined": "null",
    "NaN": "null", "Infinity": "null",
}  # fmt: skip
_JSON_ESCAPES = '"\\/bfnrt'
_CONTROL_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


_FAIL: Any = object()  # marks a failed parse (None is a valid JSON value)


def extract_json(text: str, *, expect: Expect | None = None) -> Any:
    """Return the first JSON object or array that can be read from ``text``.

    ``expect`` restricts the result to an object or an array (a block of the other kind is
    skipped). Returns a ``dict`` or a ``list``. Raises ``MalformedReply`` when the reply is
    empty, too long, holds no JSON object or array, holds only blocks that cannot be
    parsed, or was cut off beyond repair. The error message never quotes the reply.
    """
    if not text or not text.strip():
        raise MalformedReply("the reply is empty")
    if len(text) > MAX_REPLY_CHARS:
        raise MalformedReply(
            f"the reply is too long to parse ({len(text)} characters, limit {MAX_REPLY_CHARS})"
        )
    # Reasoning models (DeepSeek-R1, QwQ through Ollama) put their thinking, drafts of the
    # JSON included, before the answer.
    text = _REASONING.sub("", text).strip().lstrip("\ufeff")
    if not text:
        raise MalformedReply("the reply holds only the model's reasoning, no answer")
    return _extract(text, expect, unwrap=True)


@dataclass(slots=True)
class _Findings:
    """What the search saw, to explain a failure."""

    blocks: int = 0
    wrong_type: str | None = None
    truncated: bool = False


def _extract(text: str, expect: Expect | None, *, unwrap: bool) -> Any:
    whole = _loads(text)
    if _matches(whole, expect):
        return whole
    if unwrap and isinstance(whole, str) and _START.search(whole):
        # A JSON string that itself holds JSON: some servers double-encode.
        return _extract(whole.strip(), expect, unwrap=False)
    findings = _Findings()
    regions = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    for region in regions:
        value = _search(region, expect, findings)
        if value is not _FAIL:
            return value
    raise MalformedReply(_explain(findings, expect))


def _explain(findings: _Findings, expect: Expect | None) -> str:
    if findings.wrong_type is not None and expect is not None:
        return f"expected a JSON {expect} but the reply holds a JSON {findings.wrong_type}"
    if findings.truncated:
        return "the reply was cut off and its JSON could not be repaired"
    if findings.blocks:
        return f"none of the {findings.blocks} JSON-like block(s) in the reply could be parsed"
    return "the reply holds no JSON object or array"


def _search(text: str, expect: Expect | None, findings: _Findings) -> Any:
    pos = 0
    for _ in range(_MAX_CANDIDATES):
        found = _START.search(text, pos)
        if found is None:
            return _FAIL
        start = found.start()
        findings.blocks += 1
        scan = _Scanner(text, start).run()
        if scan.outcome is _Outcome.TRUNCATED:
            for repaired in scan.repairs:
                value = _loads(repaired)
                if value is _FAIL or not value:  # an empty shell salvaged nothing
                    continue
                if _matches(value, expect):
                    return value
                _note_type(value, findings)
            # The block runs to the end of the reply: nothing after it to try, and
            # blocks inside it are fragments of a broken whole.
            findings.truncated = True
            return _FAIL
        if scan.outcome is _Outcome.COMPLETE:
            value = _loads(text[start : scan.end])
            if value is _FAIL:
                value = _loads(scan.output)
            if _matches(value, expect):
                return value
            _note_type(value, findings)
        # Resume after the block, or after the point where it stopped making sense, so a
        # fragment of a broken block is never returned as the answer.
        pos = max(scan.end, start + 1)
    return _FAIL


def _note_type(value: Any, findings: _Findings) -> None:
    if isinstance(value, dict):
        findings.wrong_type = "object"
    elif isinstance(value, list):
        findings.wrong_type = "array"


def _matches(value: Any, expect: Expect | None) -> bool:
    if expect == "object":
        return isinstance(value, dict)
    if expect == "array":
        return isinstance(value, list)
    return isinstance(value, dict | list)


def _loads(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=lambda _name: None)
    except (ValueError, RecursionError):
        return _FAIL


class _Outcome(enum.Enum):
    COMPLETE = "complete"  # the block closed; ``output`` is strict JSON text
    TRUNCATED = "truncated"  # the reply ended inside the block; ``repairs`` to try
    INVALID = "invalid"  # something no repair explains, at index ``end``


@dataclass(slots=True)
class _Scan:
    outcome: _Outcome
    end: int
    output: str = ""
    repairs: list[str] = field(default_factory=list)


class _Truncated(Exception):
    """The reply ended inside a token."""


class _Invalid(Exception):
    """The block holds something that is not JSON and no repair explains."""


class _Scanner:
    """Rewrites one JSON-ish block, from its opening bracket, into strict JSON text."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.pos = start
        self.out: list[str] = []
        self.stack: list[str] = []  # expected closing brackets, innermost last
        # Cut points after a complete value: (length of output, stack at that moment).
        self.safe: list[tuple[int, tuple[str, ...]]] = []
        self.after_value = False

    def run(self) -> _Scan:
        try:
            while self.pos < len(self.text):
                if self._step():
                    return _Scan(_Outcome.COMPLETE, self.pos, output="".join(self.out))
        except _Invalid:
            return _Scan(_Outcome.INVALID, self.pos)
        except _Truncated:
            pass
        return _Scan(_Outcome.TRUNCATED, len(self.text), repairs=self._repairs())

    def _step(self) -> bool:
        """Consume one token; True when the outermost bracket closed."""
        text, ch = self.text, self.text[self.pos]
        nxt = text[self.pos + 1] if self.pos + 1 < len(text) else ""
        if ch.isspace():
            self.pos += 1
        elif ch in "{[":
            self._open(ch)
        elif ch in "}]":
            return self._close(ch)
        elif ch == ",":
            if self.after_value:  # a repeated or leading comma is dropped
                self.safe.append((len(self.out), tuple(self.stack)))
                self.out.append(",")
                self.after_value = False
            self.pos += 1
        elif ch == ":":
            self.out.append(":")
            self.after_value = False
            self.pos += 1
        elif ch == '"':
            self._value(self._string('"', closers=None))
        elif ch in _SMART_DOUBLE or ch in _SMART_SINGLE or ch == "'":
            if self.after_value:
                raise _Invalid
            closers = _SMART_DOUBLE + '"' if ch in _SMART_DOUBLE else _SMART_SINGLE + "'"
            self._value(self._string(ch, closers=closers))
        elif ch == "/" and nxt in "/*" and nxt:
            self._skip_comment(block=nxt == "*")
        elif ch == "#":
            self._skip_comment(block=False)
        elif ch.isdigit() or (ch in "+-." and (nxt.isdigit() or nxt == ".")):
            self._value(self._number())
        elif ch == "-" and self.text.startswith("Infinity", self.pos + 1):
            self.pos += 1
            self._value(self._word())
        elif ch.isalpha() or ch in "_$":
            self._value(self._word())
        else:
            raise _Invalid
        return False

    def _value(self, token: str) -> None:
        if self.after_value:  # a missing comma between two values
            self.safe.append((len(self.out), tuple(self.stack)))
            self.out.append(",")
        self.out.append(token)
        self.after_value = True

    def _open(self, ch: str) -> None:
        if len(self.stack) >= _MAX_DEPTH:
            raise _Invalid
        if self.after_value:
            self.safe.append((len(self.out), tuple(self.stack)))
            self.out.append(",")
        self.out.append(ch)
        self.stack.append("}" if ch == "{" else "]")
        self.after_value = False
        self.pos += 1
        if ch == "[":  # cut here, an array is truthfully empty; an object would be a stub
            self.safe.append((len(self.out), tuple(self.stack)))

    def _close(self, ch: str) -> bool:
        if ch not in self.stack:
            raise _Invalid
        while True:  # close inner brackets the model forgot
            if self.out[-1] == ",":
                self.out.pop()
            closer = self.stack.pop()
            self.out.append(closer)
            if closer == ch:
                break
        self.after_value = True
        self.pos += 1
        return not self.stack

    def _string(self, opener: str, closers: str | None) -> str:
        """Read a string starting at its opening quote; return it as a JSON string.

        ``closers`` is None for a plain double-quoted string (ends at the next unescaped
        ``"``). Otherwise the string ends at a closer followed by ``,``, ``:``, ``}``,
        ``]`` or the end of the reply, so ``'it's'`` reads as one string.
        """
        text, i, buf = self.text, self.pos + 1, ['"']
        while i < len(text):
            c = text[i]
            if c == "\\":
                i = self._escape(i, buf)
                continue
            if closers is None and c == '"' or closers is not None and self._ends(i, closers):
                self.pos = i + 1
                buf.append('"')
                return "".join(buf)
            if c == '"':
                buf.append('\\"')
            elif c < " ":
                buf.append(_CONTROL_ESCAPES.get(c, f"\\u{ord(c):04x}"))
            else:
                buf.append(c)
            i += 1
        raise _Truncated

    def _ends(self, i: int, closers: str) -> bool:
        return self.text[i] in closers and _CLOSER_FOLLOWS.match(self.text, i + 1) is not None

    def _escape(self, i: int, buf: list[str]) -> int:
        text = self.text
        if i + 1 >= len(text):
            raise _Truncated
        nxt = text[i + 1]
        if nxt in _JSON_ESCAPES:
            buf.append("\\" + nxt)
            return i + 2
        if nxt == "u":
            if _HEX4.fullmatch(text, i + 2, i + 6):
                buf.append(text[i : i + 6])
                return i + 6
            if i + 6 > len(text):
                raise _Truncated
        if nxt == "'":
            buf.append("'")
            return i + 2
        buf.append("\\\\")  # an escape JSON does not know: keep the backslash as text
        return i + 1

    def _skip_comment(self, *, block: bool) -> None:
        if block:
            end = self.text.find("*/", self.pos + 2)
            if end < 0:
                raise _Truncated
            self.pos = end + 2
        else:
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end + 1

    def _number(self) -> str:
        found = _NUMBER.match(self.text, self.pos)
        if found is None:
            raise _Invalid
        end = found.end()
        if end >= len(self.text):
            raise _Truncated  # the digits may go on: 0.9 could have been 0.95
        if self.text[end].isalnum() or self.text[end] in "._":
            raise _Invalid
        token = found.group()
        self.pos = end
        if any(c in token for c in ".eE"):
            number = float(token)
            return json.dumps(number) if math.isfinite(number) else "null"
        return str(int(token))

    def _word(self) -> str:
        found = _WORD.match(self.text, self.pos)
        if found is None:
            raise _Invalid
        if found.end() >= len(self.text):
            raise _Truncated  # "tru" could have become "true"
        word = found.group()
        if self.stack[-1] == "}" and _KEY_FOLLOWS.match(self.text, found.end()):
            self.pos = found.end()
            return json.dumps(word)  # an unquoted key
        literal = _LITERALS.get(word)
        if literal is None:
            raise _Invalid
        self.pos = found.end()
        return literal

    def _repairs(self) -> list[str]:
        """Ways to close a block the reply cut off, best first."""
        cuts = [(len(self.out), tuple(self.stack))]
        cuts += list(reversed(self.safe))[:_TRUNCATION_REPAIRS]
        repairs = []
        for length, stack in cuts:
            body = "".join(self.out[:length]).rstrip(",")
            if not body.endswith("{"):  # never invent an empty object
                repairs.append(body + "".join(reversed(stack)))
        return repairs
