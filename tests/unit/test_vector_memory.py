"""One user's in-memory vectors (``vector_memory.UserVectors``): exact search with its
filters, the inverted lists (what they find of the exact top k, the tail written since,
a plan made stale by a reorder), compaction of dead slots."""

from __future__ import annotations

import numpy as np
import pytest

from hindsight_common.adapters import vector_memory
from hindsight_common.adapters.vector_memory import UserVectors, VectorPoint, plan_lists, unit

DIM = 64


def clustered(n: int, seed: int = 0, spread: float = 0.35) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, DIM))
    x = centres[rng.integers(0, 40, n)] + spread * rng.normal(size=(n, DIM))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def fill(x: np.ndarray, first: int = 0) -> UserVectors:
    index = UserVectors(DIM)
    index.apply(VectorPoint(str(first + i), v, "semantic" if (first + i) % 4 == 0 else "episodic",
                            ("ann", "bob")[(first + i) % 2], float(first + i)) for i, v in enumerate(x))
    return index


def brute(x: np.ndarray, q: np.ndarray, k: int, keep: np.ndarray | None = None) -> list[str]:
    scores = x @ q
    slots = np.arange(len(x)) if keep is None else np.flatnonzero(keep)
    best = slots[np.argsort(-scores[slots], kind="stable")[:k]]
    return [str(i) for i in best]


@pytest.fixture
def small_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vector_memory, "IVF_MIN", 1000)
    monkeypatch.setattr(vector_memory, "EXACT_MAX", 300)


def test_exact_search_is_brute_force_with_the_filters() -> None:
    x = clustered(2000)
    index = fill(x)
    rng = np.random.default_rng(5)
    ids = np.arange(2000)
    for _ in range(10):
        q = unit(rng.normal(size=DIM))
        assert [i for i, _ in index.search(q, 25)] == brute(x, q, 25)
        keep = (ids % 4 != 0) & (ids % 2 == 1) & (ids >= 100) & (ids < 900)
        got = index.search(q, 25, types=["episodic"], speakers=["bob"], since=100.0, until=900.0)
        assert [i for i, _ in got] == brute(x, q, 25, keep)
        assert [s for _, s in got] == pytest.approx(sorted((x @ q)[keep], reverse=True)[:25], abs=1e-5)
    assert index.search(q, 5, speakers=["nobody"]) == []
    assert index.search(q, 5, types=["summary"]) == []


def test_the_lists_find_nearly_all_of_the_exact_top_k(small_lists: None) -> None:
    x = clustered(6000)
    index = fill(x)
    assert index.wants_lists()
    index.adopt_lists(plan_lists(*index.snapshot()))
    assert not index.wants_lists()
    rng = np.random.default_rng(7)
    found = 0
    for _ in range(40):
        q = unit(x[rng.integers(0, 6000)] + 0.2 * rng.normal(size=DIM))
        found += len({i for i, _ in index.search(q, 20)} & set(brute(x, q, 20)))
    assert found / (40 * 20) >= 0.9
    q = unit(x[123])
    assert index.search(q, 1)[0][0] == "123"  # a point is always in its own nearest list


def test_points_written_after_the_lists_are_searched_and_a_stale_plan_is_refused(small_lists: None) -> None:
    x = clustered(3000)
    index = fill(x[:2000])
    plan = plan_lists(*index.snapshot())
    index.apply(VectorPoint(str(i), x[i], "episodic", "ann", float(i)) for i in range(2000, 2100))
    index.adopt_lists(plan)  # the 100 written meanwhile become the tail
    assert index.search(unit(x[2050]), 1)[0][0] == "2050"
    index.remove([str(i) for i in range(1500)])  # dead outnumber live: compacted (a reorder)
    assert index.live == 600
    assert index.search(unit(x[2050]), 1)[0][0] == "2050"
    assert index.search(unit(x[1700]), 1)[0][0] == "1700"
    assert all(int(i) >= 1500 for i, _ in index.search(unit(x[10]), 50))


def test_a_plan_made_before_a_reorder_is_refused(small_lists: None) -> None:
    x = clustered(3000)
    index = fill(x)
    stale = plan_lists(*index.snapshot())
    index.remove([str(i) for i in range(1600)])  # dead outnumber live: compacted, slots moved
    index.adopt_lists(stale)
    assert index.wants_lists()  # refused: still no lists
    got = [i for i, _ in index.search(unit(x[2500]), 10)]
    assert got == [str(int(i) + 1600) for i in brute(x[1600:], unit(x[2500]), 10)]
    index.adopt_lists(plan_lists(*index.snapshot()))
    assert not index.wants_lists()
    assert index.search(unit(x[2500]), 1)[0][0] == "2500"


def test_a_selective_filter_over_a_listed_user_is_exact(small_lists: None) -> None:
    x = clustered(4000)
    index = fill(x)
    index.adopt_lists(plan_lists(*index.snapshot()))
    q = unit(np.random.default_rng(2).normal(size=DIM))
    ids = np.arange(4000)
    keep = (ids >= 1000) & (ids < 1250)  # 250 points: under EXACT_MAX
    got = index.search(q, 30, since=1000.0, until=1250.0)
    assert [i for i, _ in got] == brute(x, q, 30, keep)


def test_a_replaced_point_is_found_once_with_its_new_vector() -> None:
    x = clustered(100)
    index = fill(x)
    index.apply([VectorPoint("5", x[50], "episodic", "ann", 5.0)])
    assert index.live == 100
    hits = index.search(unit(x[50]), 2)
    assert {i for i, _ in hits} == {"5", "50"}
    assert [i for i, _ in index.search(unit(x[5]), 100)].count("5") == 1


def test_the_in_memory_vectors_keep_blas_to_one_thread() -> None:
    # An OpenBLAS helper thread spins after every product: a core burnt per search.
    from threadpoolctl import threadpool_info, threadpool_limits

    with threadpool_limits(limits=2, user_api="blas"):
        vector_memory.MemoryVectors(2**20, DIM)
        assert {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"} == {1}
