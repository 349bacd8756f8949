"""``hindsight bench security``: how well the security layers do on labelled corpora.

In-process, no server. Each section is a function that returns a :class:`Section`
(printed lines and figures for ``--json``); ``SECTIONS`` lists them in the order they
run, so a layer adds its section without touching the others.

- ``redaction``: the PII detectors (hindsight_common/security/pii_detect.py) over
  ``security/corpus/pii.jsonl`` or another file of the same format: precision and recall
  per type and overall, the share of harmless samples touched, throughput, and the slowest
  of a few contents crafted to make the patterns backtrack.
- ``signing``: what signing costs ingest and verifying costs a read
  (``services/hindsight_services/bench_signing.py``).
- ``screening``: the injection classifier (hindsight_common/security/screening.py) over
  ``security/corpus/injection.jsonl`` or another file of its format: recall and precision per
  attack family, the shares of attacks quarantined and benign samples kept, throughput
  (``hindsight bench screening --embedded`` runs the same corpus through the HTTP ingest).
- ``encryption``: what sealing content on the log costs: AES-GCM per event, and embedded
  ingest throughput and recall latency unsealed and sealed
  (``services/hindsight_services/bench_erasure.py``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import JsonValue

from hindsight_common.security.pii_corpus import load_corpus, score
from hindsight_common.security.pii_detect import find_pii
from hindsight_services.bench_erasure import encryption_figures
from hindsight_services.bench_signing import signing_figures
from hindsight_services.bench_screening import corpus as screening_corpus
from hindsight_services.bench_screening import run_classifier, screening_figures, screening_lines

# The targets of issue 10: what the redaction section reports as met or not.
REDACTION_RECALL_TARGET = 0.99
NEGATIVES_TOUCHED_TARGET = 0.02


@dataclass(frozen=True)
class Section:
    name: str
    lines: list[str]
    figures: dict[str, JsonValue] = field(default_factory=dict)


def crafted_inputs(size: int = 32_000) -> dict[str, str]:
    """Contents of ``size`` characters built to make regular expressions backtrack (long
    runs of what a pattern almost matches): the redaction's worst cases."""
    units = {
        "dotted digits": "1.", "dashed digits": "12-", "dots then a slash": "a.",
        "an address's domain": "a.", "spelled-out dots": "a dot ", "digits and spaces": "1 ",
        "colons": "a:", "underscores": "a_", "BEGIN lines": "-----BEGIN PRIVATE KEY-----",
    }
    out = {name: unit * (size // len(unit)) for name, unit in units.items()}
    out["dots then a slash"] += "/"
    out["an address's domain"] = "x@" + out["an address's domain"] + "1"
    out["many e-mail addresses"] = "a@b.co " * (size // 7)  # thousands of findings to place
    return out


def _slowest_crafted() -> tuple[str, float]:
    timings = {}
    for name, text in crafted_inputs().items():
        started = time.perf_counter()
        find_pii(text)
        timings[name] = time.perf_counter() - started
    name = max(timings, key=lambda n: timings[n])
    return name, timings[name]


def redaction_section(args: argparse.Namespace) -> Section:
    """Detectors over the PII corpus; ``args.pii_corpus`` (a path or None) and
    ``args.repeat`` (passes for the throughput figure)."""
    samples = load_corpus(args.pii_corpus)
    result = score(samples)
    repeat = max(1, args.repeat)
    chars = result.chars
    seconds = result.seconds
    for _ in range(repeat - 1):
        again = score(samples)
        chars += again.chars
        seconds += again.seconds
    chars_per_s = chars / seconds if seconds else 0.0
    samples_per_s = len(samples) * repeat / seconds if seconds else 0.0
    slowest, slowest_s = _slowest_crafted()
    met = result.recall >= REDACTION_RECALL_TARGET and result.negatives_touched_share <= NEGATIVES_TOUCHED_TARGET
    lines = [
        f"corpus: {args.pii_corpus or 'security/corpus/pii.jsonl (shipped)'}: {result.positives} positive "
        f"samples ({result.expected} values), {result.negatives} negative",
        f"{'type':<12} {'values':>6} {'recall':>7} {'precision':>9} {'findings':>8}",
    ]
    per_type: dict[str, JsonValue] = {}
    for name, s in result.per_type.items():
        lines.append(f"{name:<12} {s.expected:>6} {s.recall:>7.3f} {s.precision:>9.3f} {s.findings:>8}")
        per_type[name] = {"values": s.expected, "recall": round(s.recall, 4),
                          "precision": round(s.precision, 4), "findings": s.findings}
    lines += [
        f"{'overall':<12} {result.expected:>6} {result.recall:>7.3f} {result.precision:>9.3f}"
        "   (recall: values fully redacted, whatever type)",
        f"negatives touched: {result.negatives_touched}/{result.negatives} = {result.negatives_touched_share:.3f}",
        f"throughput: {chars_per_s:,.0f} chars/s, {samples_per_s:,.0f} samples/s ({repeat} passes)",
        f"slowest crafted 32,000-character content: {slowest_s * 1000:,.0f} ms ({slowest})",
        f"targets (recall >= {REDACTION_RECALL_TARGET}, negatives touched <= {NEGATIVES_TOUCHED_TARGET}): "
        + ("met" if met else "NOT met"),
    ]
    if result.misses:
        lines.append("missed: " + ", ".join(sorted(set(result.misses))))
    if result.touched:
        lines.append("touched negatives: " + ", ".join(result.touched))
    figures: dict[str, JsonValue] = {
        "positives": result.positives,
        "negatives": result.negatives,
        "values": result.expected,
        "recall": round(result.recall, 4),
        "precision": round(result.precision, 4),
        "negatives_touched": result.negatives_touched,
        "negatives_touched_share": round(result.negatives_touched_share, 4),
        "chars_per_s": round(chars_per_s),
        "samples_per_s": round(samples_per_s),
        "slowest_crafted_ms": round(slowest_s * 1000, 1),
        "per_type": per_type,
        "missed": list(sorted(set(result.misses))),
        "touched": list(result.touched),
        "targets_met": met,
    }
    return Section("redaction", lines, figures)


def screening_section(args: argparse.Namespace) -> Section:
    """The injection classifier over ``args.injection_corpus`` (a path or None)."""
    result = run_classifier(screening_corpus(args.injection_corpus))
    return Section("screening", screening_lines(result, "classifier"), screening_figures(result))


SECTIONS: dict[str, Callable[[argparse.Namespace], Section]] = {
    "redaction": redaction_section,
    "signing": lambda args: Section("signing", *signing_figures(args)),
    "screening": screening_section,
    "encryption": lambda args: Section("encryption", *encryption_figures(args)),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``bench security`` (each section reads its own)."""
    p.add_argument("--section", action="append", choices=list(SECTIONS), default=None,
                   help="run only this section (repeatable); default: all but encryption")
    p.add_argument("--pii-corpus", type=Path, default=None,
                   help="a JSON-lines file of labelled samples; default: the shipped corpus")
    p.add_argument("--injection-corpus", type=Path, default=None,
                   help="screening: a JSON-lines file of labelled attacks and benign samples; default: the shipped one")
    p.add_argument("--repeat", type=int, default=5, help="passes over each corpus for throughput")
    p.add_argument("--json", action="store_true", help="also print one JSON object as the last line")


#: Sections that run only when named (--section): the encryption one starts embedded apps.
OPT_IN = frozenset({"encryption"})


def run_security_bench(args: argparse.Namespace) -> list[Section]:
    return [SECTIONS[name](args) for name in args.section or [n for n in SECTIONS if n not in OPT_IN]]


def print_sections(sections: list[Section], as_json: bool) -> None:
    for section in sections:
        print(f"== {section.name}")
        for line in section.lines:
            print(line)
    if as_json:
        print(json.dumps({s.name: s.figures for s in sections}))
