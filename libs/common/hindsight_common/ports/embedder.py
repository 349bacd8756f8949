"""The embedder port: text in, unit-length vectors out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence


class Embedder(ABC):
    """Turns texts into dense vectors. CPU-bound work runs off the event loop."""

    @property
    @abstractmethod
    def model_id(self) -> str:
        """Stable name of the model, recorded with every vector."""

    @property
    @abstractmethod
    def dim(self) -> int:
        """Vector dimension."""

    @abstractmethod
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text, in order. Raises ProviderError."""
