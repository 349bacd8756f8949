"""Reading only the documents recall returns, when its paths found ids (``find_many``).

A preset that needs nothing of a candidate but its rank before the cut (no
cross-encoder, no rerank factor, no turn counting, no memory filter) fuses the paths'
ids and reads just the best ``k`` documents afterwards, instead of every hit of every
path: at 100,000 turns of one user, ``fast`` read and decoded about 120 documents a
query to return 10.

Each document is read from every store whose paths found it, so every copy recall
could have shown is verified, as when the paths read them: a copy tampered with in any
store drops the document. A document that a store found but no longer holds (removed
since the search) is left out, and the next one read in its place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence

from hindsight_common.errors import ProjectionError
from hindsight_common.ports.projection import Document

# Reads a tenant's documents by id from one store (missing ones left out).
Reader = Callable[[Sequence[str]], Awaitable[list[Document]]]
# Where each copy of a candidate comes from, in the order of the paths that found it:
# a document already at hand, or the name of the store to read it from.
Source = Document | str


async def read_best(
    ranked: Sequence[tuple[str, float]],
    sources: Mapping[str, Sequence[Source]],
    readers: Mapping[str, Reader],
    keep: Callable[[list[Document]], bool],
    k: int,
) -> tuple[list[tuple[Document, float]], set[str]]:
    """The first ``k`` of ``ranked`` (id, fused score; best first) whose copies are all
    read and ``keep`` accepts them, each with its first copy, and the stores whose
    reads failed (their copies are then left out; a candidate with no other copy is
    skipped). Reads in rounds: the ``k`` still wanted, then as many again for each one
    dropped."""
    out: list[tuple[Document, float]] = []
    failed: set[str] = set()
    start = 0
    while len(out) < k and start < len(ranked):
        batch = ranked[start: start + k - len(out)]
        start += len(batch)
        read = await _read(batch, sources, readers, failed)
        for doc_id, score in batch:
            copies: list[Document] = []
            for source in sources.get(doc_id, ()):
                if isinstance(source, Document):
                    copies.append(source)
                elif source not in failed:
                    if (doc := read[source].get(doc_id)) is None:
                        copies = []  # gone from a store since the search: never shown
                        break
                    copies.append(doc)
            if copies and keep(copies):
                out.append((copies[0], score))
    return out, failed


async def _read(batch: Sequence[tuple[str, float]], sources: Mapping[str, Sequence[Source]],
                readers: Mapping[str, Reader], failed: set[str]) -> dict[str, dict[str, Document]]:
    """The documents of ``batch`` from each store that found them, read side by side;
    a store whose read fails joins ``failed``."""
    wanted: dict[str, list[str]] = {}
    for doc_id, _ in batch:
        for source in sources.get(doc_id, ()):
            if isinstance(source, str) and source not in failed:
                wanted.setdefault(source, []).append(doc_id)
    stores = list(wanted)
    results = await asyncio.gather(*(readers[s](wanted[s]) for s in stores), return_exceptions=True)
    read: dict[str, dict[str, Document]] = {}
    for store, result in zip(stores, results, strict=True):
        if isinstance(result, ProjectionError):
            failed.add(store)
        elif isinstance(result, BaseException):
            raise result
        else:
            read[store] = {d.id: d for d in result}
    return read
