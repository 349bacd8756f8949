"""The LoCoMo retrieval benchmark: data loading and recall@k (pure parts).

Definition (ours, since it measures our recall path, not an LLM's answers):
- every conversation is one user (``tenant=locomo-bench``, ``user=<sample_id>``);
  each session is a session; every turn is one interaction whose
  ``external_id`` is its dialogue id (``D3:5``) and whose time is the session's
  date plus one minute per turn (keeps turns ordered);
- a turn that shares an image carries its caption in the content;
- each question of categories 1-4 (multi-hop, temporal, open-domain,
  single-hop) with at least one evidence id is asked as-is, scoped to its
  conversation's user; category 5 (adversarial, no answer) is not scored;
- **k counts turns, not items**: the returned items are read in order and the
  dialogue ids they stand for are collected (an episodic item: its own turn; a
  semantic memory or a summary: the turns of its provenance) until k distinct ids
  are collected; an item that would pass k counts only up to k. recall@k of a
  question = |evidence ∩ those k ids| / |evidence|; the figure per category and
  overall is the mean over questions;
- evidence ids are read with ``D:?<n>:<n>`` (a regular expression) and normalised (``D30:05`` is
  ``D30:5``; ``'D8:6; D9:17'`` is two ids); a question whose evidence names no id is
  not scored;
- each conversation's questions are asked with ``reference_time`` just after its last
  session, so "last week" and time decay mean what they meant in the data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

CATEGORIES = ("1", "2", "3", "4")
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True)
class Turn:
    dia_id: str
    session: str
    speaker: str
    text: str
    occurred_at: datetime


@dataclass(frozen=True)
class Question:
    sample_id: str
    question: str
    category: str
    evidence: frozenset[str]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    @property
    def reference_time(self) -> datetime:
        """Just after the conversation's last session: "now" for its questions."""
        return max(t.occurred_at for t in self.turns) + timedelta(days=1)


def evidence_ids(evidence: Iterable[object]) -> frozenset[str]:
    """Dialogue ids named by a question's evidence strings, normalised."""
    text = " ".join(str(e) for e in evidence)
    return frozenset(f"D{int(a)}:{int(b)}" for a, b in _DIA_ID.findall(text))


def parse_session_time(text: str) -> datetime:
    """LoCoMo writes session times like '1:56 pm on 8 May, 2023'."""
    cleaned = re.sub(r"\s+", " ", text.strip())
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y"):
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo session time {text!r}")


def _turn_text(turn: Mapping[str, Any]) -> str:
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    if caption:
        text = f"{text} [shares an image: {caption}]".strip()
    return text


def _sessions(conv: Mapping[str, Any]) -> Iterable[tuple[str, datetime, Sequence[Mapping[str, Any]]]]:
    numbers = sorted(
        int(m.group(1)) for key in conv if (m := re.fullmatch(r"session_(\d+)", key))
    )
    for n in numbers:
        turns = conv[f"session_{n}"]
        when = conv.get(f"session_{n}_date_time")
        if not turns or not when:
            continue
        yield f"session_{n}", parse_session_time(str(when)), turns


def parse_conversation(sample: Mapping[str, Any]) -> Conversation:
    sample_id = str(sample["sample_id"])
    turns: list[Turn] = []
    for session, start, items in _sessions(sample["conversation"]):
        for i, item in enumerate(items):
            text = _turn_text(item)
            if not text:
                continue
            turns.append(
                Turn(str(item["dia_id"]), session, str(item["speaker"]), text,
                     start + timedelta(minutes=i))
            )
    questions = []
    for qa in sample.get("qa", []):
        category = str(qa.get("category"))
        evidence = evidence_ids(qa.get("evidence", []))
        if category in CATEGORIES and evidence:
            questions.append(Question(sample_id, str(qa["question"]), category, evidence))
    return Conversation(sample_id, tuple(turns), tuple(questions))


def load(path: Path) -> list[Conversation]:
    data = json.loads(path.read_text())
    if isinstance(data, dict):  # a single conversation, or {"samples": [...]}
        data = data.get("samples", [data])
    return [parse_conversation(s) for s in data]


def first_turns(retrieved: Sequence[Sequence[str]], k: int) -> list[str]:
    """The first ``k`` distinct dialogue ids that the items, read in order, stand for."""
    found: dict[str, None] = {}
    for ids in retrieved:
        for dia_id in ids:
            if len(found) == k:
                return list(found)
            found.setdefault(dia_id, None)
    return list(found)


def recall_at(evidence: frozenset[str], retrieved: Sequence[Sequence[str]], k: int) -> float:
    """Share of the evidence among the first ``k`` turns the items stand for (k counts
    turns: a memory citing three turns uses three of the budget)."""
    return len(evidence & set(first_turns(retrieved, k))) / len(evidence)


def summarise(
    per_question: Sequence[tuple[Question, Sequence[Sequence[str]]]], ks: Sequence[int]
) -> dict[str, dict[str, float]]:
    """Mean recall@k per category and overall: {"10": {"1": r, ..., "all": r}}."""
    out: dict[str, dict[str, float]] = {}
    for k in ks:
        by_cat: dict[str, list[float]] = {c: [] for c in CATEGORIES}
        for q, retrieved in per_question:
            by_cat[q.category].append(recall_at(q.evidence, retrieved, k))
        row = {c: (sum(v) / len(v) if v else 0.0) for c, v in by_cat.items()}
        every = [x for v in by_cat.values() for x in v]
        row["all"] = sum(every) / len(every) if every else 0.0
        out[str(k)] = row
    return out


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]
