"""The reranker port: a cross-encoder that reads a query and a passage together."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence


class Reranker(ABC):
    """Scores how well each passage answers a query (higher is better; the scale is
    the model's own, comparable only within one call). CPU-bound work runs off the
    event loop."""

    @property
    @abstractmethod
    def model_id(self) -> str:
        """Stable name and version of the model (reported by explain)."""

    @abstractmethod
    async def score(self, query: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage, in order. Raises ProviderError."""

    def load(self) -> None:  # noqa: B027 - optional hook, nothing to do by default
        """Load the model now, so start-up fails early (otherwise on first use).
        Raises ConfigurationError or ProviderError."""
