"""Score the PII detectors against a labelled corpus (``corpus/pii.jsonl``, shipped in
the package): precision and recall per type, and how many harmless samples were touched.

Each line is ``{"id", "text", "spans": [{"type", "start", "end"}], "note"?}``; a sample
with no spans is a negative (a look-alike that must survive untouched).

Scoring, stricter than "found something nearby": an expected span counts as redacted only
when findings cover every one of its characters (a half-redacted card still leaks), and
as typed correctly when a finding of its own type overlaps it. A finding is a true
positive of its type when it overlaps an expected span of that type.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

from hindsight_common.security.pii_detect import Finding, find_pii
from hindsight_common.security.pii_types import PII_TYPES, PiiType

CORPUS = "corpus/pii.jsonl"


@dataclass(frozen=True)
class Span:
    type: PiiType
    start: int
    end: int


@dataclass(frozen=True)
class Sample:
    id: str
    text: str
    spans: tuple[Span, ...]


@dataclass
class TypeScore:
    expected: int = 0
    found: int = 0  # expected spans covered by findings of this type
    findings: int = 0
    correct_findings: int = 0

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float:
        return self.correct_findings / self.findings if self.findings else 1.0


@dataclass
class CorpusScore:
    positives: int = 0
    negatives: int = 0
    expected: int = 0
    redacted: int = 0  # expected spans fully covered by any finding
    negatives_touched: int = 0
    chars: int = 0
    seconds: float = 0.0
    per_type: dict[str, TypeScore] = field(default_factory=lambda: {t: TypeScore() for t in PII_TYPES})
    misses: list[str] = field(default_factory=list)  # sample ids, for whoever tunes
    touched: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        """Share of expected values fully redacted, whatever type they were given."""
        return self.redacted / self.expected if self.expected else 1.0

    @property
    def precision(self) -> float:
        findings = sum(s.findings for s in self.per_type.values())
        correct = sum(s.correct_findings for s in self.per_type.values())
        return correct / findings if findings else 1.0

    @property
    def negatives_touched_share(self) -> float:
        return self.negatives_touched / self.negatives if self.negatives else 0.0

    @property
    def chars_per_s(self) -> float:
        return self.chars / self.seconds if self.seconds else 0.0


def load_corpus(path: Path | None = None) -> list[Sample]:
    """The corpus at ``path`` (default: the one shipped in the package)."""
    text = path.read_text() if path else files("hindsight_common.security").joinpath(CORPUS).read_text()
    samples = []
    for line in text.splitlines():
        if line.strip():
            row = json.loads(line)
            spans = tuple(Span(s["type"], s["start"], s["end"]) for s in row["spans"])
            samples.append(Sample(row["id"], row["text"], spans))
    return samples


def _covered(span: Span, findings: list[Finding]) -> bool:
    chars = set(range(span.start, span.end))
    for f in findings:
        chars -= set(range(f.start, f.end))
    return not chars


def score(samples: list[Sample]) -> CorpusScore:
    """Run ``find_pii`` over every sample and score it."""
    result = CorpusScore()
    started = time.perf_counter()
    found = [find_pii(s.text) for s in samples]
    result.seconds = time.perf_counter() - started
    for sample, findings in zip(samples, found, strict=True):
        result.chars += len(sample.text)
        if not sample.spans:
            result.negatives += 1
            if findings:
                result.negatives_touched += 1
                result.touched.append(sample.id)
        else:
            result.positives += 1
        for span in sample.spans:
            result.expected += 1
            per = result.per_type[span.type]
            per.expected += 1
            if _covered(span, findings):
                result.redacted += 1
            else:
                result.misses.append(sample.id)
            if _covered(span, [f for f in findings if f.type == span.type]):
                per.found += 1
        for f in findings:
            per = result.per_type[f.type]
            per.findings += 1
            if any(s.type == f.type and f.start < s.end and s.start < f.end for s in sample.spans):
                per.correct_findings += 1
    return result
