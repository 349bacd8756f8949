"""BM25 over one user's documents in memory: the scores FTS5 gives, without FTS5's
cost per matching row.

FTS5 finds the rows that match a query cheaply, but ``bm25()`` then costs about 1.6 µs
for every one of them; at one user's 100,000 turns a question naming a person matches
most neighbourhoods (about 43,000 rows, 80 ms). Here each term's postings are two
arrays (document slot, term frequency) and a query is a few vectorised passes over
them (NumPy), so its cost is the length of its terms' postings at C speed, not a
Python or SQLite call per row.

The scores are FTS5's ``bm25()`` (k1 = 1.2, b = 0.75, an idf floored at 1e-6, a
document's length counted over all of its columns, the three scope tokens included)
over the user's own documents: the collection statistics (document count, average
length, how many documents hold a term) are the user's, not the whole table's, so one
tenant's writes never move another's ranking. The contract test checks that a table
holding one user's documents gives the same scores both ways.

The SQLite table stays the durable copy; this is a cache of it, per (tenant, user):
built from the table when a user is first searched (FTS5 answers until it is ready),
kept up to date by every write after that, and dropped first for the users searched
longest ago when the cache outgrows its budget. A user first written while the
process runs starts with an empty, ready index.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hindsight_common.adapters.user_cache import UserCache, UserKey

K1 = 1.2
B = 0.75
SCOPE_TOKENS = 3  # "t…", "u…" and "y…" in the scope column (``sqlite_fts.scope_tokens``)
FIELDS = ("content", "context")
_MAX_TF = np.iinfo(np.uint16).max
_CHUNK = 2000  # documents gathered before their postings are written (bounds the lists held)



@dataclass(frozen=True)
class IndexedDoc:
    """A document as the index holds it: its table rowid, type and stemmed tokens."""

    rowid: int
    type: str
    content: Sequence[str]
    context: Sequence[str]


class _Postings:
    """One term's postings in one field: (slot, term frequency), grown by halves."""

    __slots__ = ("slots", "tf", "n")

    def __init__(self, capacity: int = 4) -> None:
        self.slots = np.empty(capacity, np.int32)
        self.tf = np.empty(capacity, np.uint16)
        self.n = 0

    def extend(self, slots: list[int], tf: list[int]) -> None:
        end = self.n + len(slots)
        if end > len(self.slots):
            grown = max(end, len(self.slots) + max(4, len(self.slots) // 2))
            self.slots = np.resize(self.slots, grown)
            self.tf = np.resize(self.tf, grown)
        self.slots[self.n:end] = slots
        self.tf[self.n:end] = np.minimum(tf, _MAX_TF)
        self.n = end

    @classmethod
    def of(cls, slots: npt.NDArray[np.int32], tf: npt.NDArray[np.uint16]) -> _Postings:
        p = cls(0)
        p.slots, p.tf, p.n = slots, tf, len(slots)
        return p


class _Column:
    """A growable array of per-slot values."""

    __slots__ = ("data", "n")

    def __init__(self, dtype: type[np.generic]) -> None:
        self.data: npt.NDArray[np.generic] = np.empty(16, dtype)
        self.n = 0

    def append(self, value: float) -> None:
        if self.n == len(self.data):
            self.data = np.resize(self.data, len(self.data) * 2)
        self.data[self.n] = value
        self.n += 1

    def view(self) -> npt.NDArray[np.generic]:
        return self.data[: self.n]


class UserIndex:
    """One user's documents. Not thread-safe by itself: ``MemoryBm25`` holds its lock
    around every call."""

    def __init__(self) -> None:
        self._slot_of: dict[int, int] = {}  # rowid -> its live slot
        self._rowid = _Column(np.int64)
        self._type = _Column(np.uint8)
        self._length = _Column(np.float64)
        self._alive = _Column(np.bool_)
        self._types: dict[str, int] = {}
        self._fields: dict[str, dict[str, _Postings]] = {f: {} for f in FIELDS}
        self.live = 0
        self._total_length = 0.0
        self._entries = 0  # postings written (live or not), for ``nbytes``

    # -- writing ---------------------------------------------------------------------

    def apply(self, docs: Iterable[IndexedDoc]) -> None:
        """Add ``docs``, each replacing the copy held under its rowid."""
        chunk: list[IndexedDoc] = []
        for doc in docs:
            chunk.append(doc)
            if len(chunk) == _CHUNK:
                self._apply(chunk)
                chunk = []
        if chunk:
            self._apply(chunk)
        self._compact_if_sparse()

    def _apply(self, docs: list[IndexedDoc]) -> None:
        """One chunk: each term's new postings gathered in lists, then written to its
        arrays at once (one NumPy call per term and chunk, not per posting)."""
        gathered: dict[str, dict[str, tuple[list[int], list[int]]]] = {f: {} for f in FIELDS}
        for doc in docs:
            self.remove(doc.rowid)
            slot = self._rowid.n
            code = self._types.setdefault(doc.type, len(self._types))
            length = len(doc.content) + len(doc.context) + SCOPE_TOKENS
            self._rowid.append(doc.rowid)
            self._type.append(code)
            self._length.append(length)
            self._alive.append(True)
            self._slot_of[doc.rowid] = slot
            self.live += 1
            self._total_length += length
            for field, tokens in (("content", doc.content), ("context", doc.context)):
                terms = gathered[field]
                counts = Counter(tokens)
                for term, tf in counts.items():
                    lists = terms.get(term)
                    if lists is None:
                        lists = terms[term] = ([], [])
                    lists[0].append(slot)
                    lists[1].append(tf)
                self._entries += len(counts)
        for field, terms in gathered.items():
            postings = self._fields[field]
            for term, (slots, freqs) in terms.items():
                p = postings.get(term)
                if p is None:
                    p = postings[term] = _Postings(len(slots))
                p.extend(slots, freqs)

    def remove(self, rowid: int) -> None:
        slot = self._slot_of.pop(rowid, None)
        if slot is None:
            return
        self._alive.data[slot] = False
        self.live -= 1
        self._total_length -= float(self._length.data[slot])

    def _compact_if_sparse(self) -> None:
        """Renumber the live slots once the dead ones outnumber them (a rewritten
        neighbourhood leaves its old copy behind): amortised, a write is still O(1)."""
        dead = self._rowid.n - self.live
        if dead < 1024 or dead < self.live:
            return
        alive = self._alive.view()
        renumber = np.cumsum(alive, dtype=np.int64) - 1
        for column in (self._rowid, self._type, self._length):
            kept = column.view()[alive]
            column.data = np.resize(kept, max(16, len(kept)))
            column.n = len(kept)
        self._alive.data = np.ones(max(16, self.live), np.bool_)
        self._alive.n = self.live
        self._slot_of = {int(r): i for i, r in enumerate(self._rowid.view())}
        for field in FIELDS:
            kept_terms: dict[str, _Postings] = {}
            for term, p in self._fields[field].items():
                slots = p.slots[: p.n]
                keep = alive[slots]
                if keep.any():
                    kept_terms[term] = _Postings.of(renumber[slots[keep]].astype(np.int32), p.tf[: p.n][keep])
            self._fields[field] = kept_terms
        self._entries = sum(p.n for terms in self._fields.values() for p in terms.values())

    # -- reading ---------------------------------------------------------------------

    def search(self, field: str, terms: Sequence[str], types: Sequence[str], k: int) -> list[tuple[int, float]]:
        """The ``k`` best (rowid, score) of the documents (of ``types``; all when empty)
        holding any of ``terms`` in ``field``, best first, ties by rowid. Each entry of
        ``terms`` counts once, repeats included (as FTS5 counts the phrases of a query)."""
        if self.live == 0 or k <= 0:
            return []
        n = self._rowid.n
        alive = self._alive.view()
        length = self._length.view()
        avgdl = self._total_length / self.live
        scores = np.zeros(n, np.float64)
        matched = np.zeros(n, np.bool_)
        postings = self._fields[field]
        for term in terms:
            p = postings.get(term)
            if p is None:
                continue
            slots = p.slots[: p.n]
            live = alive[slots]
            slots = slots[live]
            hits = len(slots)
            if not hits:
                continue
            idf = math.log((self.live - hits + 0.5) / (hits + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            tf = p.tf[: p.n][live].astype(np.float64)
            # In FTS5's order of operations, so the scores agree to the last bit.
            scores[slots] += idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * length[slots] / avgdl)))
            matched[slots] = True
        found = np.flatnonzero(matched)
        if types and len(found):
            # On the matched slots only: a mask over every slot cost more than the rest.
            wanted = np.zeros(max(len(self._types), 1), np.bool_)
            for t in types:
                if t in self._types:
                    wanted[self._types[t]] = True
            found = found[wanted[self._type.view()[found]]]
        if not len(found):
            return []
        if len(found) > k:
            # The k-th best score, then every candidate at least as good (ties kept
            # so the rowid decides among them, as in FTS5's ORDER BY on the scan).
            kth = np.partition(scores[found], len(found) - k)[len(found) - k]
            found = found[scores[found] >= kth]
        rowids = self._rowid.view()[found]
        order = np.lexsort((rowids, -scores[found]))[:k]
        return [(int(rowids[i]), float(scores[found][i])) for i in order]

    def nbytes(self) -> int:
        """About how much memory the index holds (O(1)): 6 bytes a posting and a third
        more of growth room, the per-slot columns as allocated, the rowid map, each
        term's arrays, and the index itself (so many empty ones, e.g. users searched who
        have nothing, still count against the budget)."""
        terms = sum(len(t) for t in self._fields.values())
        columns = sum(c.data.nbytes for c in (self._rowid, self._type, self._length, self._alive))
        return int(2048 + self._entries * 8 + columns + len(self._slot_of) * 100 + terms * 250)


class MemoryBm25(UserCache[UserIndex]):
    """The per-user BM25 indexes of one text index (see ``user_cache``)."""

    def __init__(self, budget_bytes: int) -> None:
        super().__init__(budget_bytes, UserIndex)

    def apply(self, key: UserKey, docs: list[IndexedDoc]) -> None:
        """Writes to a user: applied when its index is ready, kept when it is building,
        ignored when it has none (it is read from the table when first searched)."""
        self.write(key, lambda index: index.apply(docs))

    def remove(self, key: UserKey, rowids: list[int]) -> None:
        def change(index: UserIndex) -> None:
            for rowid in rowids:
                index.remove(rowid)

        self.write(key, change, grows=False)

    def search(self, key: UserKey, field: str, terms: Sequence[str], types: Sequence[str],
               k: int) -> list[tuple[int, float]] | None:
        """The user's best (rowid, score); None when the user's index is not ready."""
        return self.read(key, lambda index: index.search(field, terms, types, k))

    def stats(self) -> dict[str, int]:
        ready, building = self.ready_indexes()
        return {"users": len(ready), "building": building,
                "documents": sum(i.live for i in ready), "bytes": sum(i.nbytes() for i in ready)}
