"""What projections do with consolidation's events (consolidation/lifecycle.py through
documents_of), case by case: reinforcement, merges, supersession, conflicts."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from hindsight_common.events import (
    MemoriesMerged,
    MemoryConflicted,
    MemoryExtracted,
    MemoryForgotten,
    MemoryReinforced,
    MemorySuperseded,
)
from hindsight_common.events.memories import ReflectorInfo
from tests.unit.test_forgotten_documents import Index, records

INFO = ReflectorInfo(name="offline-rules", version="1")
AT = datetime(2024, 5, 1, tzinfo=UTC)
LATER = datetime(2024, 6, 1, tzinfo=UTC)


def memory(content: str, source: uuid.UUID) -> MemoryExtracted:
    return MemoryExtracted(
        tenant="t1", user="ann", occurred_at=AT, memory_id=uuid.uuid4(), session="s1", subject="Ann",
        content=content, kind="fact", key="personal.location", value=content, confidence=0.8,
        source_event_ids=(source,), source_external_ids=(f"x-{source.hex[:4]}",), reflector=INFO)


def reinforced(m: MemoryExtracted, source: uuid.UUID) -> MemoryReinforced:
    return MemoryReinforced(tenant="t1", user="ann", occurred_at=LATER, memory_id=m.memory_id, session="s2",
                            source_event_ids=(source,), confidence=0.8)


async def test_a_reinforcement_counts_once_per_new_evidence() -> None:
    index, s1, s2 = Index(), uuid.uuid4(), uuid.uuid4()
    porto = memory("Ann lives in Porto.", s1)
    await index.apply(records(porto))
    [doc] = await index.apply(records(reinforced(porto, s2), first_offset=1))
    assert (doc.type, doc.reinforced_count, doc.last_reinforced_at) == ("semantic", 1, LATER)
    assert doc.event_ids == (str(s1), str(s2)) and doc.confidence == 0.96  # 1 - 0.2 * 0.2
    # Same evidence again: nothing changes, the document comes back as it is (offset too).
    assert await index.apply(records(reinforced(porto, s2), first_offset=2)) == [doc]


async def test_a_merge_moves_provenance_and_a_later_reinforcement_follows_it() -> None:
    index, s1, s2, s3 = Index(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    kept, dup = memory("Ann lives in Porto.", s1), memory("Ann is living in Porto.", s2)
    await index.apply(records(kept, dup))
    merge = MemoriesMerged(tenant="t1", user="ann", occurred_at=LATER, kept_id=kept.memory_id,
                           merged_ids=(dup.memory_id,), source_event_ids=(s1, s2),
                           source_external_ids=(*kept.source_external_ids, *dup.source_external_ids),
                           confidence=0.96, reason="near-duplicate")
    new_kept, gone = await index.apply(records(merge, first_offset=2))
    assert new_kept.id == str(kept.memory_id) and new_kept.merged_from == (str(dup.memory_id),)
    assert new_kept.event_ids == (str(s1), str(s2)) and new_kept.reinforced_count == 1
    assert (gone.type, gone.merged_into, gone.content) == ("merged", str(kept.memory_id), dup.content)
    # A redelivered merge changes nothing: both documents come back as they are.
    assert await index.apply(records(merge, first_offset=3)) == [new_kept, gone]
    # reflect still knows the merged id: its evidence goes to the kept memory
    [followed] = await index.apply(records(reinforced(dup, s3), first_offset=4))
    assert followed.id == str(kept.memory_id) and str(s3) in followed.event_ids
    assert followed.reinforced_count == 2


async def test_supersession_links_both_ways_and_never_revives_a_forgotten_memory() -> None:
    index = Index()
    old, new, other = (memory(c, uuid.uuid4()) for c in ("Ann lives in Porto.", "Ann moved to Lisbon.", "x"))
    await index.apply(records(old, new, other))
    step = MemorySuperseded(tenant="t1", user="ann", occurred_at=LATER, old_id=old.memory_id,
                            new_id=new.memory_id, reason="new value")
    was, now = await index.apply(records(step, first_offset=3))
    assert (was.type, was.superseded_by) == ("superseded", str(new.memory_id))
    assert (now.type, now.supersedes) == ("semantic", (str(old.memory_id),))
    await index.apply(records(MemoryForgotten(tenant="t1", user="ann", occurred_at=LATER, memory_id=other.memory_id),
                              first_offset=4))
    late = MemorySuperseded(tenant="t1", user="ann", occurred_at=LATER, old_id=other.memory_id,
                            new_id=new.memory_id, reason="new value")
    written = await index.apply(records(late, first_offset=5))
    assert [d.type for d in written] == ["semantic"]  # only the new one's link; the forgotten stays forgotten
    assert index.docs[("t1", str(other.memory_id))].type == "forgotten"


async def test_a_conflict_tags_both_memories_once() -> None:
    index = Index()
    a, b = memory("Ann lives in Porto.", uuid.uuid4()), memory("Ann lives in Lisbon.", uuid.uuid4())
    await index.apply(records(a, b))
    flag = MemoryConflicted(tenant="t1", user="ann", occurred_at=AT, memory_ids=(a.memory_id, b.memory_id),
                            subject="ann", key="personal.location", reason="same time")
    tagged = await index.apply(records(flag, first_offset=2))
    assert [(d.type, d.tags) for d in tagged] == [("semantic", ("conflicted",))] * 2
    assert await index.apply(records(flag, first_offset=3)) == tagged  # again: as they are


async def test_a_redelivered_batch_with_the_extraction_merges_it_again() -> None:
    """A kill after a projection's write and before its position: the batch comes again
    while the store already holds its result. The batch's own extraction makes the
    merged memory live again, and the merge, though the kept one lists it already, must
    re-type it (else it stayed live for good, while a fresh replay has it merged)."""
    index, s1, s2 = Index(), uuid.uuid4(), uuid.uuid4()
    kept = memory("Ann lives in Porto.", s1)
    await index.apply(records(kept))
    dup = memory("Ann is living in Porto.", s2)
    merge = MemoriesMerged(tenant="t1", user="ann", occurred_at=LATER, kept_id=kept.memory_id,
                           merged_ids=(dup.memory_id,), source_event_ids=(s1, s2), confidence=0.9,
                           reason="near-duplicate")
    batch = records(dup, merge, first_offset=1)
    first = dict(index.docs)
    await index.apply(batch)
    once = dict(index.docs)
    await index.apply(batch)  # redelivered onto its own result
    assert index.docs == once and index.docs[("t1", str(dup.memory_id))].type == "merged"
    fresh = Index()
    fresh.docs = first
    await fresh.apply(records(dup, first_offset=1))  # cut elsewhere: the same documents
    await fresh.apply(records(merge, first_offset=2))
    assert fresh.docs == once


async def test_a_redelivered_decision_gives_a_lagging_projection_its_documents() -> None:
    """project looks documents up in the text index and writes text, then the graph: a
    kill between the two leaves the text updated and the graph not. The redelivered
    decision finds its documents already updated and must still give them back, for the
    graph to write."""
    index = Index()
    old, new = memory("Ann lives in Porto.", uuid.uuid4()), memory("Ann moved to Lisbon.", uuid.uuid4())
    await index.apply(records(old, new))
    step = MemorySuperseded(tenant="t1", user="ann", occurred_at=LATER, old_id=old.memory_id,
                            new_id=new.memory_id, reason="new value")
    written = await index.apply(records(step, first_offset=2))  # the text index's write
    again = await index.apply(records(step, first_offset=2))  # the redelivery, for the graph
    assert again == written and [d.type for d in again] == ["superseded", "semantic"]


async def test_a_memory_extracted_again_keeps_its_state() -> None:
    """reflect re-running a batch after a kill appends the same extraction (same memory
    id) after consolidate merged it, or after a user forgot it: it must not come back."""
    index, s1, s2 = Index(), uuid.uuid4(), uuid.uuid4()
    kept, dup = memory("Ann lives in Porto.", s1), memory("Ann is living in Porto.", s2)
    await index.apply(records(kept, dup))
    merge = MemoriesMerged(tenant="t1", user="ann", occurred_at=LATER, kept_id=kept.memory_id,
                           merged_ids=(dup.memory_id,), source_event_ids=(s1, s2), confidence=0.9,
                           reason="near-duplicate")
    await index.apply(records(merge, first_offset=2))
    await index.apply(records(MemoryForgotten(tenant="t1", user="ann", occurred_at=LATER, memory_id=kept.memory_id),
                              first_offset=3))
    before = dict(index.docs)
    again = [dup.model_copy(update={"event_id": uuid.uuid4()}), kept.model_copy(update={"event_id": uuid.uuid4()})]
    assert await index.apply(records(*again, first_offset=4)) == [before[("t1", str(dup.memory_id))],
                                                                   before[("t1", str(kept.memory_id))]]
    assert index.docs == before
    assert (index.docs[("t1", str(dup.memory_id))].type, index.docs[("t1", str(kept.memory_id))].type) == (
        "merged", "forgotten")
