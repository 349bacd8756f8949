"""thorough's diversity step (MMR over the vectors the index holds)."""

from __future__ import annotations

from typing import Any

from tests.integration.conftest import App
from tests.integration.test_http_api import ingest, recall, turn

SAME = [
    "I really love eating pizza on Friday nights.",
    "I really love eating pizza on Friday night.",
    "I truly love eating pizza on Friday nights.",
    "I really love to eat pizza on Friday nights.",
]
OTHER = "My favourite pizza place is in Naples, by the harbour."
FILLER = ["The weather was grey and rainy.", "I bought a red bicycle for commuting.",
          "We watched a film about whales.", "My sister plays the cello."]


def hits(items: list[dict[str, Any]]) -> list[str]:
    return [i["content"] for i in items if i["context_for"] is None]  # not the added neighbours


async def test_thorough_trades_near_duplicates_for_a_different_relevant_turn(app: App) -> None:
    # One session per turn, days apart: context expansion adds no neighbours to compare.
    await ingest(app, *[turn(c, session=f"s{i}", occurred_at=f"2024-05-{i + 1:02d}T10:00:00Z")
                        for i, c in enumerate(SAME + [OTHER] + FILLER)])
    await app.runtime.wait_caught_up()
    question = "Does she love pizza?"
    plain = hits(await recall(app, question, k=2, preset="balanced"))
    assert len(plain) == 2 and all(c in SAME for c in plain)  # without diversity: two of the same
    diverse = hits(await recall(app, question, k=2, preset="thorough"))
    assert len(diverse) == 2 and diverse[0] in SAME and diverse[1] == OTHER
