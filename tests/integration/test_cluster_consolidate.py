"""Cluster consolidation in the consolidate service, embedded: the real embedder (its
vectors through the embedding cache), a real SQLite log and access store, and the LLM port
over HTTP to the fake OpenAI server. Similar memories of one subject become one statement
written by the model, with every member's provenance; the decision is on the log (signed),
a restart adopts it without calling the model, and a second pass merges nothing. Without
an LLM the statement is the members' joined; a model that answers nothing usable falls
back to that join."""

from __future__ import annotations

import base64
import uuid
from datetime import UTC, datetime
from pathlib import Path

from hindsight_common.adapters.openai_chat import OpenAIChatConfig, OpenAIChatLLM
from hindsight_common.consolidation.clusters import ClusterPolicy
from hindsight_common.events import MemoriesMerged, MemoryExtracted, ReflectorInfo
from hindsight_common.factory import make_access_counts, make_embedding_cache, make_log
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.security.signing import Keyring
from hindsight_common.security.signing_keys import parse_keys
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import Consolidate
from tests.support.fake_openai import FakeOpenAIServer, JsonReply, TextReply

INFO = ReflectorInfo(name="offline-rules", version="1")
HIKING = ["Ann likes hiking in the mountains.", "Ann goes hiking in the mountains every summer.",
          "Ann enjoys long mountain hikes on weekends."]
OTHERS = ["Ann's cat is called Miso.", "Ann works as a nurse.", "Ann prefers green tea in the morning.",
          "Ann lives in Lisbon.", "Ann plays tennis on Sundays."]
KEYS = ["preference.hobby", "habit.summer", "habit.weekend", "personal.cat", "personal.job", "preference.drink",
        "personal.location", "habit.sport"]
POLICY = ClusterPolicy(similarity=0.85, max_share=0.5)  # 3 of Ann's 8 memories may go in one pass
MERGED = "Ann loves hiking in the mountains, every summer and on long weekend hikes."


def memories(tenant: str) -> list[MemoryExtracted]:
    return [MemoryExtracted(
        tenant=tenant, user="ann", occurred_at=datetime(2024, 5, 1 + n, tzinfo=UTC), memory_id=uuid.uuid4(),
        session=f"s{n}", subject="Ann", content=text, kind="preference", key=KEYS[n], value=text, confidence=0.8,
        entities=("Ann",), source_event_ids=(uuid.uuid4(),), source_external_ids=(f"turn-{n}",), reflector=INFO)
        for n, text in enumerate([*HIKING, *OTHERS])]


async def fed(log: EventLog, handler: Consolidate, events: list[MemoryExtracted]) -> None:
    await log.append(MEMORIES, list(events))
    records = [r for r in await log.read(MEMORIES, limit=1000) if r.event is not None]
    await handler.handle(records, {records[-1].position_key: records[-1].offset})


async def on_log(log: EventLog) -> list[LogRecord]:
    return [r for r in await log.read(MEMORIES, limit=1000) if r.event is not None]


def keyring() -> Keyring:
    return parse_keys({"c1": base64.b64encode(b"cluster-consolidation-test-key!!").decode()}, None, "test")


def llm(base_url: str) -> OpenAIChatLLM:
    return OpenAIChatLLM(OpenAIChatConfig(base_url=base_url, model="merger", max_retries=0, timeout_s=10))


async def test_similar_memories_become_one_statement_by_the_llm(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses, cache = make_log(settings), make_access_counts(settings), make_embedding_cache(settings)
    events = memories("t1")
    try:
        with FakeOpenAIServer([JsonReply({"statement": MERGED})]) as fake:
            model = llm(fake.base_url)
            handler = Consolidate(accesses, log, embedder, cache=cache, clusters=POLICY, llm=model, keyring=keyring())
            await handler.resume()
            await fed(log, handler, events)
            assert handler.state.live() == {e.memory_id for e in events}  # distinct keys: nothing decided
            decided = await handler.cluster_pass()
            await model.aclose()
            [request] = fake.requests
        listed = str(request.body["messages"])
        assert all(text in listed for text in HIKING) and not any(text in listed for text in OTHERS)
        statement, merge = decided
        assert isinstance(statement, MemoryExtracted) and isinstance(merge, MemoriesMerged)
        hiking = {e.memory_id for e in events[:3]}
        assert statement.content == MERGED and statement.reflector.model == "merger"
        assert set(merge.merged_ids) == hiking and merge.kept_id == statement.memory_id
        assert set(statement.source_event_ids) == set(merge.source_event_ids) == {
            s for e in events[:3] for s in e.source_event_ids}
        assert set(statement.source_external_ids) == {"turn-0", "turn-1", "turn-2"}
        recorded = [r.event for r in await on_log(log)][len(events):]
        assert [e.event_id for e in recorded if e is not None] == [statement.event_id, merge.event_id]
        assert recorded[0] is not None and recorded[0].signature and recorded[0].signature.startswith("c1:")
        live = handler.state.live()
        assert live == {statement.memory_id} | {e.memory_id for e in events[3:]}

        # A restart rebuilds the fold from the log: the model is not asked again (a server
        # that would answer is not even given), and another pass merges nothing.
        restarted = Consolidate(accesses, log, embedder, cache=cache, clusters=POLICY, keyring=keyring())
        position = await restarted.resume()
        beyond = [r for r in await on_log(log) if r.offset > position[r.position_key]]
        assert [r.event for r in beyond] == recorded  # the pass's events, not yet delivered back
        await restarted.handle(beyond, {beyond[-1].position_key: beyond[-1].offset})
        assert restarted.state.status_of() == handler.state.status_of()
        assert await restarted.cluster_pass() == [] and await handler.cluster_pass() == []
        assert len(await on_log(log)) == len(events) + 2
    finally:
        if cache is not None:
            await cache.close()
        await accesses.close()
        await log.close()


async def test_without_a_usable_llm_reply_the_statements_are_joined(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        for tenant, answer in (("joined", None), ("refused", TextReply("I cannot help with that."))):
            events = memories(tenant)
            with FakeOpenAIServer([answer] if answer else []) as fake:
                model = llm(fake.base_url) if answer else None
                handler = Consolidate(accesses, log, embedder, clusters=POLICY, llm=model)
                await handler.resume()
                await fed(log, handler, events)
                statement, merge = await handler.cluster_pass(tenant=tenant)
                assert len(fake.requests) == (1 if answer else 0)
                if model is not None:
                    await model.aclose()
            assert isinstance(statement, MemoryExtracted) and isinstance(merge, MemoriesMerged)
            assert statement.content == " ".join(HIKING) and statement.reflector.model is None
            assert "joined deterministically" in merge.reason and statement.signature is None
    finally:
        await accesses.close()
        await log.close()


async def test_the_periodic_pass_merges_clusters_after_forgetting(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        handler = Consolidate(accesses, log, embedder, clusters=POLICY, forget_interval_s=1e-6)
        await handler.resume()
        events = memories("t1")
        await fed(log, handler, events)  # the end of the batch runs the due pass
        merges = [r.event for r in await on_log(log) if isinstance(r.event, MemoriesMerged)]
        assert [set(m.merged_ids) for m in merges] == [{e.memory_id for e in events[:3]}]
        assert merges[0].kept_id in handler.state.live()
    finally:
        await accesses.close()
        await log.close()
