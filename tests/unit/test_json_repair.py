"""extract_json against replies real models send when asked for JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hindsight_common.llm.json_repair import MAX_REPLY_CHARS, extract_json
from hindsight_common.ports.llm import MalformedReply, ProviderError

MEMORIES = {
    "memories": [
        {"text": "Prefers dark mode", "key": "preference.theme", "confidence": 0.9},
        {"text": "Works in Lyon", "key": "fact.city", "confidence": 0.8},
    ]
}
MEMORIES_TEXT = json.dumps(MEMORIES, indent=2)

REPAIRED: list[tuple[str, str, Any]] = [
    ("clean", MEMORIES_TEXT, MEMORIES),
    (
        "prose_before_and_after",
        f"Sure! Here are the memories I extracted:\n\n{MEMORIES_TEXT}\n\nLet me know if you "
        "need anything else.",
        MEMORIES,
    ),
    ("json_fence", f"```json\n{MEMORIES_TEXT}\n```", MEMORIES),
    ("bare_fence_with_prose", f"Result:\n```\n{MEMORIES_TEXT}\n```\nDone.", MEMORIES),
    ("fence_never_closed", f"```json\n{MEMORIES_TEXT}\n", MEMORIES),
    (
        "fence_preferred_over_example_in_prose",
        'The format is {"memories": []}. Here it is:\n```json\n{"memories": [{"text": "x"}]}\n```',
        {"memories": [{"text": "x"}]},
    ),
    (
        "trailing_commas",
        '{"memories": [{"text": "a", "tags": ["x", "y",],}, {"text": "b"},],}',
        {"memories": [{"text": "a", "tags": ["x", "y"]}, {"text": "b"}]},
    ),
    (
        "python_dict_repr",
        "{'memories': [{'text': 'Likes tea', 'pinned': True, 'expires': None, 'dup': False}]}",
        {"memories": [{"text": "Likes tea", "pinned": True, "expires": None, "dup": False}]},
    ),
    (
        "apostrophe_inside_single_quotes",
        "{'text': 'User's name is O'Brien', 'key': 'fact.name'}",
        {"text": "User's name is O'Brien", "key": "fact.name"},
    ),
    (
        "double_quotes_inside_single_quotes",
        """{'text': 'Calls the project "Atlas"'}""",
        {"text": 'Calls the project "Atlas"'},
    ),
    (
        "smart_quotes_from_a_word_processor",
        "{\u201ctext\u201d: \u201cLikes jazz\u201d, \u201cconfidence\u201d: 0.7}",
        {"text": "Likes jazz", "confidence": 0.7},
    ),
    (
        "line_and_block_comments",
        '{\n  // the user said so twice\n  "text": "Vegetarian", /* high */ "confidence": 0.95\n'
        "  # done\n}",
        {"text": "Vegetarian", "confidence": 0.95},
    ),
    (
        "truncated_inside_second_item",
        '{"memories": [{"text": "Prefers dark mode", "confidence": 0.9}, {"text": "Works in Ly',
        {"memories": [{"text": "Prefers dark mode", "confidence": 0.9}]},
    ),
    (
        "truncated_inside_a_number",
        '{"memories": [{"text": "a", "confidence": 0.9}], "score": 0.8',
        {"memories": [{"text": "a", "confidence": 0.9}]},
    ),
    (
        "truncated_after_a_key",
        '{"memories": [{"text": "a"}], "summary":',
        {"memories": [{"text": "a"}]},
    ),
    (
        "truncated_with_no_complete_item_keeps_an_honest_empty_list",
        '{"summary": "short chat", "memories": [{"text": "The user',
        {"summary": "short chat", "memories": []},
    ),
    (
        "truncated_top_level_array",
        '[{"text": "a"}, {"text": "b"}, {"te',
        [{"text": "a"}, {"text": "b"}],
    ),
    (
        "several_blocks_first_complete_wins",
        'First attempt: {"text": "one"}\nSecond attempt: {"text": "two"}',
        {"text": "one"},
    ),
    (
        "placeholder_braces_in_prose_are_skipped",
        'Use the {key} format. [Answer] {"key": "preference.tea", "text": "Likes tea"}',
        {"key": "preference.tea", "text": "Likes tea"},
    ),
    (
        "nested",
        '{"a": {"b": {"c": [1, {"d": [true, null, {"e": "f"}]}]}}}',
        {"a": {"b": {"c": [1, {"d": [True, None, {"e": "f"}]}]}}},
    ),
    ("double_encoded", json.dumps(json.dumps(MEMORIES)), MEMORIES),
    (
        "unquoted_keys",
        '{text: "Likes tea", confidence: 0.5}',
        {"text": "Likes tea", "confidence": 0.5},
    ),
    (
        "missing_commas_between_items",
        '[\n  {"text": "a"}\n  {"text": "b"}\n]',
        [{"text": "a"}, {"text": "b"}],
    ),
    (
        "raw_newlines_in_strings",
        '{"text": "line one\nline two\tend"}',
        {"text": "line one\nline two\tend"},
    ),
    (
        "non_finite_numbers_become_null",
        '{"a": NaN, "b": Infinity, "c": -Infinity, "d": +1, "e": .5}',
        {"a": None, "b": None, "c": None, "d": 1, "e": 0.5},
    ),
    ("forgotten_inner_bracket", '{"tags": ["a", "b"}', {"tags": ["a", "b"]}),
    (
        "invalid_escapes_kept_as_text",
        r'{"path": "C:\data\new", "q": "it\'s"}',
        {"path": "C:\\data\new", "q": "it's"},
    ),
    (
        "reasoning_block_with_drafts_is_ignored",
        '<think>Maybe {"text": "draft"}? No, better:</think>\n{"text": "final"}',
        {"text": "final"},
    ),
    ("html_like_wrapper", '<json>{"text": "a"}</json>', {"text": "a"}),
    ("byte_order_mark", '\ufeff{"text": "a"}', {"text": "a"}),
    (
        "wrong_types_are_the_callers_business",
        '{"memories": [{"text": 42, "confidence": "high", "tags": "a,b"}]}',
        {"memories": [{"text": 42, "confidence": "high", "tags": "a,b"}]},
    ),
    ("missing_fields_are_the_callers_business", '{"memories": [{}]}', {"memories": [{}]}),
    ("empty_object", "{}", {}),
]

VALID_JSON_KEPT_EXACTLY = [
    {"text": "use // for comments, # for shell, and 'quotes'"},
    {"text": "None of this is True, said the user"},
    {"text": 'He said "hi", then \u201cbye\u201d, it\'s fine', "n": -0.0},
    {"text": "\u65e5\u672c\u8a9e\u3068\u7d75\u6587\u5b57 \U0001f600", "k": [1, 2.5, 1e-9]},
    {"text": "```json\n{not: json}\n```"},
    [{"a": None}, [], {}, "", 0],
]


@pytest.mark.parametrize(
    ("reply", "expected"), [c[1:] for c in REPAIRED], ids=[c[0] for c in REPAIRED]
)
def test_extracts_the_json_from_a_bad_reply(reply: str, expected: Any) -> None:
    assert extract_json(reply) == expected


@pytest.mark.parametrize("value", VALID_JSON_KEPT_EXACTLY)
def test_valid_json_is_never_altered(value: Any) -> None:
    text = json.dumps(value)
    for reply in (text, json.dumps(value, indent=2), f"Here you go:\n{text}\nDone."):
        assert extract_json(reply) == value


FAILURES: list[tuple[str, str, str]] = [
    ("empty", "", "empty"),
    ("whitespace_only", " \n\t ", "empty"),
    ("prose_only", "I could not find anything worth remembering.", "no JSON object or array"),
    ("bracketed_prose", "[Note] nothing to add [end]", "could be parsed"),
    ("a_json_scalar", "42", "no JSON object or array"),
    ("a_json_string", '"nothing to remember"', "no JSON object or array"),
    ("cut_off_before_any_value", '{"text": "The user prefers', "cut off"),
    ("cut_off_inside_a_literal", '{"pinned": tru', "cut off"),
    ("cut_off_inside_a_nested_object", '{"a": {"b": "c', "cut off"),
    ("only_reasoning", "<think>The user wants {memories} but I am still thinking", "reasoning"),
    ("python_call_is_not_evaluated", "{'text': __import__('os').getcwd()}", "could be parsed"),
]


@pytest.mark.parametrize(
    ("reply", "reason"), [c[1:] for c in FAILURES], ids=[c[0] for c in FAILURES]
)
def test_unusable_replies_raise_malformed_reply_with_a_reason(reply: str, reason: str) -> None:
    with pytest.raises(MalformedReply, match=reason):
        extract_json(reply)


def test_malformed_reply_is_a_provider_error_and_never_quotes_the_reply() -> None:
    secret = "my card is 4111 1111 1111 1111"
    with pytest.raises(ProviderError) as caught:
        extract_json(f"{{'text': {secret}}}")
    assert isinstance(caught.value, MalformedReply)
    assert "4111" not in str(caught.value)


def test_expect_skips_blocks_of_the_other_kind() -> None:
    reply = 'Sources: [1], [2]. Answer: {"text": "a"}'
    assert extract_json(reply, expect="object") == {"text": "a"}
    assert extract_json(reply) == [1]
    assert extract_json('{"x": 1} then [1, 2]', expect="array") == [1, 2]


def test_expect_mismatch_is_explained() -> None:
    expected = "expected a JSON object but the reply holds a JSON array"
    with pytest.raises(MalformedReply, match=expected):
        extract_json('[{"text": "a"}]', expect="object")


def test_pathological_nesting_fails_cleanly() -> None:
    with pytest.raises(MalformedReply):
        extract_json("[" * 100_000)
    with pytest.raises(MalformedReply):
        extract_json("[" * 50_000 + "]" * 50_000)


def test_oversized_reply_is_refused() -> None:
    with pytest.raises(MalformedReply, match="too long"):
        extract_json("{" + " " * MAX_REPLY_CHARS + "}")
