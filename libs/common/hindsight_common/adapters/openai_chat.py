"""The LLM port over an OpenAI-compatible chat completions API (OpenAI, vLLM, Ollama, LM Studio).

One ``POST {base_url}/chat/completions`` per attempt, with a total deadline of
``timeout_s``. What happens to each answer:

* 200 — ``choices[0].message.content`` goes through ``extract_json``; no usable JSON is a
  malformed reply, retried like a transient failure.
* 429, 408, 409, 5xx, timeouts, connection errors — retried with exponential backoff and
  jitter, up to ``max_retries`` times; a ``Retry-After`` (or ``retry-after-ms``) header sets
  the minimum wait, and one longer than ``backoff_max_s`` ends the call at once with
  ``ProviderRateLimited.retry_after_s`` so the caller can postpone its work instead.
* 400/422 about ``response_format`` — servers differ in what they accept, so the request is
  sent again with ``{"type": "json_object"}``, then with no ``response_format`` (the schema
  then goes into the system prompt). The downgrade sticks for later calls.
* 400/422 about the context length — the token estimate was too low for this model's
  tokenizer; the input budget is halved and the request sent again (twice at most).
* any other 4xx, or a model's refusal — ``ProviderRejected`` at once.

The API key is sent as a bearer token. Neither it nor messages nor replies are logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx

from hindsight_common.llm.accounting import LLMCounters, Pricing, usage_from_report
from hindsight_common.llm.budget import (
    TokenCounter,
    estimate_messages_tokens,
    estimate_tokens,
    input_budget,
    truncate_messages,
)
from hindsight_common.llm.json_repair import extract_json
from hindsight_common.llm.retry import Backoff, retry_after_seconds
from hindsight_common.llm.schema_prompt import expected_type, with_schema_instruction
from hindsight_common.ports.llm import (
    LLM,
    ZERO_USAGE,
    ChatMessage,
    LLMReply,
    MalformedReply,
    ProviderError,
    ProviderRateLimited,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    Usage,
)

__all__ = ["OpenAIChatConfig", "OpenAIChatLLM", "ResponseFormat", "chat_completions_url"]

logger = logging.getLogger(__name__)

ResponseFormat = Literal["json_schema", "json_object", "none"]
_DOWNGRADE: dict[ResponseFormat, ResponseFormat] = {
    "json_schema": "json_object",
    "json_object": "none",
}
_MAX_CONTEXT_SHRINKS = 2
_SCHEMA_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_ERROR_CODE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_FORMAT_HINTS = ("response_format", "response format", "json_schema", "json_object")
_CONTEXT_HINTS = (
    "context length", "context_length", "maximum context", "context window",
    "context size", "prompt is too long", "too many tokens",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class OpenAIChatConfig:
    """How to reach one model on an OpenAI-compatible server.

    ``base_url`` is the API root, usually ending in ``/v1`` (``http://localhost:11434/v1``);
    a bare host gets ``/v1`` added. Prices are in US dollars per 1,000 tokens (0 for a local
    model). ``response_format`` is the first output mode tried.
    """

    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 3
    backoff_base_s: float = 0.5
    backoff_max_s: float = 20.0
    context_tokens: int = 8192
    price_prompt_per_1k: float = 0.0
    price_completion_per_1k: float = 0.0
    temperature: float | None = 0.0
    response_format: ResponseFormat = "json_schema"

    def __post_init__(self) -> None:
        if urlsplit(self.base_url).scheme not in ("http", "https"):
            raise ValueError("base_url must be an http:// or https:// URL")
        if not self.model:
            raise ValueError("model must name the model to use")
        if self.timeout_s <= 0 or self.context_tokens <= 0:
            raise ValueError("timeout_s and context_tokens must be positive")
        if self.max_retries < 0:
            raise ValueError("max_retries must not be negative")
        Backoff(self.backoff_base_s, self.backoff_max_s)  # validates the backoff times
        Pricing(self.price_prompt_per_1k, self.price_completion_per_1k)  # and the prices


def chat_completions_url(base_url: str) -> str:
    """Return the chat completions endpoint under ``base_url``."""
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/")
    if path.endswith("/chat/completions"):
        return urlunsplit(parts._replace(path=path))
    return urlunsplit(parts._replace(path=(path or "/v1") + "/chat/completions"))


class _FormatRejected(Exception):
    """The server refused the ``response_format`` sent."""


class _ContextOverflow(Exception):
    """The server found the prompt longer than the model's context."""


class OpenAIChatLLM(LLM):
    """``LLM`` over an OpenAI-compatible ``/chat/completions`` endpoint.

    Pass ``client`` to share an ``httpx.AsyncClient`` (it is then not closed here),
    ``tokenizer`` for exact token counts, and ``sleep``/``rng`` to control backoff in tests.
    ``counters`` holds running totals for a metrics exporter.
    """

    def __init__(
        self,
        config: OpenAIChatConfig,
        *,
        client: httpx.AsyncClient | None = None,
        tokenizer: TokenCounter | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self._config = config
        self._url = chat_completions_url(config.base_url)
        self._owns_client = client is None
        self._client = client or httpx.AsyncClient(timeout=config.timeout_s)
        self._headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        self._tokenizer = tokenizer
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._backoff = Backoff(config.backoff_base_s, config.backoff_max_s)
        self._pricing = Pricing(config.price_prompt_per_1k, config.price_completion_per_1k)
        self._format: ResponseFormat = config.response_format
        self.counters = LLMCounters(config.model)

    @property
    def model_name(self) -> str:
        return self._config.model

    @property
    def context_tokens(self) -> int:
        return self._config.context_tokens

    @property
    def response_format(self) -> ResponseFormat:
        """The output mode now in use (after any downgrade)."""
        return self._format

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    async def __aenter__(self) -> OpenAIChatLLM:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: dict[str, Any],
        schema_name: str,
        max_output_tokens: int = 1024,
    ) -> LLMReply:
        if not messages:
            raise ValueError("messages must hold at least one message")
        if not _SCHEMA_NAME.fullmatch(schema_name):
            raise ValueError("schema_name must be 1-64 letters, digits, '_' or '-'")
        if max_output_tokens <= 0:
            raise ValueError("max_output_tokens must be positive")
        self.counters.add(calls=1)
        try:
            return await self._complete(list(messages), schema, schema_name, max_output_tokens)
        except ProviderError:
            self.counters.add(failures=1)
            raise

    async def _complete(
        self,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        schema_name: str,
        max_output_tokens: int,
    ) -> LLMReply:
        expect = expected_type(schema)
        usage, attempts, failures, shrinks = ZERO_USAGE, 0, 0, 0
        while True:
            attempts += 1
            mode = self._format
            body, sent = self._request(
                messages, schema, schema_name, max_output_tokens, mode, shrinks
            )
            try:
                answer = _Answer.read(await self._post(body))
                usage += self._account(answer, sent)
                model = answer.model or self._config.model
                if answer.refused:
                    raise ProviderRejected("the model refused to answer")
                if answer.finish_reason == "length":
                    logger.warning("reply from %s hit max_output_tokens; JSON may be cut", model)
                data = extract_json(answer.text, expect=expect)
                return LLMReply(
                    text=answer.text, data=data, usage=usage, model=model, attempts=attempts
                )
            except _FormatRejected:
                if self._format == mode:  # a concurrent call may have downgraded already
                    self._format = _DOWNGRADE[mode]
                    logger.warning("server refused response_format %s; now %s", mode, self._format)
            except _ContextOverflow as e:
                shrinks += 1
                if shrinks > _MAX_CONTEXT_SHRINKS:
                    raise ProviderRejected(
                        "the prompt is still too long for the model after cutting it twice; "
                        "check context_tokens for this model",
                        status_code=400,
                    ) from e
                logger.warning("prompt too long for %s; cutting more", self._config.model)
            except (ProviderTimeout, ProviderUnavailable, ProviderRateLimited, MalformedReply) as e:
                failures += 1
                await self._back_off(e, failures)

    async def _back_off(self, error: ProviderError, failures: int) -> None:
        """Wait before retrying after ``failures`` failures in a row; raise ``error`` if done."""
        rate_limited = isinstance(error, ProviderRateLimited)
        self.counters.add(
            malformed_replies=int(isinstance(error, MalformedReply)), rate_limited=int(rate_limited)
        )
        retry_after = error.retry_after_s if isinstance(error, ProviderRateLimited) else None
        delay = self._backoff.delay(failures, self._rng, retry_after)
        if failures > self._config.max_retries or delay is None:
            raise error
        self.counters.add(retries=1)
        logger.warning(
            "request to %s failed (%s: %s); retry %s of %s in %.2fs",
            self._config.model, type(error).__name__, error, failures,
            self._config.max_retries, delay,
        )  # fmt: skip
        await self._sleep(delay)

    def _account(self, answer: _Answer, sent: list[ChatMessage]) -> Usage:
        """Return one request's usage, and add it to the running totals."""
        usage = usage_from_report(
            answer.usage,
            self._pricing,
            estimate_prompt=lambda: estimate_messages_tokens(sent, self._tokenizer),
            estimate_completion=lambda: estimate_tokens(answer.text, self._tokenizer),
        )
        self.counters.add_usage(usage)
        return usage

    def _request(
        self,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        schema_name: str,
        max_output_tokens: int,
        mode: ResponseFormat,
        shrinks: int,
    ) -> tuple[dict[str, Any], list[ChatMessage]]:
        """Build the request body for output ``mode``; return it and the messages it holds."""
        response_format: dict[str, Any] | None = None
        if mode == "json_schema":
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": False},
            }
        elif mode == "json_object":
            response_format = {"type": "json_object"}
        if mode != "json_schema":
            messages = with_schema_instruction(messages, schema)
        # Servers turn the schema into prompt text (or a grammar): count it as input.
        reserved = estimate_tokens(json.dumps(response_format), self._tokenizer)
        budget = input_budget(self._config.context_tokens, max_output_tokens, reserved)
        fitted = truncate_messages(messages, budget >> shrinks, tokenizer=self._tokenizer)
        if fitted != messages:
            logger.info("input for %s cut to %s tokens", self._config.model, budget >> shrinks)
        body: dict[str, Any] = {
            "model": self._config.model,
            "messages": [{"role": m.role, "content": m.content} for m in fitted],
            "max_tokens": max_output_tokens,
        }
        if self._config.temperature is not None:
            body["temperature"] = self._config.temperature
        if response_format is not None:
            body["response_format"] = response_format
        return body, fitted

    async def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send one request; return the decoded answer or raise a ``ProviderError``."""
        self.counters.add(requests=1)
        timeout = self._config.timeout_s
        try:
            async with asyncio.timeout(timeout):
                response = await self._client.post(
                    self._url, json=body, headers=self._headers, timeout=timeout
                )
        except (TimeoutError, httpx.TimeoutException) as e:
            raise ProviderTimeout(f"no answer from the model server within {timeout}s") from e
        except httpx.RequestError as e:
            reason = type(e).__name__
            raise ProviderUnavailable(f"could not reach the model server ({reason})") from e
        if not response.is_success:
            self._raise_for_status(response, format_sent="response_format" in body)
        try:
            envelope = response.json()
        except ValueError as e:
            raise MalformedReply("the server's answer is not JSON") from e
        if not isinstance(envelope, dict):
            raise MalformedReply("the server's answer is not a JSON object")
        return envelope

    def _raise_for_status(self, response: httpx.Response, *, format_sent: bool) -> None:
        status = response.status_code
        detail = f"HTTP {status}{_error_code(response)}"
        if status in (400, 422):
            # Only searched for keywords: error bodies can echo the request's content.
            text = response.text[:4000].lower()
            if format_sent and any(hint in text for hint in _FORMAT_HINTS):
                raise _FormatRejected
            if any(hint in text for hint in _CONTEXT_HINTS):
                raise _ContextOverflow
        if status == 429:
            raise ProviderRateLimited(
                f"rate limited by the model server ({detail})",
                retry_after_s=retry_after_seconds(response.headers),
            )
        if status == 408:
            raise ProviderTimeout(f"the model server timed out ({detail})")
        if status == 409 or status >= 500:
            raise ProviderUnavailable(f"the model server failed ({detail})")
        raise ProviderRejected(f"the model server refused it ({detail})", status_code=status)


@dataclass(frozen=True, slots=True)
class _Answer:
    """The parts of a chat completion this adapter uses, read defensively."""

    text: str
    model: str | None
    finish_reason: object
    refused: bool
    usage: object

    @classmethod
    def read(cls, envelope: dict[str, Any]) -> _Answer:
        choices = envelope.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise MalformedReply("the server's answer holds no choices")
        message = choices[0].get("message")
        message = message if isinstance(message, dict) else {}
        content = message.get("content")
        if isinstance(content, list):  # content parts: keep the text ones
            content = "".join(
                part["text"]
                for part in content
                if isinstance(part, dict) and isinstance(part.get("text"), str)
            )
        refusal, model = message.get("refusal"), envelope.get("model")
        return cls(
            text=content if isinstance(content, str) else "",
            model=model if isinstance(model, str) and model else None,
            finish_reason=choices[0].get("finish_reason"),
            refused=isinstance(refusal, str) and bool(refusal.strip()),
            usage=envelope.get("usage"),
        )


def _error_code(response: httpx.Response) -> str:
    """Return ``", <code>"`` from an OpenAI error body when it is a short identifier."""
    try:
        error = response.json()["error"]
        code = error.get("code") or error.get("type")
    except (ValueError, TypeError, KeyError, AttributeError):
        return ""
    return f", {code}" if isinstance(code, str) and _ERROR_CODE.fullmatch(code) else ""
