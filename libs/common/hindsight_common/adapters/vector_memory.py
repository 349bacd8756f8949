"""Nearest neighbours over one user's vectors in memory, beside the Qdrant Edge shard.

Qdrant Edge answers a filtered search by scoring every point that passes the filter,
inside the binding and holding the GIL: at one user's 100,000 turns (about 178,000
points) that is 28–45 ms a search on the 2-core machines, during which no other path
of the same recall runs. Here a user's vectors are one float32 matrix; NumPy's matrix
products release the GIL, and past ``IVF_MIN`` points the search scans only the
lists of an inverted file (spherical k-means) whose centroids are nearest the query.

- Exact below ``IVF_MIN`` points, and whenever the scope's filters (types, speakers, a
  time range) leave at most ``EXACT_MAX`` points: every passing point is scored (a few
  gathered, most through one product over the whole matrix). The scores are the shard's
  (cosine: dot products of unit vectors).
- Approximate above: the ``probe`` lists nearest the query (``PROBE_SHARE`` of them,
  at least ``PROBE_MIN``), every point of them scored exactly, plus the points written
  since the lists were built (the tail, scanned whole). ``bench vectors`` measures
  what this finds of the exact top k.
- The lists are rebuilt off the serving thread (``plan_lists`` outside any
  lock, ``adopt_lists`` under it) when the tail outgrows ``TAIL_SHARE`` of the user's
  points.

The shard stays the durable copy and still holds the payloads: a search here returns
point ids and scores, the adapter reads the documents of those ids from the shard.

NumPy's BLAS (OpenBLAS) runs a product over two threads, and its helper thread then spins
for tens of milliseconds waiting for more work: one 17,800-row product and a pause cost
38 ms of CPU instead of 4 on the 2-core development machine, so every search burnt most of
a core that the other recall paths needed. ``MemoryVectors`` therefore limits the
process's BLAS to one thread (threadpoolctl); Hindsight does no other large BLAS work in
the serving process (the models run on ONNX Runtime, which has its own threads).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from hindsight_common.adapters.user_cache import UserCache, UserKey

IVF_MIN = 32_768  # below: every search is exact (at 384 dims, ~4 ms a search at this size)
EXACT_MAX = 16_384  # a filter that leaves at most this many points: exact over them
TAIL_SHARE = 0.15  # the lists are rebuilt when the unlisted tail passes this share
PROBE_SHARE = 0.1
PROBE_MIN = 16
_KMEANS_ROUNDS = 10
_SAMPLE_PER_LIST = 64
_CHUNK = 16_384

F32 = npt.NDArray[np.float32]
_COLUMNS = ("_mat", "_ts", "_type", "_speaker", "_alive")  # one row per slot each


@dataclass(frozen=True)
class VectorPoint:
    """What the search needs of a point: its id, unit vector and filtered keys."""

    id: str
    vector: F32
    type: str
    speaker: str | None
    ts: float


@dataclass(frozen=True)
class ListPlan:
    """Inverted lists planned over the first ``rows`` slots of a user's matrix."""

    generation: int  # the slot order it was planned on (``UserVectors.snapshot``)
    rows: int
    centroids: F32
    assignment: npt.NDArray[np.int32]


def unit(vector: Sequence[float] | F32) -> F32:
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def unit_rows(vectors: Sequence[Any]) -> F32:
    """``unit`` of each row, converted and normalised as one matrix (a zero row stays zero)."""
    m = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    np.divide(m, norms, out=m, where=norms > 0)
    return m


class _Codes:
    """Small integer codes for the values of a keyword (types, speakers)."""

    def __init__(self) -> None:
        self._of: dict[str | None, int] = {None: 0}

    def code(self, value: str | None) -> int:
        return self._of.setdefault(value, len(self._of))

    def wanted(self, values: Sequence[str]) -> npt.NDArray[np.int32]:
        return np.array([self._of[v] for v in values if v in self._of], dtype=np.int32)


def _any_of(codes: npt.NDArray[np.int32], wanted: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
    """Where ``codes`` holds one of the few ``wanted`` codes: one comparison per code
    (``np.isin`` sorts or tabulates, about 1 ms over a user's 178,000 points)."""
    hit = np.zeros(len(codes), dtype=bool)
    for code in wanted.tolist():
        hit |= codes == code
    return hit


class UserVectors:
    """One user's points: a growable matrix, its filtered keys, and inverted lists over
    its first ``_listed`` slots (slots ordered by list) when it is large."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._n = 0
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._ts = np.zeros(0, dtype=np.float64)
        self._type = np.zeros(0, dtype=np.int32)
        self._speaker = np.zeros(0, dtype=np.int32)
        self._alive = np.zeros(0, dtype=bool)
        self._ids: list[str] = []
        self._slot_of: dict[str, int] = {}
        self._types = _Codes()
        self._speakers = _Codes()
        self._listed = 0  # slots [0, _listed) are ordered by list
        self._centroids: F32 | None = None
        self._offsets = np.zeros(1, dtype=np.int64)
        self._generation = 0  # counts reorders: a slot means another point after one

    @property
    def live(self) -> int:
        return len(self._slot_of)

    def _grow(self, need: int) -> None:
        capacity = len(self._ts)
        if need <= capacity:
            return
        size = max(need, capacity + capacity // 4, 1024)  # 1.25×: the matrix is most of a user's bytes
        for name in _COLUMNS:
            old = getattr(self, name)
            new = np.zeros((size, *old.shape[1:]), dtype=old.dtype)
            new[: self._n] = old[: self._n]
            setattr(self, name, new)

    def apply(self, points: Iterable[VectorPoint]) -> None:
        """Upserts: a point already held is replaced (its old slot dies)."""
        batch = list(points)
        self._grow(self._n + len(batch))
        for p in batch:
            old = self._slot_of.get(p.id)
            if old is not None:
                self._alive[old] = False
            slot = self._n
            self._mat[slot] = p.vector
            self._ts[slot] = p.ts
            self._type[slot] = self._types.code(p.type)
            self._speaker[slot] = self._speakers.code(p.speaker)
            self._alive[slot] = True
            self._ids.append(p.id)
            self._slot_of[p.id] = slot
            self._n += 1
        self._compact_if_sparse()

    def remove(self, ids: Iterable[str]) -> None:
        for point_id in ids:
            slot = self._slot_of.pop(point_id, None)
            if slot is not None:
                self._alive[slot] = False
        self._compact_if_sparse()

    def nbytes(self) -> int:
        arrays = sum(getattr(self, name).nbytes for name in _COLUMNS)
        return int(4096 + arrays + len(self._ids) * 120)

    # -- search ----------------------------------------------------------------------

    def _mask(self, types: Sequence[str], speakers: Sequence[str],
              since: float | None, until: float | None) -> npt.NDArray[np.bool_] | None:
        """The slots passing the filters (None: every live slot; only ``_alive`` applies)."""
        n = self._n
        if not (types or speakers or since is not None or until is not None):
            return None
        mask = self._alive[:n].copy()
        if types:
            mask &= _any_of(self._type[:n], self._types.wanted(types))
        if speakers:
            mask &= _any_of(self._speaker[:n], self._speakers.wanted(speakers))
        if since is not None:
            mask &= self._ts[:n] >= since
        if until is not None:
            mask &= self._ts[:n] < until
        return mask

    def search(self, query: F32, k: int, *, types: Sequence[str] = (), speakers: Sequence[str] = (),
               since: float | None = None, until: float | None = None) -> list[tuple[str, float]]:
        """The best (id, score) among the live points passing the filters, best first."""
        n = self._n
        if n == 0 or k <= 0:
            return []
        mask = self._mask(types, speakers, since, until)
        passing = mask if mask is not None else self._alive[:n]
        if self._centroids is None or n < IVF_MIN:
            slots = np.flatnonzero(passing)
            if len(slots) * 4 < n:  # a few rows: gathering them costs less than the product
                return self._top(slots, self._mat[slots] @ query, k)
            return self._top(slots, (self._mat[:n] @ query)[slots], k)
        if mask is not None and (picked := np.flatnonzero(mask)).size <= EXACT_MAX:
            return self._top(picked, self._mat[picked] @ query, k)
        return self._probe(query, k, passing)

    def _top(self, slots: npt.NDArray[np.intp], scores: F32, k: int) -> list[tuple[str, float]]:
        if not len(slots):
            return []
        if len(slots) > k:
            cut = np.argpartition(-scores, k - 1)[:k]
            slots, scores = slots[cut], scores[cut]
        order = np.lexsort((slots, -scores))  # best first; ties by slot, as the shard's order is stable
        return [(self._ids[int(slots[i])], float(scores[i])) for i in order]

    def probe_count(self) -> int:
        lists = 0 if self._centroids is None else len(self._centroids)
        return min(lists, max(PROBE_MIN, math.ceil(lists * PROBE_SHARE)))

    def _probe(self, query: F32, k: int, passing: npt.NDArray[np.bool_]) -> list[tuple[str, float]]:
        assert self._centroids is not None
        near = np.argpartition(-(self._centroids @ query), self.probe_count() - 1)[: self.probe_count()]
        parts_slots, parts_scores = [], []
        for c in near:
            lo, hi = int(self._offsets[c]), int(self._offsets[c + 1])
            if hi > lo:
                parts_slots.append(np.arange(lo, hi))
                parts_scores.append(self._mat[lo:hi] @ query)
        if self._n > self._listed:  # the tail: written since the lists were built
            parts_slots.append(np.arange(self._listed, self._n))
            parts_scores.append(self._mat[self._listed: self._n] @ query)
        slots = np.concatenate(parts_slots)
        scores = np.concatenate(parts_scores)
        keep = passing[slots]
        return self._top(slots[keep], scores[keep], k)

    # -- inverted lists ----------------------------------------------------------------

    def wants_lists(self) -> bool:
        """Large enough for lists, and none yet or a tail past its share."""
        if self.live < IVF_MIN:
            return False
        return self._centroids is None or (self._n - self._listed) > TAIL_SHARE * self._n

    def snapshot(self) -> tuple[int, int, F32, npt.NDArray[np.bool_]]:
        """What ``plan_lists`` reads outside the lock: the slot order's generation, the
        row count, the matrix and the live flags (rows below the count never change
        until a reorder, which ``adopt_lists`` detects; the flags may, and are read
        again there)."""
        return self._generation, self._n, self._mat, self._alive

    def adopt_lists(self, plan: ListPlan) -> None:
        """Reorder the planned rows by list (dropping the dead), the rows written since
        becoming the tail. Under the cache lock: a copy of the matrix, no products."""
        rows = plan.rows
        if plan.generation != self._generation:
            return  # reordered since the snapshot: its slots mean other points now
        order = np.flatnonzero(self._alive[:rows])
        order = order[np.argsort(plan.assignment[order], kind="stable")]
        counts = np.bincount(plan.assignment[order], minlength=len(plan.centroids))
        tail = rows + np.flatnonzero(self._alive[rows: self._n])
        self._reorder(np.concatenate([order, tail]), plan.centroids, counts)

    def _compact_if_sparse(self) -> None:
        """Drop the dead slots once they outnumber the live ones (lists kept)."""
        dead = self._n - self.live
        if dead <= max(1024, self.live):
            return
        listed = np.flatnonzero(self._alive[: self._listed])
        tail = self._listed + np.flatnonzero(self._alive[self._listed: self._n])
        counts = None
        if self._centroids is not None:
            lists = np.searchsorted(self._offsets, listed, side="right") - 1
            counts = np.bincount(lists, minlength=len(self._centroids))
        self._reorder(np.concatenate([listed, tail]), self._centroids, counts)

    def _reorder(self, keep: npt.NDArray[np.intp], centroids: F32 | None,
                 counts: npt.NDArray[np.intp] | None) -> None:
        """Keep only the ``keep`` slots, in that order: the listed ones first (``counts``
        of them per list), then the tail."""
        size = len(keep) + max(1024, len(keep) // 8)
        for name in _COLUMNS:
            old = getattr(self, name)
            new = np.zeros((size, *old.shape[1:]), dtype=old.dtype)
            new[: len(keep)] = old[keep]
            setattr(self, name, new)
        self._ids = [self._ids[int(s)] for s in keep]
        self._slot_of = {point_id: slot for slot, point_id in enumerate(self._ids)}
        self._n = len(keep)
        self._generation += 1
        self._centroids = centroids
        if counts is None:
            self._listed, self._offsets = 0, np.zeros(1, dtype=np.int64)
        else:
            self._listed = int(counts.sum())
            self._offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def plan_lists(generation: int, rows: int, matrix: F32, alive: npt.NDArray[np.bool_],
               seed: int = 0) -> ListPlan:
    """Spherical k-means over the live rows below ``rows``: about √n lists, centroids
    trained on a sample, every row then assigned to its nearest centroid. Only NumPy
    products (no lock held, the GIL released): it runs in a worker thread."""
    live = np.flatnonzero(alive[:rows])
    lists = max(1, int(math.sqrt(len(live))))
    rng = np.random.default_rng(seed)
    sample = matrix[rng.choice(live, size=min(len(live), lists * _SAMPLE_PER_LIST), replace=False)]
    centroids = sample[rng.choice(len(sample), size=lists, replace=False)].copy()
    for _ in range(_KMEANS_ROUNDS):
        nearest = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, nearest, sample)
        empty = np.flatnonzero(np.bincount(nearest, minlength=lists) == 0)
        sums[empty] = sample[rng.choice(len(sample), size=len(empty), replace=False)]
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = (sums / np.maximum(norms, 1e-12)).astype(np.float32)
    assignment = np.zeros(rows, dtype=np.int32)
    for lo in range(0, rows, _CHUNK):
        hi = min(rows, lo + _CHUNK)
        assignment[lo:hi] = np.argmax(matrix[lo:hi] @ centroids.T, axis=1)
    return ListPlan(generation, rows, centroids, assignment)


class MemoryVectors(UserCache[UserVectors]):
    """The per-user vector indexes of one shard (see ``user_cache``)."""

    def __init__(self, budget_bytes: int, dim: int) -> None:
        super().__init__(budget_bytes, lambda: UserVectors(dim))
        threadpool_limits(limits=1, user_api="blas")  # for the process: see the module docstring

    def apply(self, key: UserKey, points: list[VectorPoint]) -> None:
        self.write(key, lambda index: index.apply(points))

    def remove(self, key: UserKey, ids: list[str]) -> None:
        self.write(key, lambda index: index.remove(ids), grows=False)

    def stats(self) -> dict[str, int]:
        ready, building = self.ready_indexes()
        return {"users": len(ready), "building": building,
                "points": sum(i.live for i in ready), "bytes": sum(i.nbytes() for i in ready)}
