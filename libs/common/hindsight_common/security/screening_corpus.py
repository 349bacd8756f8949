"""The figures a screener gets on the labelled corpus (pure; ``hindsight bench screening``
prints them, a unit test holds the targets).

The corpus (``screening_samples``) was written in parts: part 1 before the rules existed,
each later part before the rules had seen it and tuned on afterwards (first-run figures
in the README). Part 11 was the blind part of the first classifier; run once, it became a
development part (trained on, cross-validated) and parts 13 and 14 were written for what
it showed. Part 12, in a file of its own, was written before any of that and is only ever
run, never tuned on: it is the blind estimate. Part 16 (half of it in 27 other languages)
was written by a helper that never saw the rules or the corpus, run once by the screener
it was written against, then tuned on. Part 15, written blind before that round, was its
blind part: run once at the round's end, it became a development part, and part 17 (its own
file, written by a helper blind to everything) was the blind part of the round after, in which
part 18 (English worded to pass keyword filters) was written, run once and tuned on. Part 17
in turn joined the development parts after its one run, and so did part 19, the blind part of
the round after that. Parts 21 (English), 22 (other languages) and 23 (tool output) were
written blind by helpers for the next round, run once and joined the development parts
(``NEWEST_PARTS``: tuned on only in part); part 20 was that round's blind part and joined
them after its one run. Parts 25 (other languages) and 26 (English, by domain) were written
the same way for the round after, whose blind part, 24, joined them after its one run in
turn; part 27, the blind part of the round after that, joined them after its one run.
Parts 29 (English, a quarter of it the user's and the assistant's own words), 30 and 31 (other
languages) were written blind for the round after that, run once and tuned on in part; its
blind part, 28, joined them after its one run; part 33 (the user's and the assistant's own
words, half in other languages) was written the same way for the round after that, whose
blind part, 32, joined them after its one run; part 35 (half in other languages, 60 of each
label in the user's or the assistant's words) was written the same way for the round after
that, whose blind part, 34, joined them after its one run; part 36, the blind part of the
round after that, joined them after its one run too, as did part 37, the blind part of the
round after that, part 38, the blind part of the round after that, part 39, the blind part
of the round after that, part 40, the blind part of the round after that, part 41, the blind
part of the round after that, part 42, the blind part of the round after that, part 43, the
blind part of the round after that, and part 44, the blind part of the round after that; part
45 is the blind part of the round after that.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from hindsight_common.security.screening import Screener, Verdict
from hindsight_common.security.screening_samples import BLIND, BLIND_PARTS, CORPUS, Sample, load_corpus

#: Development parts of the latest rounds (21-23, 25, 26, 29-31, 33 and 35 written for them, 24,
#: 27, 28, 32, 34, 36, 37, 38, 39, 40, 41, 42, 43 and 44 their blind parts after their one run): tuned on only in part, so the test holds them to
#: what they reached rather than to the targets.
NEWEST_PARTS = frozenset({21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44})

__all__ = ["BLIND", "BLIND_PARTS", "CORPUS", "NEWEST_PARTS", "FamilyFigures", "Figures", "Outcome", "Sample", "figures", "load_corpus", "score"]


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
