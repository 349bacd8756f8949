"""The embedder port: text in, unit-length vectors out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence


class Embedder(ABC):
    """Turns texts into dense vectors. CPU-bound work runs off the event loop.

    Some models embed a question differently from the passages it should find
    (bge adds an instruction to the query): documents go through :meth:`embed`,
    recall's queries through :meth:`embed_queries`.
    """

    @property
    @abstractmethod
    def model_id(self) -> str:
        """Stable name and version of the model, recorded with every vector: vectors of
        two models never share an index (re-embedding is a rebuild)."""

    @property
    @abstractmethod
    def dim(self) -> int:
        """Vector dimension."""

    @abstractmethod
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per document text, in order. Raises ProviderError."""

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per search query, in order (a symmetric model embeds
        them as documents). Raises ProviderError."""
        return await self.embed(texts)

    def load(self) -> None:  # noqa: B027 - optional hook, nothing to do by default
        """Load the model now, so start-up fails early (otherwise on first use).
        Raises ConfigurationError or ProviderError."""
