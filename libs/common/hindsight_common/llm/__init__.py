"""Provider-neutral LLM logic: reading JSON out of replies, token budgets, retries, accounting.

The port itself (``LLM``, ``ChatMessage``, ``LLMReply``, ``Usage`` and the provider errors)
lives in ``hindsight_common.ports.llm``; adapters live in ``hindsight_common.adapters``.
Everything here is pure and imports no driver.
"""

from hindsight_common.llm.accounting import LLMCounters, LLMTotals, Pricing, usage_from_report
from hindsight_common.llm.budget import (
    TRUNCATION_MARKER,
    TokenCounter,
    estimate_messages_tokens,
    estimate_tokens,
    input_budget,
    truncate_messages,
)
from hindsight_common.llm.json_repair import Expect, extract_json
from hindsight_common.llm.retry import Backoff, retry_after_seconds
from hindsight_common.llm.schema_prompt import expected_type, with_schema_instruction

__all__ = [
    "TRUNCATION_MARKER",
    "Backoff",
    "Expect",
    "LLMCounters",
    "LLMTotals",
    "Pricing",
    "TokenCounter",
    "estimate_messages_tokens",
    "estimate_tokens",
    "expected_type",
    "extract_json",
    "input_budget",
    "retry_after_seconds",
    "truncate_messages",
    "usage_from_report",
    "with_schema_instruction",
]
