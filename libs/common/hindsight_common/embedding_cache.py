"""An embedder that takes vectors from the embedding cache before running the model.

Wraps the real :class:`Embedder` (same ``model_id`` and ``dim``): documents found in the
cache by (content hash, model) are not embedded again, new ones are embedded and stored.
Queries are never cached (each is new, and their instruction prefix differs). Used by
the embed service, so ``hindsight replay`` and any rebuild without a model change
re-embed nothing that was embedded before.
"""

from __future__ import annotations

from collections.abc import Sequence

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache, content_hash


class CachedEmbedder(Embedder):
    def __init__(self, inner: Embedder, cache: EmbeddingCache) -> None:
        self.inner = inner
        self.cache = cache
        self.hits = 0
        self.misses = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dim(self) -> int:
        return self.inner.dim

    def load(self) -> None:
        self.inner.load()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Vectors in order: cached ones from the cache, the rest from the model (one call
        for all misses of the batch, repeats embedded once), then stored.
        Raises ProviderError or PersistenceError."""
        model = self.model_id
        keys = [content_hash(t) for t in texts]
        # An entry of another length is not this model's vector (a record written to the
        # shared topic by something else, or damaged): a miss, embedded and overwritten.
        found = {k: v for k, v in (await self.cache.get(model, keys)).items() if len(v) == self.dim}
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
        if missing:
            fresh = dict(zip(missing, await self.inner.embed(list(missing.values())), strict=True))
            await self.cache.put(model, fresh)
            found.update(fresh)
        self.misses += len(missing)
        self.hits += len(keys) - len(missing)
        return [found[k] for k in keys]

    async def forget(self, texts: Sequence[str]) -> None:
        """Drop these texts' cached vectors (an erased user's documents)."""
        await self.cache.delete(self.model_id, [content_hash(t) for t in texts])

    async def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_queries(texts)
