"""Neighbourhoods of conversation turns, for the text index's ``context`` field (pure).

A question often names what a turn is about only in the turns around it ("Yes! We
went last Friday" answers "Did you go to the lake?"). So each episodic turn is also
indexed with its neighbourhood: the text of the ``WINDOW`` turns before it and after
it in its session, itself included. A turn's neighbourhood grows as later turns of
its session arrive, so the ``WINDOW`` turns before a new one are written again.

Deterministic in log order: a rebuild from the log, however it is split into
batches, gives every turn the same neighbourhood; a redelivered batch changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from hindsight_common.ports.projection import Document

WINDOW = 2
SessionKey = tuple[str, str, str]
#: The newest ``n`` episodic turns the index holds for a session, newest first.
Tail = Callable[[SessionKey, int], Awaitable[list[Document]]]


def neighbourhood(turns: Sequence[Document], at: int, window: int = WINDOW) -> str:
    """The texts of ``turns[at - window : at + window + 1]`` (a session's turns in order)."""
    return "\n".join(t.search_text for t in turns[max(0, at - window) : at + window + 1])


async def with_context(documents: Sequence[Document], tail: Tail, window: int = WINDOW) -> list[Document]:
    """``documents`` (one batch, in log order) with each episodic turn's ``context`` set,
    followed by the earlier turns of their sessions whose neighbourhood they extend
    (to be written again). Other documents pass through unchanged. Raises what
    ``tail`` raises."""
    batch_ids = {d.id for d in documents}
    sessions: dict[SessionKey, list[Document]] = {}
    out: dict[str, Document] = {}
    for doc in documents:
        if doc.type != "episodic":
            out[doc.id] = doc
            continue
        key = (doc.tenant, doc.user, doc.session)
        if key not in sessions:
            # A redelivered batch: its own turns may already be in the index; they are
            # placed by this batch, not twice.
            fetched = await tail(key, 2 * window + len(batch_ids))
            earlier = [d for d in fetched if d.id not in batch_ids]
            sessions[key] = list(reversed(earlier[: 2 * window]))
        turns = sessions[key]
        turns.append(doc)
        at = len(turns) - 1
        for i in range(max(0, at - window), at + 1):
            updated = replace(turns[i], context=neighbourhood(turns, i, window))
            turns[i] = updated
            out.pop(updated.id, None)  # re-inserted last: its final neighbourhood
            out[updated.id] = updated
    return list(out.values())
