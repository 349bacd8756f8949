"""Asking for JSON when the server cannot enforce a schema.

Servers without structured output (or with only a "JSON mode") get the schema in the system
prompt instead. Pure functions, shared by any adapter whose backend lacks schema support.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hindsight_common.llm.json_repair import Expect
from hindsight_common.ports.llm import ChatMessage

__all__ = ["SCHEMA_INSTRUCTION", "expected_type", "with_schema_instruction"]

SCHEMA_INSTRUCTION = (
    "Answer with a single JSON value and nothing else (no prose, no Markdown), "
    "following this JSON Schema:\n"
)


def expected_type(schema: dict[str, Any]) -> Expect | None:
    """Return the top-level JSON type a schema asks for, when it is an object or array."""
    kind = schema.get("type")
    if kind == "object":
        return "object"
    if kind == "array":
        return "array"
    return None


def with_schema_instruction(
    messages: Sequence[ChatMessage], schema: dict[str, Any]
) -> list[ChatMessage]:
    """Return ``messages`` with the schema instruction appended to the first system message.

    A system message is added in front when there is none; system messages are kept whole
    by truncation, so the instruction always reaches the model.
    """
    instruction = SCHEMA_INSTRUCTION + json.dumps(schema, separators=(",", ":"))
    for i, message in enumerate(messages):
        if message.role == "system":
            extended = ChatMessage(role="system", content=f"{message.content}\n\n{instruction}")
            return [*messages[:i], extended, *messages[i + 1 :]]
    return [ChatMessage(role="system", content=instruction), *messages]
