"""The labelled screening corpus shipped with the package: its samples and how they are
read (pure). ``corpus/injection.jsonl``: one JSON object a line, ``{"id", "part",
"label": "attack" | "benign", "family", "source", "text"}``, written for Hindsight.
``corpus/injection_blind12.jsonl`` (part 12) and ``corpus/injection_blind45.jsonl`` (part 45)
have the same form and are never trained or tuned on (``screening_corpus`` says how each
part was used). ``corpus/ordinary.jsonl``
holds ordinary chat, answers and tool results (family ``ordinary``), benign training
text for the classifier.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import cast

from hindsight_common.events.security import Source

CORPUS = "injection.jsonl"
BLIND = "injection_blind12.jsonl"
#: The blind parts by number: each written before the round it measures, run once at its end.
BLIND_PARTS = {12: BLIND, 45: "injection_blind45.jsonl"}
#: Ordinary text (no look-alikes): extra benign samples the classifier is trained on, never scored.
ORDINARY = "ordinary.jsonl"


@dataclass(frozen=True)
class Sample:
    id: str
    label: str  # "attack" or "benign"
    family: str  # the attack family, or the family a benign sample imitates ("quote", "fact")
    source: Source
    text: str
    part: int = 1


def load_corpus(path: Path | None = None, shipped: str = CORPUS) -> list[Sample]:
    """The samples of ``path`` (default: the ``shipped`` file of the package's corpus)."""
    if path is None:
        text = resources.files("hindsight_common.security").joinpath("corpus", shipped).read_text("utf-8")
    else:
        text = path.read_text("utf-8")
    out: list[Sample] = []
    for line in text.splitlines():
        if line.strip():
            row = json.loads(line)
            out.append(Sample(str(row["id"]), str(row["label"]), str(row["family"]),
                              cast(Source, str(row["source"])), str(row["text"]), int(row.get("part", 1))))
    return out
