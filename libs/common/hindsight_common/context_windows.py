"""Neighbourhoods of conversation turns, for the text index's ``context`` field (pure).

A question often names what a turn is about only in the turns around it ("Yes! We
went last Friday" answers "Did you go to the lake?"). So each episodic turn is also
indexed with its neighbourhood: the text of the ``WINDOW`` turns before it and after
it in its session, itself included. A session's turns are ordered by their log offset
(one user's events share a partition, so the offsets of a session compare), never by
the order batches arrive in: a turn applied late (a redelivered batch, a rebuild's drain
after the live worker already wrote later turns into the new version) takes its real
place, and the neighbours it joins are written again.

Deterministic in log order: a rebuild from the log, however it is split into batches
and in whatever order they are applied one after the other, gives every turn the same
neighbourhood; a redelivered batch changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from hindsight_common.ports.projection import Document

WINDOW = 2
SessionKey = tuple[str, str, str]
#: The episodic turns a text index holds for a session around log offsets ``first`` ..
#: ``last``: the ``n`` before ``first``, every one in between, the ``n`` after ``last``
#: (``TextIndex.session_turns``).
Neighbours = Callable[[SessionKey, int, int, int], Awaitable[list[Document]]]


def neighbourhood(turns: Sequence[Document], at: int, window: int = WINDOW) -> str:
    """The texts of ``turns[at - window : at + window + 1]`` (a session's turns in order)."""
    return "\n".join(t.search_text for t in turns[max(0, at - window) : at + window + 1])


async def no_neighbours(key: SessionKey, first: int, last: int, n: int) -> list[Document]:
    """For a batch that is the whole log (``hindsight verify``): nothing is stored."""
    return []


async def with_context(documents: Sequence[Document], neighbours: Neighbours, window: int = WINDOW) -> list[Document]:
    """``documents`` (one batch) each once, in its last state, with each episodic turn's
    ``context`` set, followed by the stored turns of their sessions whose neighbourhood
    they change (to be written again). Other documents pass through unchanged. One
    ``neighbours`` call per session of the batch; raises what it raises."""
    out: dict[str, Document] = {}
    sessions: dict[SessionKey, dict[str, Document]] = {}
    for doc in documents:
        out[doc.id] = doc
        key = (doc.tenant, doc.user, doc.session)
        if doc.type == "episodic":
            sessions.setdefault(key, {})[doc.id] = doc
        elif key in sessions:
            sessions[key].pop(doc.id, None)  # quarantined (or re-typed) in this batch: no neighbour
    for key, batch in sessions.items():
        if not batch:
            continue
        turns = sorted(batch.values(), key=_offset)
        # A turn's neighbourhood reaches ``window`` further than the turns it touches.
        stored = await neighbours(key, turns[0].offset, turns[-1].offset, 2 * window)
        merged = sorted([*(d for d in stored if d.id not in out), *turns], key=_offset)
        touched: set[int] = set()
        for i, d in enumerate(merged):
            if d.id in batch:
                touched.update(range(max(0, i - window), min(len(merged), i + window + 1)))
        for i in sorted(touched):
            d = merged[i]
            context = neighbourhood(merged, i, window)
            if d.id in batch or context != d.context:
                out.pop(d.id, None)  # re-inserted last: its final neighbourhood
                out[d.id] = d.but(context=context)
    return list(out.values())


def _offset(doc: Document) -> int:
    return doc.offset
