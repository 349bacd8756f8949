"""The LLM port: ask a chat model for a JSON reply.

Reflection turns conversation transcripts into memories by asking a chat model for JSON.
This module holds what every LLM adapter shares: the message and reply types, the abstract
port, and the provider error tree. Adapters translate their driver's errors into these
(``raise ... from e``) so that callers never see an HTTP library's exceptions.

Error tree::

    ProviderError                 (hindsight_common.errors) anything that went wrong with the model
    ├── ProviderTimeout           no complete answer within the per-call timeout
    ├── ProviderRateLimited       the provider said "too many requests" (HTTP 429)
    ├── ProviderUnavailable       connection failures and 5xx answers
    ├── ProviderRejected          the provider refused the request (4xx other than 429)
    └── MalformedReply            an answer arrived but held no usable JSON

The retryable ones (timeout, rate limit, unavailable, malformed) are raised only after the
adapter has used up its retries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hindsight_common.errors import ProviderError

__all__ = [
    "LLM",
    "ChatMessage",
    "LLMReply",
    "MalformedReply",
    "ProviderError",
    "ProviderRateLimited",
    "ProviderRejected",
    "ProviderTimeout",
    "ProviderUnavailable",
    "Role",
    "Usage",
    "ZERO_USAGE",
]


class ProviderTimeout(ProviderError):
    """The provider did not answer within the per-call timeout, on every attempt."""


class ProviderRateLimited(ProviderError):
    """The provider kept answering HTTP 429 (too many requests).

    ``retry_after_s`` is the wait the provider asked for on its last answer, when it said;
    a caller that can postpone its work (a stream consumer) should wait at least that long.
    """

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class ProviderUnavailable(ProviderError):
    """The provider could not be reached or kept failing (connection errors, HTTP 5xx)."""


class ProviderRejected(ProviderError):
    """The provider refused the request (HTTP 4xx other than 429, or a model refusal).

    Retrying the same request will not help: the credentials, the model name or the request
    itself has to change. ``status_code`` is the HTTP status, when there was one.
    """

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class MalformedReply(ProviderError):
    """A reply arrived but no usable JSON could be taken out of it.

    The message says why (empty, truncated beyond repair, no JSON found, wrong top-level
    type) and never quotes the reply itself, which may hold user content.
    """


Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message of a chat conversation sent to the model."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens consumed by a request and what they cost.

    ``estimated`` is true when the provider did not report usage and the figures come from
    the local heuristic (see ``hindsight_common.llm.budget``).
    """

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cost_usd: float
    estimated: bool = False

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            estimated=self.estimated or other.estimated,
        )


ZERO_USAGE = Usage(prompt_tokens=0, completion_tokens=0, total_tokens=0, cost_usd=0.0)


@dataclass(frozen=True, slots=True)
class LLMReply:
    """A model's answer to ``LLM.complete_json``.

    ``text`` is the raw reply, ``data`` the JSON value taken out of it (an object or array;
    never validated against the schema: that is the caller's job, since LLM output is never
    trusted). ``usage`` sums every attempt that reached the model, because failed attempts
    cost tokens too. ``model`` is the model that answered, as the provider named it.
    ``attempts`` counts the HTTP requests made, the successful one included.
    """

    text: str
    data: Any | None
    usage: Usage
    model: str
    attempts: int


class LLM(ABC):
    """A chat model that answers with JSON.

    Implementations own their transport (and close it in ``aclose``), retry what is worth
    retrying, keep the input within the model's context, and translate transport errors
    into ``ProviderError`` subclasses.
    """

    @property
    @abstractmethod
    def model_name(self) -> str:
        """The model requests are sent to, as configured."""

    @property
    @abstractmethod
    def context_tokens(self) -> int:
        """The model's context window in tokens: prompt and reply together must fit in it."""

    @abstractmethod
    async def complete_json(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: dict[str, Any],
        schema_name: str,
        max_output_tokens: int = 1024,
    ) -> LLMReply:
        """Ask the model to answer ``messages`` with JSON shaped by ``schema``.

        ``schema`` is a JSON Schema the reply should follow and ``schema_name`` its name
        (letters, digits, ``_`` and ``-``, at most 64 characters). The schema is a request to
        the model, not a guarantee: the reply is parsed defensively but never validated
        against it. When the messages do not fit in ``context_tokens`` minus
        ``max_output_tokens``, the oldest non-system content is cut and a marker put in its
        place; system messages are always kept whole.

        Returns an ``LLMReply`` whose ``data`` is the JSON object or array found in the
        reply.

        Raises ``ValueError`` for arguments that can never work (no messages, a bad schema
        name, system messages that alone exceed the context). Raises ``ProviderTimeout``,
        ``ProviderRateLimited``, ``ProviderUnavailable`` or ``MalformedReply`` once retries
        are used up, and ``ProviderRejected`` at once for a request the provider refuses.
        """

    async def aclose(self) -> None:
        """Release the transport. The default has nothing to release."""
