"""Token and cost accounting for LLM requests.

``usage_from_report`` turns the ``usage`` object that OpenAI-compatible servers return
(``prompt_tokens``, ``completion_tokens``, ``total_tokens``) into a ``Usage`` with its cost,
estimating what the server left out. Each adapter instance owns one ``LLMCounters`` of
running totals; updates swap in a new frozen ``LLMTotals``, so a reader (a metrics exporter
in another thread included) always sees a consistent snapshot. The same increments go
to the process's Prometheus counters (``hindsight_llm_*``, labelled by model).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from hindsight_common.ports.llm import Usage
from hindsight_common.telemetry import metrics

__all__ = ["LLMCounters", "LLMTotals", "Pricing", "usage_from_report"]


@dataclass(frozen=True, slots=True)
class Pricing:
    """What a model costs, in US dollars per 1,000 tokens (zero for a local model)."""

    prompt_per_1k: float = 0.0
    completion_per_1k: float = 0.0

    def __post_init__(self) -> None:
        if self.prompt_per_1k < 0 or self.completion_per_1k < 0:
            raise ValueError("prices must not be negative")

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """Return the cost in US dollars of a request with these token counts."""
        return (
            prompt_tokens * self.prompt_per_1k + completion_tokens * self.completion_per_1k
        ) / 1000


def usage_from_report(
    reported: object,
    pricing: Pricing,
    *,
    estimate_prompt: Callable[[], int],
    estimate_completion: Callable[[], int],
) -> Usage:
    """Return the usage of one request from the server's ``usage`` object.

    Counts the server did not report (or reported as something other than a non-negative
    integer) come from the estimators, and the result is then marked ``estimated``.
    """
    fields = reported if isinstance(reported, dict) else {}
    prompt = _count(fields, "prompt_tokens")
    completion = _count(fields, "completion_tokens")
    estimated = prompt is None or completion is None
    if prompt is None:
        prompt = estimate_prompt()
    if completion is None:
        completion = estimate_completion()
    total = _count(fields, "total_tokens")
    if total is None or estimated:
        total = prompt + completion
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total,
        cost_usd=pricing.cost(prompt, completion),
        estimated=estimated,
    )


def _count(fields: dict[object, object], name: str) -> int | None:
    value = fields.get(name)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


@dataclass(frozen=True, slots=True)
class LLMTotals:
    """A snapshot of an LLM client's totals since it was created.

    ``calls`` counts ``complete_json`` calls, ``failures`` those that raised a provider
    error, ``requests`` the HTTP requests made, ``retries`` the requests that repeated a
    failed one, ``rate_limited`` and ``malformed_replies`` the answers of those kinds. Tokens
    and cost include failed attempts that reached the model; ``estimated_usage`` counts the
    requests whose usage the server did not report.
    """

    calls: int = 0
    failures: int = 0
    requests: int = 0
    retries: int = 0
    rate_limited: int = 0
    malformed_replies: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost_usd: float = 0.0
    estimated_usage: int = 0


_PROMETHEUS = {
    "calls": metrics.LLM_CALLS, "failures": metrics.LLM_FAILURES,
    "requests": metrics.LLM_REQUESTS, "retries": metrics.LLM_RETRIES,
}


class LLMCounters:
    """Holder of an ``LLMTotals`` snapshot; only its owner writes to it.

    ``model`` labels the Prometheus counters the increments also go to."""

    def __init__(self, model: str = "") -> None:
        self._totals = LLMTotals()
        self._model = model

    @property
    def totals(self) -> LLMTotals:
        """The current totals (an immutable snapshot)."""
        return self._totals

    def add(self, **increments: int) -> None:
        """Add to integer counters by name, e.g. ``add(requests=1, retries=1)``."""
        current = self._totals
        changes = {name: getattr(current, name) + value for name, value in increments.items()}
        self._totals = dataclasses.replace(current, **changes)
        for name, value in increments.items():
            if name in _PROMETHEUS:
                _PROMETHEUS[name].labels(self._model).inc(value)

    def add_usage(self, usage: Usage) -> None:
        """Add one request's tokens and cost."""
        current = self._totals
        self._totals = dataclasses.replace(
            current,
            prompt_tokens=current.prompt_tokens + usage.prompt_tokens,
            completion_tokens=current.completion_tokens + usage.completion_tokens,
            total_tokens=current.total_tokens + usage.total_tokens,
            cost_usd=current.cost_usd + usage.cost_usd,
            estimated_usage=current.estimated_usage + int(usage.estimated),
        )
        metrics.LLM_TOKENS.labels(self._model, "prompt").inc(usage.prompt_tokens)
        metrics.LLM_TOKENS.labels(self._model, "completion").inc(usage.completion_tokens)
        metrics.LLM_COST.labels(self._model).inc(usage.cost_usd)
