"""The labelled screening corpus shipped with the package, and the figures a screener gets
on it (pure; ``hindsight bench screening`` prints them, a unit test holds the targets).

``corpus/injection.jsonl``: one JSON object a line, ``{"id", "part", "label": "attack" |
"benign", "family", "source", "text"}``. Written for Hindsight, never copied. ``part`` 1
was written before the rules existed, parts 2 to 6 each after tuning on the parts before
it and before the rules had seen them; their first-run figures are in the README.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import cast

from hindsight_common.events.security import Source
from hindsight_common.security.screening import Screener, Verdict

CORPUS = "injection.jsonl"


@dataclass(frozen=True)
class Sample:
    id: str
    label: str  # "attack" or "benign"
    family: str  # the attack family, or the family a benign sample imitates ("quote", "fact")
    source: Source
    text: str
    part: int = 1


@dataclass(frozen=True)
class FamilyFigures:
    family: str
    attacks: int
    recall: float  # attacks of this family quarantined
    flagged: int  # quarantined items whose reasons name this family
    precision: float  # of those, the share that are attacks


@dataclass(frozen=True)
class Figures:
    attacks: int
    benign: int
    attacks_quarantined: float
    benign_kept: float
    families: list[FamilyFigures]
    items_per_s: float
    missed: list[str] = field(default_factory=list)  # ids of attacks kept
    false_alarms: list[str] = field(default_factory=list)  # ids of benign samples quarantined


def load_corpus(path: Path | None = None) -> list[Sample]:
    """The samples of ``path`` (default: the corpus shipped with the package)."""
    if path is None:
        text = resources.files("hindsight_common.security").joinpath("corpus", CORPUS).read_text("utf-8")
    else:
        text = path.read_text("utf-8")
    out: list[Sample] = []
    for line in text.splitlines():
        if line.strip():
            row = json.loads(line)
            out.append(Sample(str(row["id"]), str(row["label"]), str(row["family"]),
                              cast(Source, str(row["source"])), str(row["text"]), int(row.get("part", 1))))
    return out


@dataclass(frozen=True)
class Outcome:
    """What happened to one sample: held back or not, and the families its reasons name."""

    quarantined: bool
    families: tuple[str, ...] = ()


def figures(screener: Screener, samples: Sequence[Sample]) -> Figures:
    """How ``screener`` does on ``samples`` (screened here, one by one); throughput per
    second of this process's CPU time, which a busy machine does not distort."""
    started = time.process_time()
    verdicts: list[Verdict] = [screener.screen(s.text, s.source) for s in samples]
    elapsed = time.process_time() - started
    return score([Outcome(v.quarantine, v.families) for v in verdicts], samples, elapsed)


def score(outcomes: Sequence[Outcome], samples: Sequence[Sample], elapsed_s: float) -> Figures:
    """Shares quarantined and kept, precision and recall per attack family, and items
    screened per second, from what happened to each sample (in order)."""
    pairs = list(zip(samples, outcomes, strict=True))
    attacks = [(s, o) for s, o in pairs if s.label == "attack"]
    benign = [(s, o) for s, o in pairs if s.label != "attack"]
    rows: list[FamilyFigures] = []
    for family in sorted({s.family for s, _ in attacks}):
        mine = [o for s, o in attacks if s.family == family]
        flagged = [s for s, o in pairs if o.quarantined and family in o.families]
        rows.append(FamilyFigures(
            family, len(mine), sum(o.quarantined for o in mine) / len(mine), len(flagged),
            sum(s.label == "attack" for s in flagged) / len(flagged) if flagged else 1.0))
    return Figures(
        attacks=len(attacks), benign=len(benign),
        attacks_quarantined=sum(o.quarantined for _, o in attacks) / max(1, len(attacks)),
        benign_kept=sum(not o.quarantined for _, o in benign) / max(1, len(benign)),
        families=rows, items_per_s=len(samples) / max(elapsed_s, 1e-9),
        missed=[s.id for s, o in attacks if not o.quarantined],
        false_alarms=[s.id for s, o in benign if o.quarantined],
    )
