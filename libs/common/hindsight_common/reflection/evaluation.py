"""Score the offline reflector against a labelled set of utterances.

Each line of the set is `{"speaker": ..., "text": ..., "expected": [{"kind", "key"}, ...]}`;
an empty `expected` marks an utterance that must produce nothing. Each utterance is reflected
as a one-turn session. A produced candidate matches an expected item when kind and key are
equal and, when the item names a `subject`, the candidate's subject (`entities[0]`; "user"
for an anonymous user) equals it, case aside. A candidate matches at most one item. An
item's `value` is there for readers and is not scored.

    python -m hindsight_common.reflection [--dev-v3 | --dev-v4 | --held-out | ... | path.jsonl]
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

from hindsight_common.reflection.offline import KINDS, Turn, reflect_turns

LABELLED_SET = "labelled_utterances.jsonl"
HELD_OUT_SET = "heldout_utterances.jsonl"
# Written after the LoCoMo rewrite (2026-12-01), labelled before the rules ever saw it.
HELD_OUT_V2_SET = "heldout_v2_utterances.jsonl"
# Written (2026-12-01) before the rules were widened, for iterating on them.
DEV_V3_SET = "dev_v3_utterances.jsonl"
# Written and committed before the widening, never used to change a rule; run once at the end.
# Since the v4 round it is development data.
HELD_OUT_V3_SET = "heldout_v3_utterances.jsonl"
# Written (2026-12-01) for the precision round: sarcasm, hearsay, reactions to the
# conversation, language words as adjectives, errands; iterated on.
DEV_V4_SET = "dev_v4_utterances.jsonl"
# Written and committed (c3d6795) before any rule of the precision round changed, never used
# to change one; run once, at the end of that round. Development data since the fifth round.
HELD_OUT_V4_SET = "heldout_v4_utterances.jsonl"
# Written (2026-12-03) for the fifth round, freer wordings of the same slots: one set by the
# person who changed the rules, one by a helper who never read them; iterated on.
DEV_V5_SET = "dev_v5_utterances.jsonl"
DEV_V5B_SET = "dev_v5b_utterances.jsonl"
# Written by a helper who read only README.md, never the rules, and committed (f51ff3a)
# before any rule of the fifth round changed; run once, at the end of that round.
HELD_OUT_V5_SET = "heldout_v5_utterances.jsonl"
# Written (2026-12-04) by a helper who read only the key-scheme sections of README.md, for
# the sixth round (precision); scored once before that round's rules, then iterated on.
DEV_V6B_SET = "dev_v6b_utterances.jsonl"
# Written by a helper blind to the rules and committed (1bd96e7) before any rule of the sixth
# round changed; run once, at the end of that round.
HELD_OUT_V6_SET = "heldout_v6_utterances.jsonl"
_EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class KindScore:
    """Counts and ratios for one kind of memory."""

    kind: str
    expected: int
    produced: int
    true_positives: int
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class ReflectorScore:
    """How the reflector did on a labelled set, overall and per kind.

    A ratio with nothing to count (no candidate produced, nothing expected) is 1.0: there was
    nothing to get wrong. `missed` and `spurious` list (text, kind, key) for inspection.
    """

    utterances: int
    expected: int
    produced: int
    true_positives: int
    precision: float
    recall: float
    f1: float
    per_kind: tuple[KindScore, ...]
    missed: tuple[tuple[str, str, str], ...]
    spurious: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class _Utterance:
    speaker: str
    text: str
    expected: tuple[tuple[str, str, str | None], ...]  # kind, key, subject (None: any)


def _ratio(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _load(path: str | Path | None) -> list[_Utterance]:
    if path is None:
        text = files("hindsight_common.reflection").joinpath(LABELLED_SET).read_text("utf-8")
        where = LABELLED_SET
    else:
        text, where = Path(path).read_text("utf-8"), str(path)
    utterances: list[_Utterance] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            expected = tuple(
                (str(item["kind"]), str(item["key"]),
                 None if item.get("subject") is None else str(item["subject"]).casefold())
                for item in row["expected"])
            utterances.append(_Utterance(str(row["speaker"]), str(row["text"]), expected))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(
                f"{where}:{number}: expected a JSON object with 'speaker', 'text' and "
                f"'expected' (a list of {{'kind', 'key'}}): {error}") from error
    return utterances


def evaluate(path: str | Path | None = None) -> ReflectorScore:
    """Score `reflect_turns` on a labelled JSONL set (default: the set shipped here).

    Raises FileNotFoundError for a missing file and ValueError for a malformed line.
    """
    utterances = _load(path)
    expected_by_kind: Counter[str] = Counter()
    produced_by_kind: Counter[str] = Counter()
    hits_by_kind: Counter[str] = Counter()
    missed: list[tuple[str, str, str]] = []
    spurious: list[tuple[str, str, str]] = []
    for index, utterance in enumerate(utterances):
        turn = Turn(f"utterance-{index}", utterance.speaker, "user", utterance.text, _EPOCH)
        produced = [(c.kind, c.key, c.entities[0].casefold() if c.entities else "")
                    for c in reflect_turns([turn])]
        remaining = list(utterance.expected)
        expected_by_kind.update(item[0] for item in utterance.expected)
        produced_by_kind.update(kind for kind, _, _ in produced)
        for kind, key, subject in produced:
            match = next((item for item in remaining if item[:2] == (kind, key)
                          and item[2] in (None, subject)), None)
            if match is not None:
                remaining.remove(match)
                hits_by_kind[kind] += 1
            else:
                spurious.append((utterance.text, kind, key))
        missed.extend((utterance.text, kind, key) for kind, key, _ in remaining)
    per_kind = []
    for kind in KINDS:
        precision = _ratio(hits_by_kind[kind], produced_by_kind[kind])
        recall = _ratio(hits_by_kind[kind], expected_by_kind[kind])
        per_kind.append(KindScore(kind, expected_by_kind[kind], produced_by_kind[kind],
                                  hits_by_kind[kind], precision, recall,
                                  _f1(precision, recall)))
    hits, produced_total = sum(hits_by_kind.values()), sum(produced_by_kind.values())
    expected_total = sum(expected_by_kind.values())
    precision, recall = _ratio(hits, produced_total), _ratio(hits, expected_total)
    return ReflectorScore(len(utterances), expected_total, produced_total, hits, precision,
                          recall, _f1(precision, recall), tuple(per_kind), tuple(missed),
                          tuple(spurious))
