"""The widened offline reflector through the HTTP API: what a new user tells the assistant
in one session becomes semantic memories with keys consolidation can match on."""

from __future__ import annotations

from typing import Any

from hindsight_common.events import MemoryExtracted
from tests.integration.conftest import App
from tests.integration.test_reflection import wait_for_memories


def turn(content: str, n: int, role: str = "user") -> dict[str, Any]:
    speaker = "user" if role == "user" else "assistant"
    return {"user": "newbie", "session": "first", "speaker": speaker, "role": role,
            "content": content, "occurred_at": f"2024-06-01T09:{n:02d}:00Z",
            "external_id": f"first-{n}"}


async def test_a_comparative_preference_and_a_named_pet_both_become_semantic_memories(app: App) -> None:
    r = await app.client.post("/v1/interactions", json={"interactions": [
        turn("I much prefer Kotlin over Java for backend work, please keep that in mind.", 1),
        turn("Noted! Kotlin it is.", 2, role="assistant"),
        turn("Also remember that my cat is called Pimento.", 3),
        turn("What a lovely name.", 4, role="assistant")]})
    assert r.status_code < 300, r.text
    r = await app.client.post("/v1/sessions/first:close", json={"user": "newbie"})
    assert r.status_code < 300, r.text
    memories = [e for e in await wait_for_memories(app, 2) if isinstance(e, MemoryExtracted)]
    by_key = {m.key: m for m in memories}
    assert set(by_key) == {"preference.programming_language", "possession.pet"}

    language = by_key["preference.programming_language"]
    assert language.kind == "preference" and language.subject == "user"
    assert "Kotlin" in language.value and "Kotlin over Java" in language.content
    assert language.source_external_ids == ("first-1",) and language.confidence >= 0.95

    pet = by_key["possession.pet"]
    assert pet.kind == "fact" and pet.subject == "user" and "Pimento" in pet.value
    assert pet.source_external_ids == ("first-3",)

    listed = (await app.client.get("/v1/memories", params={"user": "newbie"})).json()["items"]
    semantic = {m["id"]: m for m in listed if m["type"] == "semantic"}
    assert {str(language.memory_id), str(pet.memory_id)} <= set(semantic)
    r = await app.client.post("/v1/recall", json={"user": "newbie", "types": ["semantic"],
                                                  "query": "Which language does the user prefer for the backend?"})
    assert r.status_code == 200, r.text
    assert str(language.memory_id) in [i["id"] for i in r.json()["items"]]
    r = await app.client.post("/v1/recall", json={"user": "newbie", "types": ["semantic"],
                                                  "query": "What is the user's cat called?"})
    assert str(pet.memory_id) in [i["id"] for i in r.json()["items"]]
