"""The LLM reflector's reply parsing: untrusted output in, usable memories out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hindsight_common.ports.reflector import Episode, KnownMemory
from hindsight_common.reflection import prompts
from hindsight_common.reflection.offline import Turn


def test_valid_reply_with_defaults_filled() -> None:
    [(memories, reinforced)] = prompts.parse_reply(
        {"episodes": [{"episode": 0, "memories": [{"content": "Ann likes tea."}]}]}, 1)
    [m] = memories
    assert (m.kind, m.key, m.confidence, m.tags, m.source_turns) == ("fact", "note.general", 0.7, [], [])
    assert reinforced == []


@pytest.mark.parametrize(
    ("field", "raw", "expected"),
    [
        ("kind", "PREFERENCE", "preference"),
        ("kind", "gossip", "fact"),
        ("kind", None, "fact"),
        ("key", "Preference Language", "note.preference_language"),
        ("key", "preference.language", "preference.language"),
        ("key", "", "note.general"),
        ("confidence", "0.95", 0.95),
        ("confidence", 7, 1.0),
        ("confidence", -1, 0.0),
        ("confidence", "high", 0.7),
        ("tags", "a, b ,", ["a", "b"]),
        ("entities", ["Ann", 3, ""], ["Ann", "3"]),
        ("source_turns", "2", [2]),
        ("source_turns", [1, "x", "3"], [1, 3]),
        ("value", None, ""),
    ],
)
def test_wrong_types_are_coerced_or_defaulted(field: str, raw: object, expected: object) -> None:
    [(memories, _)] = prompts.parse_reply({"episodes": [{"episode": 0, "memories": [{"content": "Ann likes tea.", field: raw}]}]}, 1)
    assert getattr(memories[0], field) == expected


def test_invalid_items_are_dropped_not_fatal() -> None:
    data = {"episodes": [
        {"episode": 0, "memories": [{"content": "ok memory"}, {"content": "x"}, {"kind": "fact"}, "not a dict"],
         "reinforced": [{"memory_id": "m1", "source_turns": [1]}, {"source_turns": [1]}]},
        {"episode": 7, "memories": [{"content": "out of range"}]},
        {"memories": [{"content": "no episode number"}]},
    ]}
    [(memories, reinforced)] = prompts.parse_reply(data, 1)
    assert [m.content for m in memories] == ["ok memory"]
    assert [r.memory_id for r in reinforced] == ["m1"]


@pytest.mark.parametrize("data", [None, "text", 42, {"nothing": True}, {"episodes": "nope"}])
def test_unusable_replies_give_empty_results(data: object) -> None:
    assert prompts.parse_reply(data, 2) == [([], []), ([], [])]


def test_bare_list_and_flattened_single_episode_are_accepted() -> None:
    [(from_list, _)] = prompts.parse_reply([{"content": "Ann likes tea."}], 1)
    [(flat, _)] = prompts.parse_reply({"memories": [{"content": "Ann likes tea."}]}, 1)
    assert [m.content for m in from_list] == [m.content for m in flat] == ["Ann likes tea."]


def test_prompt_numbers_turns_and_lists_known_memories() -> None:
    t = datetime(2024, 5, 1, 10, tzinfo=UTC)
    episode = Episode("t", "u", "s", None, (
        Turn("e1", "Ann", "user", "I   moved to\nPorto", t), Turn("e2", "Bot", "assistant", "x" * 2000, t)),
        (KnownMemory("m1", "Ann", "personal.location", "Lisbon", "Ann lives in Lisbon."),))
    system, user = prompts.messages([episode])
    assert system.role == "system" and "JSON" in system.content
    assert "[1] 2024-05-01 10:00 Ann (user): I moved to Porto" in user.content
    assert '"memory_id": "m1"' in user.content
    assert "…" in user.content and len(user.content) < 2000
