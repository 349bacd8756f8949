"""Erasing one user rewrites the Qdrant Edge shard and swaps it in; another user's searches
running at the same moment must still find that user's vectors (before the guard, a search
that met the closed shard answered nothing or failed)."""

from __future__ import annotations

import asyncio
import math
import uuid
from dataclasses import replace
from pathlib import Path

from hindsight_common.adapters.qdrant_edge import QdrantEdgeIndex
from hindsight_common.adapters.shard_guard import ShardGuard
from hindsight_common.ports.projection import Embedded, Scope
from tests.contract.projection_contract import docs

DIM = 8


def _vector(i: int) -> list[float]:
    v = [math.sin(i * (j + 1)) + 1.5 for j in range(DIM)]
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def _documents(user: str, n: int) -> list[Embedded]:
    base = docs()[0]
    return [Embedded(replace(base, id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{user}-{i}")), user=user,
                             content=f"{user} note {i}", external_id=f"{user}{i}",
                             external_ids=(f"{user}{i}",)), _vector(i))
            for i in range(n)]


async def test_searches_of_another_user_answer_through_every_purge(tmp_path: Path) -> None:
    index = QdrantEdgeIndex(tmp_path / "vectors", DIM)
    kept = _documents("kept", 5)
    await index.upsert(kept, {"s#0": 1})
    answers: list[int] = []
    errors: list[BaseException] = []
    done = asyncio.Event()

    async def searcher() -> None:
        while not done.is_set():
            try:
                hits = await index.search(Scope(tenant="t1", user="kept"), _vector(1), 5)
                answers.append(len(hits))
            except Exception as e:  # a search that met the closed shard
                errors.append(e)

    tasks = [asyncio.create_task(searcher()) for _ in range(3)]
    try:
        for round_ in range(8):
            await index.upsert(_documents("erased", 300), {"s#0": 2 + round_})
            assert await index.purge_user("t1", "erased") == 300
    finally:
        done.set()
        await asyncio.gather(*tasks)
        await index.close()
    assert not errors, errors[:3]
    assert answers and set(answers) == {5}, f"{answers.count(0)} of {len(answers)} searches found nothing"


def test_a_swap_waits_for_readers_and_readers_wait_for_a_swap() -> None:
    guard = ShardGuard()
    order: list[str] = []
    import threading

    reading = threading.Event()
    release = threading.Event()

    def reader() -> None:
        with guard.reading():
            reading.set()
            release.wait(5)
            order.append("read")

    def swapper() -> None:
        with guard.swapping():
            order.append("swap")

    r = threading.Thread(target=reader)
    r.start()
    assert reading.wait(5)
    s = threading.Thread(target=swapper)
    s.start()
    s.join(0.2)
    assert s.is_alive() and order == []  # the swap waits for the reader in flight
    release.set()
    r.join(5)
    s.join(5)
    assert order == ["read", "swap"]
