"""OpenAIChatLLM against a real local HTTP server that speaks the chat completions API."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from hindsight_common.adapters.openai_chat import OpenAIChatConfig, OpenAIChatLLM
from hindsight_common.llm.budget import TRUNCATION_MARKER, estimate_messages_tokens, estimate_tokens
from hindsight_common.llm.schema_prompt import SCHEMA_INSTRUCTION
from hindsight_common.ports.llm import (
    ChatMessage,
    MalformedReply,
    ProviderRateLimited,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
)
from tests.support.fake_openai import ErrorReply, FakeOpenAIServer, JsonReply, Stall, TextReply

API_KEY = "sk-test-not-a-real-key"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"text": {"type": "string"}, "confidence": {"type": "number"}},
                "required": ["text"],
            },
        }
    },
    "required": ["memories"],
}
MEMORIES = {"memories": [{"text": "Prefers dark mode", "confidence": 0.9}]}
SYSTEM = ChatMessage("system", "Extract durable memories from the transcript as JSON.")
USER = ChatMessage("user", "user: I always use dark mode, remember that.")


class RecordingSleep:
    """Really sleeps, and remembers how long it was asked to."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await asyncio.sleep(seconds)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


def config_for(server: FakeOpenAIServer, **overrides: Any) -> OpenAIChatConfig:
    settings: dict[str, Any] = {
        "base_url": server.base_url,
        "model": "test-model",
        "api_key": API_KEY,
        "timeout_s": 2.0,
        "max_retries": 2,
        "backoff_base_s": 0.01,
        "backoff_max_s": 1.0,
        "context_tokens": 4096,
        "price_prompt_per_1k": 0.5,
        "price_completion_per_1k": 1.5,
    }
    settings.update(overrides)
    return OpenAIChatConfig(**settings)


@pytest.fixture
async def llm(server: FakeOpenAIServer, sleep: RecordingSleep) -> AsyncIterator[OpenAIChatLLM]:
    async with OpenAIChatLLM(config_for(server), sleep=sleep) as adapter:
        yield adapter


async def ask(llm: OpenAIChatLLM, *messages: ChatMessage, max_output_tokens: int = 256) -> Any:
    return await llm.complete_json(
        messages or (SYSTEM, USER),
        schema=SCHEMA,
        schema_name="memories",
        max_output_tokens=max_output_tokens,
    )


async def test_success_returns_data_usage_and_cost(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(JsonReply(MEMORIES, prompt_tokens=100, completion_tokens=50))

    reply = await ask(llm)

    assert reply.data == MEMORIES
    assert reply.attempts == 1
    assert reply.model == "test-model"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (100, 50)
    assert reply.usage.total_tokens == 150
    assert reply.usage.cost_usd == pytest.approx(100 * 0.5 / 1000 + 50 * 1.5 / 1000)
    assert not reply.usage.estimated

    [request] = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    body = request.body
    assert body["model"] == "test-model"
    assert body["max_tokens"] == 256
    assert body["messages"] == [
        {"role": "system", "content": SYSTEM.content},
        {"role": "user", "content": USER.content},
    ]
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "memories", "schema": SCHEMA, "strict": False},
    }

    totals = llm.counters.totals
    assert (totals.calls, totals.requests, totals.failures, totals.retries) == (1, 1, 0, 0)
    assert (totals.prompt_tokens, totals.completion_tokens, totals.total_tokens) == (100, 50, 150)
    assert totals.cost_usd == pytest.approx(reply.usage.cost_usd)


async def test_missing_usage_is_estimated(server: FakeOpenAIServer, llm: OpenAIChatLLM) -> None:
    server.enqueue(JsonReply(MEMORIES, prompt_tokens=None, completion_tokens=None))

    reply = await ask(llm)

    sent = [ChatMessage(m["role"], m["content"]) for m in server.requests[0].messages]
    assert reply.usage.estimated
    assert reply.usage.prompt_tokens == estimate_messages_tokens(sent)
    assert reply.usage.completion_tokens == estimate_tokens(reply.text)
    assert llm.counters.totals.estimated_usage == 1


async def test_rate_limit_then_success_waits_as_asked(
    server: FakeOpenAIServer, llm: OpenAIChatLLM, sleep: RecordingSleep
) -> None:
    server.enqueue(
        ErrorReply(429, "slow down", "rate_limit_exceeded", retry_after="0.2"), JsonReply(MEMORIES)
    )

    reply = await ask(llm)

    assert reply.data == MEMORIES
    assert reply.attempts == 2
    assert len(server.requests) == 2
    [delay] = sleep.delays
    assert 0.2 <= delay <= 1.0  # Retry-After is a minimum, backoff_max_s a ceiling
    first, second = server.requests
    assert second.received_at - first.received_at >= 0.2
    totals = llm.counters.totals
    assert (totals.rate_limited, totals.retries, totals.requests, totals.failures) == (1, 1, 2, 0)


async def test_rate_limit_longer_than_backoff_max_is_handed_to_the_caller(
    server: FakeOpenAIServer, llm: OpenAIChatLLM, sleep: RecordingSleep
) -> None:
    server.enqueue(ErrorReply(429, retry_after="30"), JsonReply(MEMORIES))

    with pytest.raises(ProviderRateLimited) as caught:
        await ask(llm)

    assert caught.value.retry_after_s == 30
    assert len(server.requests) == 1
    assert sleep.delays == []
    assert llm.counters.totals.failures == 1


async def test_timeout_then_success(server: FakeOpenAIServer, sleep: RecordingSleep) -> None:
    server.enqueue(Stall(5.0), JsonReply(MEMORIES))

    async with OpenAIChatLLM(config_for(server, timeout_s=0.3), sleep=sleep) as llm:
        reply = await ask(llm)

    assert reply.data == MEMORIES
    assert reply.attempts == 2
    assert len(server.requests) == 2
    assert len(sleep.delays) == 1


async def test_timeouts_exhausted_raise_provider_timeout(
    server: FakeOpenAIServer, sleep: RecordingSleep
) -> None:
    server.enqueue(Stall(5.0), Stall(5.0))

    async with OpenAIChatLLM(config_for(server, timeout_s=0.2, max_retries=1), sleep=sleep) as llm:
        with pytest.raises(ProviderTimeout):
            await ask(llm)

    assert len(server.requests) == 2


async def test_server_errors_exhausted_raise_provider_unavailable_after_backing_off(
    server: FakeOpenAIServer, llm: OpenAIChatLLM, sleep: RecordingSleep
) -> None:
    server.enqueue(ErrorReply(500), ErrorReply(502), ErrorReply(503), JsonReply(MEMORIES))

    with pytest.raises(ProviderUnavailable, match="HTTP 503"):
        await ask(llm)

    assert len(server.requests) == 3  # one try and max_retries=2 retries
    assert server.remaining == 1
    first, second = sleep.delays
    assert 0.005 <= first <= 0.01  # half to all of base * 2**0
    assert 0.01 <= second <= 0.02  # half to all of base * 2**1
    totals = llm.counters.totals
    assert (totals.calls, totals.failures, totals.retries, totals.requests) == (1, 1, 2, 3)


async def test_connection_refused_raises_provider_unavailable(sleep: RecordingSleep) -> None:
    with FakeOpenAIServer() as gone:
        base_url = gone.base_url  # a port that nothing listens on once closed
    config = OpenAIChatConfig(base_url=base_url, model="m", max_retries=1, backoff_base_s=0.01)

    async with OpenAIChatLLM(config, sleep=sleep) as llm:
        with pytest.raises(ProviderUnavailable) as caught:
            await ask(llm)

    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert len(sleep.delays) == 1


async def test_malformed_reply_is_retried_and_its_tokens_counted(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(TextReply("I'm sorry, I cannot produce that format."), JsonReply(MEMORIES))

    reply = await ask(llm)

    assert reply.data == MEMORIES
    assert reply.attempts == 2
    assert len(server.requests) == 2
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (40, 20)  # both attempts
    assert llm.counters.totals.malformed_replies == 1


async def test_malformed_replies_exhausted_raise_malformed_reply(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(TextReply(""), TextReply(None), TextReply("{'text': "))

    with pytest.raises(MalformedReply):
        await ask(llm)

    assert len(server.requests) == 3
    assert llm.counters.totals.malformed_replies == 3


async def test_repairable_reply_is_accepted_without_a_retry(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(TextReply("Here you go:\n```json\n{'memories': [{'text': 'a',}],}\n```"))

    reply = await ask(llm)

    assert reply.data == {"memories": [{"text": "a"}]}
    assert reply.attempts == 1


async def test_top_level_array_is_not_accepted_for_an_object_schema(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(JsonReply([{"text": "a"}]), JsonReply(MEMORIES))

    reply = await ask(llm)

    assert reply.data == MEMORIES
    assert reply.attempts == 2


async def test_rejected_json_schema_falls_back_to_json_object_then_to_none(
    server: FakeOpenAIServer, llm: OpenAIChatLLM, sleep: RecordingSleep
) -> None:
    server.enqueue(
        ErrorReply(400, "response_format type 'json_schema' is not supported"),
        ErrorReply(400, "Invalid value for response_format.type: json_object"),
        JsonReply(MEMORIES),
        JsonReply(MEMORIES),
    )

    reply = await ask(llm)

    assert reply.data == MEMORIES
    assert reply.attempts == 3
    formats = [r.response_format for r in server.requests]
    assert formats[0] is not None and formats[0]["type"] == "json_schema"
    assert formats[1] == {"type": "json_object"}
    assert formats[2] is None
    for request in server.requests[1:]:  # the schema now travels in the system prompt
        system = request.messages[0]
        assert system["role"] == "system"
        assert system["content"].startswith(SYSTEM.content)
        assert SCHEMA_INSTRUCTION in system["content"]
    assert sleep.delays == []  # a downgrade is not a failure: no backoff

    await ask(llm)  # the downgrade sticks: no more rejected requests
    assert len(server.requests) == 4
    assert server.requests[3].response_format is None
    assert llm.response_format == "none"


async def test_other_bad_requests_are_rejected_at_once(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(ErrorReply(400, "temperature must be at most 2", "invalid_value"))
    with pytest.raises(ProviderRejected, match="invalid_value") as caught:
        await ask(llm)
    assert caught.value.status_code == 400

    server.enqueue(ErrorReply(401, "Incorrect API key provided", "invalid_api_key"))
    with pytest.raises(ProviderRejected) as caught:
        await ask(llm)
    assert caught.value.status_code == 401
    assert len(server.requests) == 2


async def test_model_refusal_is_rejected_without_retry(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    server.enqueue(TextReply(None, refusal="I can't help with that."), JsonReply(MEMORIES))

    with pytest.raises(ProviderRejected, match="refused"):
        await ask(llm)

    assert len(server.requests) == 1


async def test_oversized_input_is_cut_to_fit_the_context(
    server: FakeOpenAIServer, sleep: RecordingSleep
) -> None:
    lines = [f"turn {i:05d}: user said something about item {i}" for i in range(5000)]
    transcript = ChatMessage("user", "\n".join(lines))
    server.enqueue(JsonReply(MEMORIES))

    async with OpenAIChatLLM(config_for(server, context_tokens=1024), sleep=sleep) as llm:
        await ask(llm, SYSTEM, transcript, max_output_tokens=256)

    [request] = server.requests
    sent = [ChatMessage(m["role"], m["content"]) for m in request.messages]
    format_tokens = estimate_tokens(json.dumps(request.body["response_format"]))
    assert estimate_messages_tokens(sent) + format_tokens + 256 <= 1024
    assert sent[0] == SYSTEM
    assert sent[1].content.startswith(TRUNCATION_MARKER)
    assert sent[1].content.endswith(lines[-1])  # the newest turns are kept
    assert lines[0] not in sent[1].content


async def test_context_overflow_reported_by_the_server_cuts_more(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    long_user = ChatMessage("user", "\n".join(f"line {i}" for i in range(4000)))
    server.enqueue(
        ErrorReply(400, "This model's maximum context length is 2048 tokens.", "context_length"),
        JsonReply(MEMORIES),
    )

    reply = await ask(llm, SYSTEM, long_user)

    assert reply.attempts == 2
    first, second = (
        estimate_messages_tokens([ChatMessage(m["role"], m["content"]) for m in r.messages])
        for r in server.requests
    )
    assert second <= first // 2 + 10


async def test_logs_never_hold_the_key_or_the_content(
    server: FakeOpenAIServer, llm: OpenAIChatLLM, caplog: pytest.LogCaptureFixture
) -> None:
    server.enqueue(ErrorReply(429, retry_after="0"), TextReply("not json"), JsonReply(MEMORIES))

    with caplog.at_level(logging.DEBUG):
        await ask(llm)

    assert "retry" in caplog.text
    assert API_KEY not in caplog.text
    assert "dark mode" not in caplog.text and "not json" not in caplog.text


async def test_an_exhausted_script_fails_fast(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    with pytest.raises(ProviderRejected, match="script_exhausted"):
        await ask(llm)
    assert len(server.requests) == 1


async def test_a_shared_client_is_left_open(server: FakeOpenAIServer) -> None:
    server.enqueue(JsonReply(MEMORIES))
    async with httpx.AsyncClient() as client:
        llm = OpenAIChatLLM(config_for(server), client=client)
        await ask(llm)
        await llm.aclose()
        assert not client.is_closed


async def test_invalid_arguments_fail_before_any_request(
    server: FakeOpenAIServer, llm: OpenAIChatLLM
) -> None:
    with pytest.raises(ValueError, match="schema_name"):
        await llm.complete_json([USER], schema=SCHEMA, schema_name="has spaces")
    with pytest.raises(ValueError, match="at least one message"):
        await llm.complete_json([], schema=SCHEMA, schema_name="memories")
    with pytest.raises(ValueError, match="max_output_tokens"):
        await llm.complete_json([USER], schema=SCHEMA, schema_name="m", max_output_tokens=5000)
    assert server.requests == []


def test_config_hides_the_api_key_and_checks_values() -> None:
    config = OpenAIChatConfig(base_url="http://localhost:11434/v1", model="m", api_key=API_KEY)
    assert API_KEY not in repr(config)
    with pytest.raises(ValueError, match="http"):
        OpenAIChatConfig(base_url="localhost:8000", model="m")
    with pytest.raises(ValueError, match="negative"):
        OpenAIChatConfig(base_url="http://x", model="m", price_prompt_per_1k=-1)
