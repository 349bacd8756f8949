"""The text and graph projections keep the same logical content as they get faster.

A small deterministic log (synthetic turns of a few users, plus turns written to exercise
the entity extractor) is projected by ``Project.handle`` into the real SQLite FTS5 index
and SQLite graph, in batches of several sizes and with a redelivered batch; the
``hindsight verify`` digests of what the stores hold must equal those of what the log
implies, and both must equal the digests recorded before the projection path was
optimised (``GOLDEN``: a change to the contexts, the entities or the payloads of these
documents changes them; update them only for an intended change of what is projected).
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.adapters.sqlite_graph import SqliteGraph
from hindsight_common.bench import synthetic
from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.log import LogRecord
from hindsight_common.streams import INTERACTIONS
from hindsight_services.project.handler import Project
from hindsight_services.verify import digest, implied_graph, implied_text, stored_graph, stored_text

TENANT = "digests"
WRITTEN = [
    "Thanks Caroline! We drove to New York with Dr. Smith and J. K. Rowling's editor.",
    "Melanie, that's great. Did you read \"The Name of the Wind\" on your iPhone?",
    "NASA and the Bank of America sponsored @pixel_runner at the Lake Tahoe race.",
    "last Monday I met Ann and Bob at St. Louis airport; Ann's dog came too.",
    "OK LOL THAT WAS GREAT",
    "Visit San Francisco, then Los Angeles. Marks and Spencer had a sale.",
]
GOLDEN = {
    "text": "2b919de693b992e442528efefcb1631f7043780541e6cb22b1619f6243a17bc0",
    "graph": "5694d2883b117135aeb3ede942035928fbcf045e609cb1c51471c0033d1c4242",
}


def _records() -> list[LogRecord]:
    turns = list(synthetic.turns(90, users=4))
    events = []
    for i, t in enumerate(turns):
        content = WRITTEN[i // 15] if i % 15 == 7 else t.content
        events.append(InteractionRecorded(
            event_id=uuid.uuid5(uuid.NAMESPACE_URL, f"digests/{i}"), tenant=TENANT, user=t.user,
            session=t.session, speaker=t.speaker, role="user", content=content,
            occurred_at=t.occurred_at, recorded_at=t.occurred_at))
    return [LogRecord(INTERACTIONS, 0, n, f"{TENANT}/{e.user}", b"", e) for n, e in enumerate(events, start=1)]


async def _project(directory: Path, batches: list[list[LogRecord]]) -> tuple[str, str]:
    text, graph = SqliteFtsIndex(directory / "text.db"), SqliteGraph(directory / "graph.db")
    try:
        project = Project(text, graph)
        for batch in batches:
            await project.handle(batch, {f"{INTERACTIONS}#0": batch[-1].offset})
        return digest(await stored_text(text, [TENANT])), digest(await stored_graph(graph, [TENANT]))
    finally:
        await text.close()
        await graph.close()


async def test_the_log_implies_the_recorded_digests() -> None:
    records = _records()
    assert digest(await implied_text(records)) == GOLDEN["text"]
    assert digest(await implied_graph(records)) == GOLDEN["graph"]


@pytest.mark.parametrize("size", [1, 7, 90])
async def test_the_stores_hold_what_the_log_implies_whatever_the_batches(tmp_path: Path, size: int) -> None:
    records = _records()
    batches = [records[i : i + size] for i in range(0, len(records), size)]
    if size == 7:
        batches.insert(5, batches[3])  # a redelivered batch changes nothing
    assert await _project(tmp_path, batches) == (GOLDEN["text"], GOLDEN["graph"])
