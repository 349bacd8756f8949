"""documents_of: a forget re-types the memory's own document, however the log is batched."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from hindsight_common.documents import documents_of
from hindsight_common.events import MemoryExtracted, MemoryForgotten
from hindsight_common.events.base import Event
from hindsight_common.events.memories import ReflectorInfo
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Document
from hindsight_common.streams import MEMORIES

MEMORY = uuid.uuid4()
AT = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def extracted(memory_id: uuid.UUID = MEMORY, tenant: str = "t1") -> MemoryExtracted:
    return MemoryExtracted(
        tenant=tenant, user="ann", occurred_at=AT, memory_id=memory_id, session="s1", subject="Ann",
        content="Ann loves hiking in the Alps.", kind="preference", key="hobby.outdoor", confidence=0.9,
        tags=("hobby",), source_event_ids=(uuid.uuid4(),), reflector=ReflectorInfo(name="offline-rules", version="1"),
    )


def forgotten(memory_id: uuid.UUID = MEMORY, tenant: str = "t1") -> MemoryForgotten:
    return MemoryForgotten(tenant=tenant, user="ann", occurred_at=datetime(2024, 6, 1, tzinfo=UTC),
                           memory_id=memory_id, reason="asked to")


def records(*events: Event, first_offset: int = 0) -> list[LogRecord]:
    return [LogRecord(MEMORIES, 0, first_offset + i, "t1/ann", b"", e) for i, e in enumerate(events)]


class Index:
    """A projection's documents by (tenant, id); ``get`` as the ports promise it."""

    def __init__(self) -> None:
        self.docs: dict[tuple[str, str], Document] = {}
        self.asked: list[tuple[str, list[str]]] = []

    async def get(self, tenant: str, ids: Sequence[str]) -> list[Document]:
        self.asked.append((tenant, list(ids)))
        return [self.docs[(tenant, i)] for i in ids if (tenant, i) in self.docs]

    async def apply(self, batch: Sequence[LogRecord]) -> list[Document]:
        written = [d for _, d in await documents_of(batch, self.get)]
        self.docs.update(((d.tenant, d.id), d) for d in written)
        return written


async def test_the_forgotten_memory_keeps_its_content_re_typed() -> None:
    index = Index()
    [memory] = await index.apply(records(extracted()))
    [tombstone] = await index.apply(records(forgotten(), first_offset=1))
    assert index.asked == [("t1", [str(MEMORY)])] * 2  # the extraction looks for a repeat, the forget for its memory
    assert tombstone == replace(memory, type="forgotten", offset=1)
    assert tombstone.content == "Ann loves hiking in the Alps." and tombstone.kind == "preference"


async def test_one_batch_or_two_give_the_same_documents_and_a_redelivery_changes_nothing() -> None:
    log = records(extracted(), forgotten())
    split, together = Index(), Index()
    for record in log:
        await split.apply([record])
    await together.apply(log)
    assert together.asked == [("t1", [str(MEMORY)])]  # asked, but the batch's own record wins
    assert split.docs == together.docs
    [doc] = together.docs.values()
    assert doc.type == "forgotten" and doc.content and doc.offset == 1
    await together.apply(log[1:])  # the forget redelivered
    assert together.docs == split.docs


async def test_an_unknown_memory_gets_an_empty_tombstone() -> None:
    index = Index()
    other_tenant = Index()
    await other_tenant.apply(records(extracted(tenant="t2")))
    index.docs.update(other_tenant.docs)  # same id, another tenant: not this memory
    [tombstone] = await index.apply(records(forgotten()))
    assert tombstone.type == "forgotten" and tombstone.content == "" and tombstone.tenant == "t1"
    assert tombstone.occurred_at == datetime(2024, 6, 1, tzinfo=UTC)


async def test_a_batch_of_extractions_looks_up_only_their_ids_once() -> None:
    index, other = Index(), uuid.uuid4()
    assert [d.type for d in await index.apply(records(extracted(), extracted(other)))] == [
        "semantic", "semantic"]
    assert index.asked == [("t1", [str(MEMORY), str(other)])]  # one call: is either a repeat?
