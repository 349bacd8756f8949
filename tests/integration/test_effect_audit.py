"""The effect audit sees what counting documents cannot: on the real Kafka, PostgreSQL,
Elasticsearch (text and kNN vectors) and Neo4j, through the real embed and project
handlers, an event applied twice is caught though every projection holds the same
documents as before; a redelivery of the same record is not an effect; a record never
applied is caught. The same for reflect's and consolidate's effects on the memories
stream. (The checks are those of the kill -9 fault test, tests/e2e/test_faults_kill9.py.)"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hindsight_common.events import InteractionRecorded, MemoryExtracted, MemorySuperseded
from hindsight_common.events.memories import ReflectorInfo
from hindsight_common.factory import (
    make_effect_audit, make_graph_store, make_log, make_text_index, make_vector_index,
)
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.streams import INTERACTIONS
from hindsight_services.embed.handler import Embed
from hindsight_services.project.handler import Project
from tests.integration.test_cluster_verify import _settings
from tests.support.cluster_effects import assert_each_record_applied_once, memory_checks, read_streams

TENANT = "effect-audit"
WHEN = datetime(2024, 5, 1, 10, tzinfo=UTC)
PROJECTIONS = ("vector", "text", "graph")


async def tail(log: EventLog, after: dict[str, int]) -> list[LogRecord]:
    return [r for r in await read_streams(log, (INTERACTIONS,)) if r.offset > after.get(r.position_key, -1)]


async def test_a_double_application_is_caught_where_document_counts_see_nothing(
    tmp_path: Path, embedder: Embedder
) -> None:
    settings = _settings(tmp_path).model_copy(update={"effect_audit": True, "kafka_partitions": 1})
    log, audit = make_log(settings), make_effect_audit(settings)
    assert audit is not None
    vectors, text, graph = make_vector_index(settings, embedder.dim), make_text_index(settings), make_graph_store(settings)
    embed, project = Embed(embedder, vectors, audit), Project(text, graph, audit)

    async def apply(records: list[LogRecord]) -> None:
        position = {r.position_key: r.offset for r in records}
        await embed.handle(records, position)
        await project.handle(records, position)

    async def counts() -> list[int]:
        return [await p.count(TENANT) for p in (vectors, text, graph)]

    try:
        turns = [InteractionRecorded(tenant=TENANT, user="ann", session="s1", speaker="Ann", role="user",
                                     content=f"Ann booked table {n} in Lisbon.", occurred_at=WHEN + timedelta(minutes=n))
                 for n in range(3)]
        await log.append(INTERACTIONS, turns)
        first = await tail(log, {})
        await apply(first)
        assert assert_each_record_applied_once(first, await audit.effects(), PROJECTIONS) == dict.fromkeys(PROJECTIONS, 0)
        before = await counts()
        assert before == [3, 3, 3]

        # The same records delivered again (at-least-once): the same writes, not an effect.
        await apply(first)
        assert assert_each_record_applied_once(first, await audit.effects(), PROJECTIONS) == dict.fromkeys(PROJECTIONS, 3)

        # One event appended a second time (a service re-running its batch after a crash)
        # and applied: the projections hold exactly what they held, the audit sees it.
        await log.append(INTERACTIONS, [turns[1]])
        again = await tail(log, {r.position_key: r.offset for r in first})
        assert [r.event.event_id for r in again if r.event] == [turns[1].event_id]
        await apply(again)
        assert await counts() == before
        with pytest.raises(AssertionError, match="events applied from two records"):
            assert_each_record_applied_once(first + again, await audit.effects(), PROJECTIONS)

        # A record on the log that no projection applied.
        lost = InteractionRecorded(tenant=TENANT, user="ann", session="s1", speaker="Ann", role="user",
                                   content="Ann paid the deposit.", occurred_at=WHEN + timedelta(minutes=9))
        await log.append(INTERACTIONS, [lost])
        with pytest.raises(AssertionError, match="records never applied"):
            assert_each_record_applied_once(await read_streams(log, (INTERACTIONS,)), await audit.effects(),
                                            PROJECTIONS)
    finally:
        for store in (vectors, text, graph, audit, log):
            await store.close()


def test_memories_extracted_or_decided_twice_are_caught() -> None:
    def extracted(memory_id: uuid.UUID) -> MemoryExtracted:
        return MemoryExtracted(tenant=TENANT, user="ann", occurred_at=WHEN, memory_id=memory_id, session="s1",
                               subject="Ann", content="Ann prefers tea.", kind="preference", key="preference.drink",
                               value="tea", confidence=0.9, source_event_ids=(uuid.uuid4(),),
                               reflector=ReflectorInfo(name="offline-rules", version="1"))

    tea, coffee = uuid.uuid4(), uuid.uuid4()
    once = [extracted(tea), extracted(coffee),
            MemorySuperseded(tenant=TENANT, user="ann", occurred_at=WHEN, old_id=tea, new_id=coffee, reason="newer")]
    ids, decisions = memory_checks(once)
    assert ids == {str(tea), str(coffee)} and decisions == [once[2]]
    # Reflect re-running a batch after a kill: the same extraction again (a new event id and
    # time, the same memory id, content and sources) is at-least-once, and allowed.
    later = WHEN + timedelta(minutes=1)
    rerun = once[0].model_copy(update={"event_id": uuid.uuid4(), "occurred_at": later, "recorded_at": later})
    assert memory_checks([*once, rerun]) == (ids, decisions)
    # Nor is one that names other related memories (what reflect knew differed).
    with pytest.raises(AssertionError, match="extracted with different contents"):
        memory_checks([*once, rerun.model_copy(update={"related_memory_ids": (coffee,)})])
    # The same memory id with other sources is not a re-run.
    with pytest.raises(AssertionError, match="extracted with different contents"):
        memory_checks([*once, extracted(tea)])
    # Consolidate appending its decision again.
    with pytest.raises(AssertionError, match="decisions appended twice"):
        memory_checks([*once, once[2]])
    # Deciding again about a memory already replaced (another decision id).
    with pytest.raises(AssertionError, match="replaced by two decisions"):
        memory_checks([*once, MemorySuperseded(tenant=TENANT, user="ann", occurred_at=WHEN, old_id=tea,
                                               new_id=uuid.uuid4(), reason="newer")])
