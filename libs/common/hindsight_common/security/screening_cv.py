"""Leave-one-part-out cross-validation of screening (pure): for each part of a corpus, the
classifier is trained on every other part and the screener run on the held-out one.

The corpus was written in parts, each in wording the earlier ones had not used, so a part
held out is the nearest thing the corpus has to text never seen. The learned half is
held out honestly; the rules were hand-tuned on every part (after each part's first run),
so the figures of the combined screener are optimistic where the rules are concerned and
the classifier's own figures (``learned_only``) say what it carries over by itself.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hindsight_common.security.screening import Screener, learned_findings
from hindsight_common.security.screening_corpus import Figures, Outcome, Sample, score
from hindsight_common.security.screening_model import Classifier, train
from hindsight_common.security.screening_trust import threshold


@dataclass(frozen=True)
class HeldOut:
    """One part's figures, screened by a classifier that never saw it."""

    part: int
    combined: Figures  # the rules and the classifier, as shipped
    learned_only: Figures  # the classifier alone, at the same trust thresholds


@dataclass(frozen=True)
class CrossValidation:
    parts: list[HeldOut]
    combined: Figures  # every part's held-out outcomes pooled
    learned_only: Figures
    train_s: float  # mean CPU seconds to train one model


def fit(samples: Sequence[Sample]) -> Classifier:
    return train([s.text for s in samples], [s.label == "attack" for s in samples])


def leave_one_part_out(samples: Sequence[Sample], trust: Mapping[str, float] | None = None,
                       always: Sequence[Sample] = ()) -> CrossValidation:
    """Per part and pooled figures with each part held out of training (a corpus of one
    part cannot be validated); ``always`` is trained on in every fold, never scored (the
    ordinary text the shipped model is also trained on)."""
    parts = sorted({s.part for s in samples})
    if len(parts) < 2:
        raise ValueError("leave-one-part-out needs a corpus of at least two parts")
    held: list[HeldOut] = []
    pooled: list[tuple[Sample, Outcome, Outcome]] = []
    train_s = 0.0
    for part in parts:
        test = [s for s in samples if s.part == part]
        started = time.process_time()
        model = fit([s for s in samples if s.part != part] + list(always))
        train_s += time.process_time() - started
        screener = Screener(trust, classifier=model)
        started = time.process_time()
        both: list[Outcome] = []
        alone: list[Outcome] = []
        for s in test:
            verdict = screener.screen(s.text, s.source)
            both.append(Outcome(verdict.quarantine, verdict.families))
            learned = learned_findings(model, s.text)
            caught = bool(learned) and learned[0].weight >= threshold(screener.trust[s.source])
            alone.append(Outcome(caught, ("classifier",) if caught else ()))
        elapsed = time.process_time() - started
        held.append(HeldOut(part, score(both, test, elapsed), score(alone, test, elapsed)))
        pooled += zip(test, both, alone, strict=True)
    ordered = [s for s, _, _ in pooled]
    return CrossValidation(
        held, score([b for _, b, _ in pooled], ordered, 1.0), score([a for _, _, a in pooled], ordered, 1.0),
        train_s / len(parts))


def cv_lines(cv: CrossValidation) -> list[str]:
    """The cross-validation as printed lines: a row per held-out part, then pooled."""
    def row(name: str, both: Figures, alone: Figures) -> str:
        caught = round(both.attacks_quarantined * both.attacks)
        kept = round(both.benign_kept * both.benign)
        return (f"{name:<8}{caught:>4}/{both.attacks:<4}{both.attacks_quarantined:>7.3f}{kept:>6}/{both.benign:<4}"
                f"{both.benign_kept:>7.3f}{alone.attacks_quarantined:>10.3f}{alone.benign_kept:>8.3f}")

    return [
        "leave-one-part-out (classifier trained without the part; the rules were written with most parts in view):",
        f"{'part':<8}{'attacks quarantined':>20}{'benign kept':>18}{'classifier alone':>18}",
        *(row(str(h.part), h.combined, h.learned_only) for h in cv.parts),
        row("pooled", cv.combined, cv.learned_only),
        f"training: {cv.train_s:.2f} s of CPU per model",
    ]
