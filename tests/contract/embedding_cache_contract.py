"""The contract every EmbeddingCache adapter honours. Subclass it per adapter and provide
the ``make`` fixture: a function that opens an instance over the test's own storage
(empty at first); every instance opened is closed after the test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from hindsight_common.errors import PersistenceError
from hindsight_common.ports.embedding_cache import EmbeddingCache, content_hash

BGE = "BAAI/bge-small-en@test"
MINILM = "sentence-transformers/all-MiniLM-L6-v2@test"


def vec(seed: float, dim: int = 8) -> list[float]:
    # float32-exact values (multiples of 1/64), so a round trip must return them exactly.
    return [(seed + i) / 64 for i in range(dim)]


class EmbeddingCacheContract:
    @pytest.fixture
    async def opened(self) -> AsyncIterator[list[EmbeddingCache]]:
        caches: list[EmbeddingCache] = []
        yield caches
        for c in caches:
            await c.close()

    @pytest.fixture
    def open_cache(self, make: Callable[[], EmbeddingCache], opened: list[EmbeddingCache]) -> Callable[[], EmbeddingCache]:
        def again() -> EmbeddingCache:
            opened.append(make())
            return opened[-1]

        return again

    async def test_a_miss_is_left_out(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        cache = open_cache()
        assert await cache.get(BGE, [content_hash("never stored")]) == {}
        assert await cache.count(BGE) == 0

    async def test_put_then_get_returns_the_same_vectors(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        cache = open_cache()
        a, b = content_hash("Alice: hello"), content_hash("Bob: hi")
        await cache.put(BGE, {a: vec(1), b: vec(2)})
        assert await cache.get(BGE, [b, a, content_hash("other")]) == {a: vec(1), b: vec(2)}
        assert await cache.count(BGE) == 2

    async def test_vectors_of_two_models_never_meet(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        cache = open_cache()
        h = content_hash("Alice: the same text")
        await cache.put(BGE, {h: vec(1)})
        assert await cache.get(MINILM, [h]) == {}
        await cache.put(MINILM, {h: vec(5)})
        assert await cache.get(BGE, [h]) == {h: vec(1)}
        assert await cache.get(MINILM, [h]) == {h: vec(5)}
        assert (await cache.count(BGE), await cache.count(MINILM)) == (1, 1)

    async def test_putting_a_key_again_replaces_it(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        cache = open_cache()
        h = content_hash("x")
        await cache.put(BGE, {h: vec(1)})
        await cache.put(BGE, {h: vec(3)})
        assert await cache.get(BGE, [h]) == {h: vec(3)}
        assert await cache.count(BGE) == 1

    async def test_deleted_entries_are_gone_also_after_a_reopen(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        cache = open_cache()
        kept, gone = content_hash("Bob: kept"), content_hash("Ann: erased")
        await cache.put(BGE, {kept: vec(1), gone: vec(2)})
        await cache.put(MINILM, {gone: vec(3)})
        await cache.delete(BGE, [gone, content_hash("never stored")])
        assert await cache.get(BGE, [kept, gone]) == {kept: vec(1)}
        assert await cache.get(MINILM, [gone]) == {gone: vec(3)}  # another model's entry stays
        await cache.close()
        again = open_cache()
        assert await again.get(BGE, [kept, gone]) == {kept: vec(1)}
        assert await again.count(BGE) == 1

    async def test_what_was_put_survives_a_reopen(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        first = open_cache()
        hashes = {content_hash(f"turn {i}"): vec(i, 384) for i in range(120)}
        await first.put(BGE, hashes)
        await first.close()
        again = open_cache()
        assert await again.get(BGE, list(hashes)) == hashes
        assert await again.count(BGE) == 120

    async def test_a_closed_cache_raises_persistence_error(self, open_cache: Callable[[], EmbeddingCache]) -> None:
        cache = open_cache()
        await cache.put(BGE, {content_hash("x"): vec(1)})
        await cache.close()
        await cache.close()  # idempotent
        with pytest.raises(PersistenceError):
            await cache.put(BGE, {content_hash("y"): vec(2)})
