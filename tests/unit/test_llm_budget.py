"""Token estimates and truncation of chat input to the model's context."""

from __future__ import annotations

import pytest

from hindsight_common.llm.budget import (
    MESSAGE_OVERHEAD_TOKENS,
    REPLY_PRIMING_TOKENS,
    TRUNCATION_MARKER,
    estimate_messages_tokens,
    estimate_tokens,
    input_budget,
    truncate_messages,
)
from hindsight_common.ports.llm import ChatMessage

SYSTEM = ChatMessage("system", "You extract durable memories from conversations.")


def transcript(turns: int) -> str:
    return "\n".join(f"turn {i:04d}: the user talked about topic number {i}." for i in range(turns))


def test_estimate_is_four_ascii_characters_per_token_rounded_up() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("x" * 400) == 100


def test_estimate_counts_each_non_ascii_character_as_a_token() -> None:
    assert estimate_tokens("\u65e5\u672c\u8a9e") == 3
    assert estimate_tokens("caf\u00e9") == 1 + 1  # "caf" and "\u00e9"
    assert estimate_tokens("\U0001f600\U0001f600") == 2


def test_a_tokenizer_replaces_the_heuristic() -> None:
    def words(text: str) -> int:
        return len(text.split())

    assert estimate_tokens("one two three four five six", words) == 6
    messages = [ChatMessage("user", "a b c")]
    expected = REPLY_PRIMING_TOKENS + MESSAGE_OVERHEAD_TOKENS + 3
    assert estimate_messages_tokens(messages, words) == expected


def test_messages_estimate_includes_framing() -> None:
    messages = [SYSTEM, ChatMessage("user", "abcd")]
    framing = REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS
    expected = framing + estimate_tokens(SYSTEM.content) + 1
    assert estimate_messages_tokens(messages) == expected


def test_input_budget_leaves_room_for_the_reply() -> None:
    assert input_budget(8192, 1024) == 7168
    assert input_budget(8192, 1024, reserved_tokens=100) == 7068
    with pytest.raises(ValueError, match="lower max_output_tokens"):
        input_budget(1000, 1000)


def test_messages_that_fit_are_returned_unchanged() -> None:
    messages = [SYSTEM, ChatMessage("user", "short")]
    assert truncate_messages(messages, 1000) == messages


def test_long_transcript_keeps_system_and_newest_content() -> None:
    text = transcript(2000)
    messages = [SYSTEM, ChatMessage("user", text)]
    fitted = truncate_messages(messages, 500)

    assert estimate_messages_tokens(fitted) <= 500
    assert fitted[0] == SYSTEM
    user = fitted[1]
    assert user.role == "user"
    assert user.content.startswith(TRUNCATION_MARKER)
    kept = user.content[len(TRUNCATION_MARKER) :]
    assert text.endswith(kept)  # the newest part, verbatim
    assert "turn 1999" in kept and "turn 0000" not in kept
    assert kept.startswith("turn ")  # cut on a line boundary
    assert estimate_messages_tokens(fitted) > 500 - 20  # and the budget was used, not wasted


def test_oldest_messages_are_dropped_before_newer_ones_are_cut() -> None:
    messages = [
        SYSTEM,
        ChatMessage("user", "old " * 300),
        ChatMessage("assistant", "older answer " * 50),
        ChatMessage("user", "newest question " * 20),
    ]
    budget = estimate_messages_tokens([SYSTEM, messages[3]]) + 40
    fitted = truncate_messages(messages, budget)

    assert estimate_messages_tokens(fitted) <= budget
    assert fitted[0] == SYSTEM
    assert fitted[-1] == messages[3]
    assert len(fitted) == 3  # the assistant turn cut, the oldest user turn dropped
    assert fitted[1].role == "assistant" and fitted[1].content.startswith(TRUNCATION_MARKER)


def test_system_messages_keep_their_position_and_text() -> None:
    late_system = ChatMessage("system", "Answer in JSON.")
    messages = [SYSTEM, ChatMessage("user", transcript(500)), late_system]
    fitted = truncate_messages(messages, 300)
    assert [m.role for m in fitted] == ["system", "user", "system"]
    assert fitted[0] == SYSTEM and fitted[2] == late_system
    assert estimate_messages_tokens(fitted) <= 300


def test_truncation_with_a_tokenizer_fits_by_that_tokenizer() -> None:
    def words(text: str) -> int:
        return len(text.split())

    messages = [SYSTEM, ChatMessage("user", transcript(1000))]
    fitted = truncate_messages(messages, 200, tokenizer=words)
    assert estimate_messages_tokens(fitted, words) <= 200
    assert fitted[1].content.startswith(TRUNCATION_MARKER)


def test_non_ascii_transcript_fits() -> None:
    text = "\u7528\u6237\u559c\u6b22\u7eff\u8336\u3002" * 2000
    fitted = truncate_messages([SYSTEM, ChatMessage("user", text)], 400)
    assert estimate_messages_tokens(fitted) <= 400
    assert text.endswith(fitted[1].content[len(TRUNCATION_MARKER) :])


def test_system_prompt_that_fills_the_context_is_an_error() -> None:
    huge_system = ChatMessage("system", "rule " * 1000)
    with pytest.raises(ValueError, match="shorten the system prompt"):
        truncate_messages([huge_system, ChatMessage("user", "hello there")], 100)
    with pytest.raises(ValueError, match="shorten the system prompt"):
        truncate_messages([huge_system], 100)
