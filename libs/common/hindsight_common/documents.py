"""Projection documents: derived from events, flattened for indexes.

Pure functions, so every projection (Qdrant Edge, Qdrant, SQLite FTS,
Elasticsearch, graph) derives the same document from the same event; only
:func:`documents_of` reads, through the projection's own lookup, the memory a
forget event re-types.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from hindsight_common.consolidation.lifecycle import (
    LIFECYCLE_EVENTS,
    lifecycle_fields,
    lifecycle_payload,
    referenced,
    to_follow,
    updated_documents,
)
from hindsight_common.events import (
    InteractionRecorded,
    MemoryExtracted,
    MemoryForgotten,
    MemoryQuarantined,
    MemoryReleased,
    SessionSummarized,
)
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Document


def document_from_record(record: LogRecord) -> Document | None:
    """The document an event projects to, or None if it projects to nothing."""
    event = record.event
    if isinstance(event, InteractionRecorded):
        return _from_interaction(event, record.stream, record.offset)
    if isinstance(event, MemoryExtracted):
        return _from_memory(event, record.stream, record.offset)
    if isinstance(event, SessionSummarized):
        return _from_summary(event, record.stream, record.offset)
    if isinstance(event, MemoryForgotten):
        return _tombstone(event, record.stream, record.offset)
    if isinstance(event, MemoryQuarantined | MemoryReleased):
        return _held(event, record.stream, record.offset)
    return None


#: A projection's own ``get(tenant, ids)``: the documents it holds with these ids.
Lookup = Callable[[str, Sequence[str]], Awaitable[list[Document]]]


async def documents_of(records: Sequence[LogRecord], lookup: Lookup) -> list[tuple[LogRecord, Document]]:
    """Each record with the document(s) it projects to, in order (records that project to
    nothing left out), for a projection that holds documents ``lookup`` can find.

    A ``MemoryQuarantined`` or ``MemoryReleased`` re-types its target the same way (see
    :func:`screened`). A ``MemoryForgotten`` becomes the forgotten memory's own document re-typed
    "forgotten", content kept (so an admin can still see what was forgotten; recall's
    and browsing's default types exclude it), at the forget event's log position.
    Consolidation's events (``MemoryReinforced``, ``MemoriesMerged``,
    ``MemorySuperseded``) update the memories they name the same way: see
    ``consolidation/lifecycle.py``; one event can update several documents. A memory's
    document comes from an earlier record of the batch (a replay can carry the
    ``MemoryExtracted`` and what follows it together), else from ``lookup``; an unknown
    memory gets an empty tombstone when forgotten and nothing otherwise. A memory
    extracted again (the same id) keeps the document it has. However the log is split
    into batches, the same events give the same documents, and a redelivered event
    changes nothing: it gives back the documents it names as they are (for a projection
    that missed them). Raises what ``lookup`` raises.
    """
    wanted: dict[str, list[str]] = {}
    for r in records:
        e = r.event
        if isinstance(e, MemoryForgotten | MemoryExtracted):
            ids = [str(e.memory_id)]
        elif isinstance(e, MemoryQuarantined | MemoryReleased):
            ids = [str(e.target_id)]
        else:
            ids = referenced(e) if e else []
        if e is not None and ids:
            wanted.setdefault(e.tenant, []).extend(ids)
    known: dict[tuple[str, str], Document] = {}
    while wanted:  # a reinforcement of a merged memory also needs the one it was merged into
        for tenant, ids in wanted.items():
            known.update(((d.tenant, d.id), d) for d in await lookup(tenant, list(dict.fromkeys(ids))))
        asked, wanted = wanted, {}
        for e in (r.event for r in records if r.event is not None):
            for i in to_follow(e, partial(_known, known, e.tenant)):
                if i not in asked.get(e.tenant, ()):
                    wanted.setdefault(e.tenant, []).append(i)
    out: list[tuple[LogRecord, Document]] = []
    for r in records:
        e = r.event
        if isinstance(e, LIFECYCLE_EVENTS):
            docs = updated_documents(e, r.stream, r.offset, partial(_known, known, e.tenant))
        else:
            d = document_from_record(r)
            if d is None:
                continue
            if isinstance(e, MemoryExtracted) and (d.tenant, d.id) in known:
                # The same memory extracted again (ids derive from key, value and sources:
                # reflect re-running a batch after a kill, consolidate deciding a cluster
                # again) is a repeat: the memory keeps the state it has (merged, forgotten…).
                d = known[(d.tenant, d.id)]
            elif isinstance(e, MemoryForgotten):
                memory = known.get((d.tenant, d.id))
                if memory is not None and memory.type == "forgotten":
                    d = memory  # forgotten already: as it is
                elif memory is not None:  # content and all (a purged one has none left)
                    d = replace(memory, type="forgotten", stream=d.stream, offset=d.offset)
            elif isinstance(e, MemoryQuarantined | MemoryReleased):
                target = known.get((d.tenant, d.id))
                held = screened(e, target, d)
                if held is not None:
                    d = held
                elif target is not None:
                    d = target  # nothing changes: as it is
                else:
                    continue
            docs = [d]
        for d in docs:
            known[(d.tenant, d.id)] = d  # later records of the batch see this one
            out.append((r, d))
    return out


def _known(known: dict[tuple[str, str], Document], tenant: str, memory_id: str) -> Document | None:
    return known.get((tenant, memory_id))


def screened(
    event: MemoryQuarantined | MemoryReleased, target: Document | None, placeholder: Document
) -> Document | None:
    """The document of ``target`` after a quarantine or a release, at the event's log
    position; None when nothing changes (a release of what is not quarantined).

    A quarantine re-types the target "quarantined" (content kept, reasons and score
    added), so every projection's type filter hides it as it hides forgotten memories; an
    unknown target gets the empty placeholder. A release gives back the type the target
    had (a memory's "semantic", a turn's "episodic", a summary's "summary"). A forgotten
    target stays forgotten either way."""
    if target is not None and target.type == "forgotten":
        return None
    if isinstance(event, MemoryQuarantined):
        if target is None or not target.content:
            return placeholder
        if (target.type, target.quarantine_reasons, target.quarantine_score) == (
                "quarantined", event.reasons, event.score):
            return None  # quarantined so already
        return replace(target, type="quarantined", quarantine_reasons=event.reasons,
                       quarantine_score=event.score, stream=placeholder.stream, offset=placeholder.offset)
    if target is None or target.type != "quarantined" or not target.content:
        return None
    return replace(target, type=served_type(target), quarantine_reasons=(), quarantine_score=None,
                   stream=placeholder.stream, offset=placeholder.offset)


def served_type(doc: Document) -> str:
    """The type a document is served with, from what it is (its role): what a release
    restores."""
    return {"memory": "semantic", "summary": "summary"}.get(doc.role, "episodic")


def last_states(pairs: Sequence[tuple[LogRecord, Document]]) -> list[Document]:
    """Each document of ``pairs`` once, in its last state, in the order of those last
    states: a turn quarantined in the same batch reaches an index (and its neighbours'
    context) only as quarantined."""
    last: dict[tuple[str, str], Document] = {}
    for _, d in pairs:
        last.pop((d.tenant, d.id), None)
        last[(d.tenant, d.id)] = d
    return list(last.values())


def _tombstone(e: MemoryForgotten, stream: str, offset: int) -> Document:
    # Overwrites the memory's document (same id) with the type "forgotten", which
    # recall's default types exclude: idempotent, and no projection needs a delete
    # operation. Empty here; documents_of fills in the memory when it is known.
    return Document(
        id=str(e.memory_id),
        tenant=e.tenant,
        user=e.user,
        session="",
        type="forgotten",
        speaker="",
        role="memory",
        content="",
        occurred_at=e.occurred_at,
        stream=stream,
        offset=offset,
    )


def _held(e: MemoryQuarantined | MemoryReleased, stream: str, offset: int) -> Document:
    # A placeholder keyed by the target; documents_of puts the target's own document in.
    return Document(
        id=str(e.target_id), tenant=e.tenant, user=e.user, session=getattr(e, "session", None) or "",
        type="quarantined", speaker="", role="memory" if e.target == "memory" else "", content="",
        occurred_at=e.occurred_at, stream=stream, offset=offset,
        quarantine_reasons=e.reasons if isinstance(e, MemoryQuarantined) else (),
        quarantine_score=e.score if isinstance(e, MemoryQuarantined) else None,
    )


def _from_memory(e: MemoryExtracted, stream: str, offset: int) -> Document:
    return Document(
        id=str(e.memory_id),
        tenant=e.tenant,
        user=e.user,
        session=e.session,
        type="semantic",
        speaker=e.subject,
        role="memory",
        content=e.content,
        occurred_at=e.valid_from or e.occurred_at,
        agent=e.agent,
        event_ids=tuple(str(i) for i in e.source_event_ids),
        external_ids=e.source_external_ids,
        stream=stream,
        offset=offset,
        signature=e.signature,
        signed_provenance=tuple(str(i) for i in e.source_event_ids),
        kind=e.kind,
        key=e.key,
        confidence=e.confidence,
        tags=e.tags,
    )


def memory_text(e: MemoryExtracted) -> str:
    """The text a memory's document is embedded by (its ``search_text``): consolidate
    looks its vector up in the embedding cache under this text, where embed put it.
    ``Document.search_text`` of ``_from_memory(e)``, without building the document (a
    unit test holds the two equal)."""
    return f"{e.subject}: {e.content}"


def _from_summary(e: SessionSummarized, stream: str, offset: int) -> Document:
    return Document(
        id=str(e.event_id),
        tenant=e.tenant,
        user=e.user,
        session=e.session,
        type="summary",
        speaker="summary",
        role="summary",
        content=e.summary,
        occurred_at=e.through_occurred_at,
        stream=stream,
        offset=offset,
        signature=e.signature,
    )


def interaction_text(e: InteractionRecorded) -> str:
    """The text a turn's document holds: its content and, after it, its tool calls."""
    if not e.tool_calls:
        return e.content
    # Tool calls are part of what happened; make them findable by name.
    calls = "; ".join(
        f"{c.name}({'ok' if c.ok else 'failed' if c.ok is False else ''})" for c in e.tool_calls
    )
    return f"{e.content}\n[tools: {calls}]"


def _from_interaction(e: InteractionRecorded, stream: str, offset: int) -> Document:
    content = interaction_text(e)
    return Document(
        id=str(e.event_id),
        tenant=e.tenant,
        user=e.user,
        session=e.session,
        type="episodic",
        speaker=e.speaker,
        role=e.role,
        content=content,
        occurred_at=e.occurred_at,
        agent=e.agent,
        external_id=e.external_id,
        event_ids=(str(e.event_id),),
        external_ids=(e.external_id,) if e.external_id else (),
        stream=stream,
        offset=offset,
        signature=e.signature,
    )


def in_order(tenant: str, ids: Sequence[str], found: Sequence[Document]) -> list[Document]:
    """The documents of ``found`` that belong to ``tenant``, in the order of ``ids`` (for
    an index's ``get``, whose store returns them unordered and cannot filter by tenant)."""
    by_id = {d.id: d for d in found if d.tenant == tenant}
    return [by_id[i] for i in dict.fromkeys(ids) if i in by_id]


def dense_vector(value: object) -> list[float] | None:
    """A store's vector as a flat list of floats; None for anything else (a named,
    sparse or multi-vector value: not what Hindsight writes)."""
    if isinstance(value, list) and all(isinstance(x, int | float) for x in value):
        return [float(x) for x in value]
    return None


def uuid_ids(ids: Sequence[str]) -> list[str]:
    """The ids among ``ids`` that are UUIDs, canonical and without repeats (every
    document id is one: an event's or a memory's; stores keyed by UUID reject others)."""
    out: list[str] = []
    for i in dict.fromkeys(ids):
        try:
            out.append(str(UUID(i)))
        except ValueError:
            continue
    return out


def to_payload(doc: Document) -> dict[str, Any]:
    """Flat JSON-able form, with ``ts`` (epoch seconds) for range filters."""
    return {
        "id": doc.id,
        "tenant": doc.tenant,
        "user": doc.user,
        "session": doc.session,
        "type": doc.type,
        "speaker": doc.speaker,
        "role": doc.role,
        "content": doc.content,
        "occurred_at": doc.occurred_at.isoformat(),
        "ts": doc.occurred_at.timestamp(),
        "agent": doc.agent or "",
        "external_id": doc.external_id or "",
        "event_ids": list(doc.event_ids),
        "external_ids": list(doc.external_ids),
        "stream": doc.stream,
        "offset": doc.offset,
        "kind": doc.kind or "",
        "key": doc.key or "",
        "confidence": doc.confidence,
        "tags": list(doc.tags),
        "context": doc.context,
        "signature": doc.signature or "",  # "kid:hex": the key id, then the HMAC
        "signed_provenance": None if doc.signed_provenance is None else list(doc.signed_provenance),
        "quarantine_reasons": list(doc.quarantine_reasons),
        "quarantine_score": doc.quarantine_score,
        **lifecycle_payload(doc),
    }


def vector_payload(doc: Document, model: str) -> dict[str, Any]:
    """A vector point's payload: the document and the model that embedded it."""
    return {**to_payload(doc), "embedding_model": model}


def from_payload(p: dict[str, Any]) -> Document:
    return Document(
        id=str(p["id"]),
        tenant=str(p["tenant"]),
        user=str(p["user"]),
        session=str(p["session"]),
        type=str(p["type"]),
        speaker=str(p["speaker"]),
        role=str(p["role"]),
        content=str(p["content"]),
        occurred_at=datetime.fromisoformat(str(p["occurred_at"])).astimezone(UTC),
        agent=str(p["agent"]) or None,
        external_id=str(p["external_id"]) or None,
        event_ids=tuple(str(x) for x in p.get("event_ids", ())),
        external_ids=tuple(str(x) for x in p.get("external_ids", ())),
        stream=str(p.get("stream", "")),
        offset=int(p.get("offset", 0)),
        kind=str(p.get("kind") or "") or None,
        key=str(p.get("key") or "") or None,
        confidence=None if p.get("confidence") is None else float(p["confidence"]),
        tags=tuple(str(t) for t in p.get("tags", ())),
        context=str(p.get("context") or ""),
        signature=str(p.get("signature") or "") or None,
        signed_provenance=None if p.get("signed_provenance") is None
        else tuple(str(x) for x in p["signed_provenance"]),
        quarantine_reasons=tuple(str(r) for r in p.get("quarantine_reasons") or ()),
        quarantine_score=None if p.get("quarantine_score") is None else float(p["quarantine_score"]),
        **lifecycle_fields(p),
    )
