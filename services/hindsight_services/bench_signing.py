"""The ``signing`` section of ``hindsight bench security``: what signing costs ingest and
what verifying costs a read, in one Python thread, over synthetic turns.

- ingest: ``to_events`` (validation, PII redaction, event building) over batches of
  synthetic turns without a keyring and with one: turns per second each way;
- sign / verify: microseconds per item for ``sign_events`` and ``Integrity.accepts``;
- tamper: every document with one signed field changed is refused (a check, not a speed).
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from pydantic import JsonValue

from hindsight_common.api import IngestRequest, InteractionIn
from hindsight_common.bench import synthetic
from hindsight_common.documents import document_from_record
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Document
from hindsight_common.security.pii import PiiPolicy
from hindsight_common.security.signed_items import Integrity, sign_events
from hindsight_common.security.signing import Keyring
from hindsight_common.streams import INTERACTIONS
from hindsight_services.ingest.handler import to_events

TURNS = 2000
BATCH = 100


def _best_of(repeat: int, *works: Callable[[], object]) -> list[float]:
    """The fastest of ``repeat`` runs of each of ``works``, in seconds, the runs taken in
    turn (so that a shared machine's changing load falls on each alike)."""
    best = [float("inf")] * len(works)
    for _ in range(max(1, repeat)):
        for i, work in enumerate(works):
            start = time.perf_counter()
            work()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def signing_figures(args: argparse.Namespace) -> tuple[list[str], dict[str, JsonValue]]:
    repeat = int(getattr(args, "repeat", 5))
    ring = Keyring({"bench": b"b" * 32}, "bench")
    pii = PiiPolicy()
    batches = []
    all_turns = list(synthetic.turns(TURNS))
    for i in range(0, TURNS, BATCH):
        batches.append(IngestRequest(interactions=[
            InteractionIn(user=t.user, session=t.session, speaker=t.speaker, content=t.content,
                          occurred_at=t.occurred_at) for t in all_turns[i:i + BATCH]]))

    def ingest(keyring: Keyring | None) -> Callable[[], object]:
        return lambda: [to_events(b, "bench", pii, keyring) for b in batches]

    plain_s, signed_s = _best_of(repeat, ingest(None), ingest(ring))
    events = [e for b in batches for e in to_events(b, "bench", pii)]
    [sign_s] = _best_of(repeat, lambda: sign_events(ring, events))
    docs: list[Document] = []
    for i, e in enumerate(sign_events(ring, events)):
        d = document_from_record(LogRecord(INTERACTIONS, 0, i, f"bench/{e.user}", b"", e))
        assert d is not None
        docs.append(d)
    integrity = Integrity(ring)
    [verify_s] = _best_of(repeat, lambda: [integrity.accepts(d, "bench") for d in docs])
    tampered = [replace(d, content=d.content + " ") for d in docs[:200]]
    audit = logging.getLogger("hindsight_common.security.signed_items")
    level = audit.level
    audit.setLevel(logging.ERROR)  # not 200 warnings about the bench's own tampering
    try:
        refused = sum(not integrity.accepts(d, "bench") for d in tampered)
    finally:
        audit.setLevel(level)

    per_item = 1e6 / TURNS
    lines = [
        f"ingest to_events, {TURNS} synthetic turns in batches of {BATCH} (best of {repeat}): "
        f"{TURNS / plain_s:,.0f} turns/s unsigned, {TURNS / signed_s:,.0f} turns/s signed "
        f"(signing adds {(signed_s - plain_s) * per_item:.0f} µs a turn)",
        f"sign: {sign_s * per_item:.1f} µs per event; verify: {verify_s * per_item:.1f} µs per document",
        f"tampered documents refused: {refused}/{len(tampered)}",
    ]
    figures: dict[str, JsonValue] = {
        "turns": TURNS,
        "ingest_turns_per_s_unsigned": round(TURNS / plain_s),
        "ingest_turns_per_s_signed": round(TURNS / signed_s),
        "sign_us_per_event": round(sign_s * per_item, 2),
        "verify_us_per_document": round(verify_s * per_item, 2),
        "tampered_refused": refused,
        "tampered": len(tampered),
    }
    return lines, figures
