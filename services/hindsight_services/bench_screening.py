"""``hindsight bench screening``: injection screening on a labelled corpus.

Prints, per attack family, recall (attacks of the family quarantined) and precision (of
the items quarantined with that family among their reasons, the share that are attacks),
then the share of all attacks quarantined, the share of benign samples kept (targets:
>= 95% each) and throughput.

Two ways to run it: the classifier alone (default; items screened per second), or
``--embedded``: every sample written through the real HTTP ingest of an in-process
embedded server, each in a session of its own, and the quarantines read back from the
log (turns recorded per second, screening included; ``--no-screening``: without it, for
what it costs). ``--corpus FILE`` runs another
JSON-lines corpus of the same form (``{"label", "family", "source", "text"}``); ``--blind [12|45]``
a shipped blind part (``injection_blind12.jsonl``, ``injection_blind45.jsonl``), which nothing
is trained or tuned on;
``--locomo FILE`` instead the share of a LoCoMo file's turns (ordinary conversation, no
attack among them) that would be quarantined as each source, with and without the
learned model.
The classifier alone also prints the throughput of the rules without the learned model,
for what the model costs, and ``--cv`` a leave-one-part-out cross-validation of the
learned model (``screening_cv``).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx
from pydantic import JsonValue

from hindsight_common.events.security import MemoryQuarantined
from hindsight_common.security.screening import Screener
from hindsight_common.security.screening_corpus import BLIND_PARTS, Figures, Outcome, Sample, figures, load_corpus, score
from hindsight_common.security.screening_cv import CrossValidation, cv_lines, leave_one_part_out
from hindsight_common.security.screening_samples import ORDINARY
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS

TARGET = 0.95
BATCH = 50
#: How a sample of each source is sent: its role, and the ``source`` to declare.
_SENT_AS = {"user": ("user", None), "assistant": ("assistant", None), "tool_output": ("tool", None),
            "system": ("system", None), "third_party": ("user", "third_party")}


def _interaction(i: int, sample: Sample) -> dict[str, Any]:
    role, source = _SENT_AS[sample.source]
    turn: dict[str, Any] = {"user": "bench", "session": f"screen-{i}", "speaker": sample.source, "role": role,
                            "content": sample.text}
    if source:
        turn["source"] = source
    return turn


async def run_embedded(samples: Sequence[Sample], data_dir: Path | None = None, screening: bool = True) -> Figures:
    """The corpus through the embedded server's HTTP ingest; outcomes read from the log.
    ``screening=False`` measures what ingest does without it (nothing is quarantined)."""
    from hindsight_services.embedded import create_app  # heavy: only this mode needs the server

    with tempfile.TemporaryDirectory(prefix="hindsight-bench-screening-") as tmp:
        settings = Settings(data_dir=data_dir or Path(tmp), max_batch=BATCH, screening=screening)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=120) as client:
                ids: list[str] = []
                started = time.perf_counter()
                for at in range(0, len(samples), BATCH):
                    chunk = [_interaction(at + j, s) for j, s in enumerate(samples[at : at + BATCH])]
                    r = await client.post("/v1/interactions", json={"interactions": chunk})
                    r.raise_for_status()
                    ids += [e["event_id"] for e in r.json()["events"]]
                elapsed = time.perf_counter() - started
            runtime = app.state.runtime
            held = {str(r.event.target_id): tuple(r.event.families) for r in await runtime.log.read(INTERACTIONS)
                    if isinstance(r.event, MemoryQuarantined)}
    outcomes = [Outcome(i in held, held.get(i, ())) for i in ids]
    return score(outcomes, samples, elapsed)


def run_classifier(samples: Sequence[Sample], settings: Settings | None = None) -> Figures:
    """The corpus through the classifier alone, at the settings' trust table."""
    return figures(Screener((settings or Settings()).screening_trust), samples)


def rules_throughput(samples: Sequence[Sample], settings: Settings | None = None) -> float:
    """Items screened per second of CPU by the rules without the learned model."""
    return figures(Screener((settings or Settings()).screening_trust, classifier=None), samples).items_per_s


def cross_validation(samples: Sequence[Sample], settings: Settings | None = None) -> CrossValidation:
    """Leave-one-part-out figures of ``samples`` (the ordinary text trained on in every fold)."""
    trust = (settings or Settings()).screening_trust
    return leave_one_part_out(samples, trust, always=load_corpus(shipped=ORDINARY))


def ordinary_quarantined(texts: Sequence[str], settings: Settings | None = None,
                         learned: bool = True) -> dict[str, float]:
    """Per source, the share of ``texts`` (ordinary conversation) that screening quarantines."""
    screener = Screener((settings or Settings()).screening_trust, classifier="shipped" if learned else None)
    return {source: sum(screener.screen(t, source).quarantine for t in texts) / max(1, len(texts))
            for source in ("user", "assistant", "tool_output", "third_party")}


def ordinary_lines(texts: Sequence[str], settings: Settings | None = None) -> list[str]:
    """False quarantines on ordinary conversation, per source, as printed lines."""
    both, rules = ordinary_quarantined(texts, settings), ordinary_quarantined(texts, settings, learned=False)
    return [f"ordinary conversation: {len(texts)} turns, none an attack; share quarantined as each source",
            f"{'source':<14}{'screening':>10}{'rules alone':>13}",
            *(f"{s:<14}{both[s]:>10.2%}{rules[s]:>13.2%}" for s in both)]


def corpus(path: Path | None, blind: int | None = None) -> list[Sample]:
    """``path``'s samples, or the shipped corpus (``blind``: that shipped blind part, 12 or 45)."""
    return load_corpus(path, shipped=BLIND_PARTS[blind]) if blind else load_corpus(path)


def screening_lines(result: Figures, where: str, rules_only_per_s: float | None = None) -> list[str]:
    """The figures as printed lines: a row per attack family, then the shares and throughput
    (and the rules' alone, when measured)."""
    clock = "wall clock, HTTP ingest included" if "embedded" in where else "CPU time"
    mark = {True: "meets", False: "BELOW"}
    lines = [
        f"injection screening ({where}): {result.attacks} attacks, {result.benign} benign samples",
        f"{'family':<14}{'attacks':>8}{'recall':>8}{'flagged':>9}{'precision':>11}",
        *(f"{f.family:<14}{f.attacks:>8}{f.recall:>8.3f}{f.flagged:>9}{f.precision:>11.3f}" for f in result.families),
        f"attacks quarantined: {result.attacks_quarantined:.3f} ({mark[result.attacks_quarantined >= TARGET]} "
        f"the {TARGET:.0%} target)",
        f"benign kept:         {result.benign_kept:.3f} ({mark[result.benign_kept >= TARGET]} the {TARGET:.0%} target)",
        f"throughput:          {result.items_per_s:,.0f} items/s ({clock})",
    ]
    if rules_only_per_s is not None:
        lines.append(f"rules without the learned model: {rules_only_per_s:,.0f} items/s ({clock})")
    if result.missed:
        lines.append("attacks kept: " + ", ".join(result.missed))
    if result.false_alarms:
        lines.append("benign quarantined: " + ", ".join(result.false_alarms))
    return lines


def screening_figures(result: Figures, rules_only_per_s: float | None = None,
                      cv: CrossValidation | None = None) -> dict[str, JsonValue]:
    """The figures as one JSON-able object."""
    data: dict[str, JsonValue] = json.loads(json.dumps(asdict(result)))
    data["targets_met"] = result.attacks_quarantined >= TARGET and result.benign_kept >= TARGET
    if rules_only_per_s is not None:
        data["rules_only_items_per_s"] = rules_only_per_s
    if cv is not None:
        data["cross_validation"] = json.loads(json.dumps(asdict(cv)))
    return data


def print_screening_bench(result: Figures, where: str, as_json: bool = False, rules_only_per_s: float | None = None,
                          cv: CrossValidation | None = None) -> None:
    """The figures as a table (or one JSON object), then the cross-validation if run."""
    if as_json:
        print(json.dumps(screening_figures(result, rules_only_per_s, cv), indent=2))
        return
    lines = screening_lines(result, where, rules_only_per_s) + (cv_lines(cv) if cv is not None else [])
    for line in lines:
        print(line)
