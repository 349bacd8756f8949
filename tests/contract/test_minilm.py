"""The MiniLM embedder: small batches take a direct path; it must give the same
vectors as the batched encode (the index was built with those)."""

from __future__ import annotations

import math

from hindsight_common.adapters.minilm import DIRECT_MAX, MiniLMEmbedder

TEXTS = ["Where did Caroline go last May?", "I adopted a puppy named Biscuit.", "a", "What is 12 + 30?"]


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def test_small_batches_match_the_batched_encode(embedder: MiniLMEmbedder) -> None:
    filler = [f"filler sentence number {i}" for i in range(DIRECT_MAX + 1)]
    batched = await embedder.embed(TEXTS + filler)  # > DIRECT_MAX: the encode() path
    assert len(batched) == len(TEXTS) + len(filler)
    for i, text in enumerate(TEXTS):
        (single,) = await embedder.embed([text])  # the direct path
        assert len(single) == embedder.dim
        assert math.isclose(math.sqrt(_cos(single, single)), 1.0, abs_tol=1e-5)
        assert _cos(single, batched[i]) > 0.99999
    pair = await embedder.embed(TEXTS[:2])
    assert _cos(pair[0], batched[0]) > 0.99999 and _cos(pair[1], batched[1]) > 0.99999
    # Different texts really differ (the path is not returning a constant).
    assert _cos(batched[0], batched[1]) < 0.9


async def test_empty_input_embeds_nothing(embedder: MiniLMEmbedder) -> None:
    assert await embedder.embed([]) == []
