"""Reflection end to end in one process: triggers, events, projections, recall,
working memory, the LLM path through a scripted OpenAI-compatible server, and
replays that make no LLM call."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hindsight_common.ports.embedder import Embedder
from hindsight_common.events import MemoryExtracted, MemoryReinforced, SessionSummarized
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.embedded import drop_projections
from tests.integration.conftest import App, running
from tests.support.fake_openai import ErrorReply, FakeOpenAIServer, JsonReply, Stall, TextReply


def turn(content: str, n: int, session: str = "s1", speaker: str = "Ann", role: str = "user") -> dict[str, Any]:
    return {"user": "ann", "session": session, "speaker": speaker, "role": role, "content": content,
            "occurred_at": f"2024-05-01T10:{n:02d}:00Z", "external_id": f"{session}-{n}"}


async def post(app: App, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = await app.client.post(path, json=body)
    assert r.status_code < 300, r.text
    return dict(r.json())


async def memory_events(app: App) -> list[Any]:
    return [r.event for r in await app.runtime.log.read(MEMORIES)]


async def wait_for_memories(app: App, n: int = 1, timeout_s: float = 20) -> list[Any]:
    for _ in range(int(timeout_s / 0.05)):
        events = await memory_events(app)
        if len(events) >= n:
            await app.runtime.wait_caught_up()
            return events
        await asyncio.sleep(0.05)
    raise AssertionError(f"expected {n} memory events, got {await memory_events(app)}")


async def test_closing_a_session_reflects_and_memories_are_recallable(app: App) -> None:
    await post(app, "/v1/interactions", {"interactions": [
        turn("Hi! I love hiking in the Alps.", 1), turn("That sounds great!", 2, speaker="Bot", role="assistant"),
        turn("What's the weather like today?", 3)]})
    await app.runtime.wait_caught_up()
    assert await memory_events(app) == []  # nothing reflected before a trigger
    await post(app, "/v1/sessions/s1:close", {"user": "ann"})
    [memory] = await wait_for_memories(app)
    assert isinstance(memory, MemoryExtracted)
    assert memory.kind == "preference" and memory.key.startswith("preference.")
    assert "Ann" in memory.content and memory.subject == "Ann"
    assert memory.source_external_ids == ("s1-1",) and memory.reflector.name == "offline-rules"

    r = await post(app, "/v1/recall", {"user": "ann", "query": "What does Ann enjoy doing?", "types": ["semantic"]})
    [item] = r["items"]
    assert item["type"] == "semantic" and item["kind"] == "preference" and item["id"] == str(memory.memory_id)
    assert item["provenance"]["external_ids"] == ["s1-1"]
    both = await post(app, "/v1/recall", {"user": "ann", "query": "hiking in the Alps", "k": 10})
    assert {i["type"] for i in both["items"]} == {"episodic", "semantic"}


async def test_every_n_turns_and_explicit_request(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "d", reflect_every_n_turns=3)
    async with running(settings, embedder) as app:
        await post(app, "/v1/interactions", {"interactions": [
            turn("I work as a nurse in Leeds.", 1), turn("ok", 2, speaker="Bot", role="assistant")]})
        await app.runtime.wait_caught_up()
        assert await memory_events(app) == []
        await post(app, "/v1/interactions", {"interactions": [turn("Nice weather.", 3)]})
        events = await wait_for_memories(app)
        assert any(isinstance(e, MemoryExtracted) and e.key == "personal.job" for e in events)

        await post(app, "/v1/interactions", {"interactions": [turn("I have a cat named Miso.", 1, session="s2")]})
        await app.runtime.wait_caught_up()
        before = len(await memory_events(app))
        r = await app.client.post("/v1/reflect", json={"user": "ann", "session": "s2"})
        assert r.status_code == 202
        events = await wait_for_memories(app, before + 1)
        assert any(isinstance(e, MemoryExtracted) and e.key == "possession.pet" for e in events)


async def test_idle_sessions_are_reflected(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "d", reflect_idle_s=0.3, poll_timeout_s=0.05)
    async with running(settings, embedder) as app:
        await post(app, "/v1/interactions", {"interactions": [turn("I prefer tea over coffee.", 1)]})
        [memory] = await wait_for_memories(app, timeout_s=10)
        assert isinstance(memory, MemoryExtracted) and memory.kind == "preference"


async def test_a_confirmed_memory_is_reinforced_not_duplicated(app: App) -> None:
    await post(app, "/v1/interactions", {"interactions": [turn("I live in Porto.", 1)]})
    await post(app, "/v1/sessions/s1:close", {"user": "ann"})
    [first] = await wait_for_memories(app)
    await post(app, "/v1/interactions", {"interactions": [turn("I live in Porto.", 5, session="s2")]})
    await post(app, "/v1/sessions/s2:close", {"user": "ann"})
    events = await wait_for_memories(app, 2)
    assert isinstance(events[1], MemoryReinforced) and events[1].memory_id == first.memory_id
    assert events[1].source_external_ids == ("s2-5",)


async def test_long_sessions_get_a_rolling_summary_for_working_memory(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=tmp_path / "d", summary_after_turns=6, summary_keep_recent=2)
    async with running(settings, embedder) as app:
        lines = [turn(f"I love {food} very much." if i % 2 == 0 else f"Noted, {food}.", i,
                      speaker="Ann" if i % 2 == 0 else "Bot", role="user" if i % 2 == 0 else "assistant")
                 for i, food in enumerate(["ramen", "ramen", "tacos", "tacos", "curry", "curry", "pho", "pho", "soup"])]
        await post(app, "/v1/interactions", {"interactions": lines})
        events = await wait_for_memories(app)
        [summary] = [e for e in events if isinstance(e, SessionSummarized)]
        assert summary.turns == 7 and "ramen" in summary.summary
        small = (await app.client.get("/v1/sessions/s1/context", params={"user": "ann", "budget": 60})).json()
        assert small["omitted_turns"] is True
        assert small["summary"].endswith("…") and summary.summary.startswith(small["summary"][:-2])
        assert small["turns"][-1]["content"] == "I love soup very much."
        assert small["tokens"] <= 60 and 1 <= len(small["turns"]) < 9
        assert small["summary_through"].startswith("2024-05-01T10:06")
        full = (await app.client.get("/v1/sessions/s1/context", params={"user": "ann", "budget": 5000})).json()
        assert len(full["turns"]) == 9 and full["summary"] is None and full["omitted_turns"] is False
        assert [t["content"] for t in full["turns"]] == [t["content"] for t in lines]
        bad = await app.client.get("/v1/sessions/s1/context", params={"budget": 10})
        assert bad.status_code == 422


LLM_REPLY = {"episodes": [{"episode": 0, "memories": [
    {"content": "Ann is learning Portuguese for a move to Lisbon.", "kind": "fact", "key": "personal.learning",
     "value": "Portuguese", "confidence": "0.9", "tags": "language, move", "entities": ["Ann", "Lisbon"],
     "source_turns": [1], "reasoning": "stated plan"},
    {"content": "x", "kind": "fact"},  # too short: dropped
    {"kind": "lesson"},  # no content: dropped
    {"content": "Ann prefers short answers from the agent.", "kind": "weird", "key": "Preference Style",
     "source_turns": [99]},
]}]}


async def test_llm_reflection_survives_429_timeout_and_malformed_then_replay_makes_no_call(
    tmp_path: Path, embedder: Embedder
) -> None:
    script = [ErrorReply(429, retry_after="0.05"), Stall(5.0, then=JsonReply(LLM_REPLY)),
              TextReply("Sorry, I cannot produce that right now."), JsonReply(LLM_REPLY, prompt_tokens=300,
                                                                                   completion_tokens=60)]
    with FakeOpenAIServer(script) as llm:
        settings = Settings(data_dir=tmp_path / "d", reflector="llm", llm_base_url=llm.base_url,
                            llm_model="test-model", llm_timeout_s=1.0, llm_max_retries=3)
        async with running(settings, embedder) as app:
            await post(app, "/v1/interactions", {"interactions": [
                turn("I'm learning Portuguese because we move to Lisbon.", 1), turn("Keep answers short please.", 2)]})
            await post(app, "/v1/sessions/s1:close", {"user": "ann"})
            events = await wait_for_memories(app, 2)
            assert len(llm.requests) == 4
            extracted = [e for e in events if isinstance(e, MemoryExtracted)]
            assert [e.content for e in extracted] == [
                "Ann is learning Portuguese for a move to Lisbon.", "Ann prefers short answers from the agent."]
            first, second = extracted
            assert first.confidence == 0.9 and first.tags == ("language", "move")
            assert first.source_external_ids == ("s1-1",)
            assert first.reflector.name == "llm" and first.reflector.model == "test-model"
            # Usage counts every answered attempt: the malformed reply (20+10) and the good one.
            assert first.reflector.prompt_tokens == 320 and first.reflector.completion_tokens == 70
            assert second.kind == "fact" and second.key == "note.preference_style"
            assert second.source_external_ids == ("s1-1", "s1-2")  # no valid turn named: the episode
            before = (await post(app, "/v1/recall", {"user": "ann", "query": "Portuguese", "types": ["semantic"]}))["items"]
        calls = len(llm.requests)
        drop_projections(settings)
        async with running(settings, embedder) as app:
            await app.runtime.wait_caught_up()
            after = (await post(app, "/v1/recall", {"user": "ann", "query": "Portuguese", "types": ["semantic"]}))["items"]
        assert [i["id"] for i in after] == [i["id"] for i in before] and after
        assert len(llm.requests) == calls  # the rebuild replayed recorded events only
