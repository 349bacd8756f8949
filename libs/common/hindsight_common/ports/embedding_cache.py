"""The embedding cache's port: vectors already computed, keyed by text and model.

A vector depends only on the text embedded and the model (the default embedder runs
each text alone for exactly that reason, see ``adapters/onnx_embedder.py``), so a
rebuild of the vector projection from the log with an unchanged model can take every
vector from here instead of running the model again. Keys: :func:`content_hash` of the
text and the embedder's ``model_id``; vectors of two models never meet.

Adapters: ``adapters.sqlite_embedding_cache`` (embedded: a table of its own file, kept
by ``hindsight replay``), ``adapters.kafka_embedding_cache`` (cluster: the compacted
``hindsight.embeddings.v1`` topic).
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence


def content_hash(text: str) -> str:
    """The cache key of a text: SHA-256 of its UTF-8 bytes, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache(ABC):
    """Vectors by (content hash, model id). A miss is never an error: the caller
    embeds and stores. Entries are never wrong, only missing, so losing the cache
    costs time, not correctness."""

    @abstractmethod
    async def get(self, model: str, hashes: Sequence[str]) -> dict[str, list[float]]:
        """The cached vectors of ``model`` for these content hashes, by hash; misses
        left out. Raises PersistenceError when the store fails."""

    @abstractmethod
    async def put(self, model: str, vectors: Mapping[str, Sequence[float]]) -> None:
        """Store ``vectors`` (by content hash) for ``model``; an existing entry is
        replaced (same key, same vector). Stored on return (a cache may give up durability
        for speed: an entry lost in a crash is only embedded again). Raises PersistenceError."""

    @abstractmethod
    async def delete(self, model: str, hashes: Sequence[str]) -> None:
        """Remove these entries of ``model`` for good (an erased user's: a content hash
        would let anyone holding a guess confirm what was said); absent ones are ignored.
        Raises PersistenceError."""

    @abstractmethod
    async def count(self, model: str) -> int:
        """How many vectors of ``model`` it holds."""

    @abstractmethod
    async def close(self) -> None:
        """Flush and release. Idempotent."""
