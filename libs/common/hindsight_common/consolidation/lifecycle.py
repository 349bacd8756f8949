"""What the projections do with consolidation's events (and with ``MemoryReinforced``).

Pure functions over the documents a projection already holds, called by
``documents.documents_of`` beside the forget tombstone:

- ``MemoryReinforced`` adds the new evidence to the memory's provenance, combines its
  confidence and counts one reinforcement (``reinforced_count``, ``last_reinforced_at``);
- ``MemoriesMerged`` does the same for the kept memory, once per merged memory, and
  re-types each merged one "merged" (``merged_into`` names the kept one);
- ``MemorySuperseded`` re-types the old memory "superseded" (``superseded_by``) and
  adds it to the new one's ``supersedes``;
- ``MemoryConflicted`` tags each memory "conflicted" (both stay live), so a reviewer
  finds them with ``GET /v1/memories?tag=conflicted``;
- ``MemoryPinned`` / ``MemoryUnpinned`` set or clear ``pinned``, ``MemoryExpirySet`` sets
  ``expires_at``;
- ``MemoryRestored`` gives a forgotten memory back the state it had before the forget
  ("semantic", or "merged" / "superseded" / "quarantined" when it had been);
- ``MemoryPurged`` empties a forgotten memory's content (after it, pins and restores of it
  change nothing).

Every update is keyed by what it adds (evidence not yet in the provenance, a merged id
not yet in ``merged_from``), so a redelivered or repeated event changes nothing: it gives
the documents it names back as they are (not even their offset moves), and the
projections write them again. That is what heals a projection that missed the first
write: project looks documents up in the text index, so after a kill between the text
write and the graph write the redelivery finds the text already updated, and the graph
still needs the documents. Only a live ("semantic") memory is re-typed: a forgotten (or
quarantined) one keeps its state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from hindsight_common.consolidation.rules import combine_confidence, union
from hindsight_common.events import (
    Event,
    MemoriesMerged,
    MemoryConflicted,
    MemoryExpirySet,
    MemoryPinned,
    MemoryPurged,
    MemoryReinforced,
    MemoryRestored,
    MemorySuperseded,
    MemoryUnpinned,
)
from hindsight_common.ports.projection import Document

PINNING_EVENTS = (MemoryPinned, MemoryUnpinned, MemoryRestored, MemoryExpirySet, MemoryPurged)
LIFECYCLE_EVENTS = (MemoryReinforced, MemoriesMerged, MemorySuperseded, MemoryConflicted, *PINNING_EVENTS)
#: The tag a memory in an unresolved conflict carries, for a reviewer to browse by.
CONFLICT_TAG = "conflicted"
#: Recall's and browsing's default types leave these out; ``include`` asks for them.
HIDDEN_STATES = ("superseded", "merged")

Known = Callable[[str], Document | None]


def referenced(e: Event) -> list[str]:
    """The memory ids a lifecycle event updates (to look up in the projection)."""
    if isinstance(e, MemoryReinforced | MemoryPinned | MemoryUnpinned | MemoryRestored | MemoryExpirySet | MemoryPurged):
        return [str(e.memory_id)]
    if isinstance(e, MemoriesMerged):
        return [str(e.kept_id), *(str(i) for i in e.merged_ids)]
    if isinstance(e, MemorySuperseded):
        return [str(e.old_id), str(e.new_id)]
    if isinstance(e, MemoryConflicted):
        return [str(i) for i in e.memory_ids]
    return []


def updated_documents(e: Event, stream: str, offset: int, known: Known) -> list[Document]:
    """The documents ``e`` names, in their new form (at the event's log position); a
    document ``e`` finds already updated (a repeat) comes back as it is, so a projection
    that missed the first write gets it from the redelivery; [] for unknown memories."""
    def at(d: Document) -> Document:  # the document as of this event's log position
        return replace(d, stream=stream, offset=offset)

    out: list[Document] = []
    if isinstance(e, MemoryReinforced):
        doc = home(str(e.memory_id), known)  # evidence for a merged memory goes to the kept one
        evidence = tuple(str(i) for i in e.source_event_ids)
        if doc is not None and not set(evidence) <= set(doc.event_ids):
            out.append(replace(
                at(_reinforced(doc, 1, e.occurred_at)), event_ids=union(doc.event_ids, evidence),
                external_ids=union(doc.external_ids, e.source_external_ids),
                confidence=combine_confidence(doc.confidence or 0.0, e.confidence)))
        elif doc is not None:
            out.append(doc)
    elif isinstance(e, MemoriesMerged):
        kept_id = str(e.kept_id)
        kept = known(kept_id)
        fresh = [i for i in (str(m) for m in e.merged_ids) if kept is None or i not in kept.merged_from]
        if kept is not None and fresh:
            out.append(replace(
                at(_reinforced(kept, len(fresh), e.occurred_at)),
                event_ids=union(kept.event_ids, (str(i) for i in e.source_event_ids)),
                external_ids=union(kept.external_ids, e.source_external_ids),
                confidence=max(kept.confidence or 0.0, e.confidence), merged_from=union(kept.merged_from, fresh)))
        elif kept is not None:
            out.append(kept)
        for i in (str(m) for m in e.merged_ids):
            gone = known(i)
            # Re-typed whenever live, listed in merged_from or not: a redelivered batch
            # that carries the merged memory's extraction too makes it live again first.
            if gone is not None and gone.type == "semantic":
                out.append(replace(at(gone), type="merged", merged_into=kept_id))
            elif gone is not None and gone.merged_into == kept_id:
                out.append(gone)
    elif isinstance(e, MemorySuperseded):
        old_id, new_id = str(e.old_id), str(e.new_id)
        old, new = known(old_id), known(new_id)
        if old is not None and old.type == "semantic":
            out.append(replace(at(old), type="superseded", superseded_by=new_id))
        elif old is not None and old.superseded_by == new_id:
            out.append(old)
        if new is not None and old_id not in new.supersedes:
            out.append(replace(at(new), supersedes=union(new.supersedes, (old_id,))))
        elif new is not None:
            out.append(new)
    elif isinstance(e, MemoryConflicted):
        for doc in (known(str(i)) for i in e.memory_ids):
            if doc is not None:
                out.append(doc if CONFLICT_TAG in doc.tags else replace(at(doc), tags=(*doc.tags, CONFLICT_TAG)))
    elif isinstance(e, PINNING_EVENTS):
        doc = known(str(e.memory_id))
        if doc is not None and doc.role == "memory" and doc.content:
            changed = _pinning(e, doc)
            out.append(doc if changed is None else at(changed))
    return out


def _pinning(
    e: MemoryPinned | MemoryUnpinned | MemoryRestored | MemoryExpirySet | MemoryPurged, doc: Document,
) -> Document | None:
    if isinstance(e, MemoryPurged):  # only a forgotten memory is purged; its content goes
        return replace(doc, content="", context="") if doc.type == "forgotten" else None
    if isinstance(e, MemoryExpirySet):
        return None if doc.expires_at == e.expires_at else replace(doc, expires_at=e.expires_at)
    if isinstance(e, MemoryPinned):
        return None if doc.pinned else replace(doc, pinned=True)
    if isinstance(e, MemoryUnpinned):
        return replace(doc, pinned=False) if doc.pinned else None
    if doc.type != "forgotten":
        return None
    # A quarantine outlives a forget and a restore: only an admin's release lifts it.
    return replace(doc, type="quarantined" if doc.quarantine_reasons else "merged" if doc.merged_into
                   else "superseded" if doc.superseded_by else "semantic")


def home(memory_id: str, known: Known) -> Document | None:
    """The document holding ``memory_id`` now: itself, or the one it was merged into."""
    doc = known(memory_id)
    seen = {memory_id}
    while doc is not None and doc.merged_into is not None and doc.merged_into not in seen:
        seen.add(doc.merged_into)
        doc = known(doc.merged_into)
    return doc


def to_follow(e: Event, known: Known) -> list[str]:
    """Memories ``e`` reaches through a merge that ``known`` does not hold yet."""
    if not isinstance(e, MemoryReinforced):
        return []
    doc, seen = known(str(e.memory_id)), {str(e.memory_id)}
    while doc is not None and doc.merged_into is not None and doc.merged_into not in seen:
        seen.add(doc.merged_into)
        nxt = known(doc.merged_into)
        if nxt is None:
            return [doc.merged_into]
        doc = nxt
    return []


def _reinforced(doc: Document, times: int, at: datetime) -> Document:
    last = at if doc.last_reinforced_at is None else max(doc.last_reinforced_at, at)
    return replace(doc, reinforced_count=doc.reinforced_count + times, last_reinforced_at=last)


def lifecycle_payload(doc: Document) -> dict[str, Any]:
    """The lifecycle fields of a document's payload (see ``documents.to_payload``)."""
    return {
        "reinforced_count": doc.reinforced_count,
        "last_reinforced_at": doc.last_reinforced_at.isoformat() if doc.last_reinforced_at else "",
        "superseded_by": doc.superseded_by or "",
        "supersedes": list(doc.supersedes),
        "merged_into": doc.merged_into or "",
        "merged_from": list(doc.merged_from),
        "pinned": doc.pinned,
        "expires_at": doc.expires_at.isoformat() if doc.expires_at else "",
    }


def lifecycle_fields(p: dict[str, Any]) -> dict[str, Any]:
    """``Document`` keyword arguments from a payload; payloads written before these
    fields existed read as a memory never reinforced, merged or superseded."""
    last = str(p.get("last_reinforced_at") or "")
    return {
        "reinforced_count": int(p.get("reinforced_count") or 0),
        "last_reinforced_at": datetime.fromisoformat(last).astimezone(UTC) if last else None,
        "superseded_by": str(p.get("superseded_by") or "") or None,
        "supersedes": tuple(str(x) for x in p.get("supersedes") or ()),
        "merged_into": str(p.get("merged_into") or "") or None,
        "merged_from": tuple(str(x) for x in p.get("merged_from") or ()),
        "pinned": bool(p.get("pinned") or False),
        "expires_at": datetime.fromisoformat(str(p["expires_at"])).astimezone(UTC) if p.get("expires_at") else None,
    }
