"""Projection documents: derived from events, flattened for indexes.

Pure functions, so every projection (Qdrant Edge, Qdrant, SQLite FTS,
Elasticsearch, graph) derives the same document from the same event.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hindsight_common.events import (
    InteractionRecorded,
    MemoryExtracted,
    MemoryForgotten,
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
    return None


def _tombstone(e: MemoryForgotten, stream: str, offset: int) -> Document:
    # Overwrites the memory's document (same id) with no content and the type
    # "forgotten", which recall's default types exclude: idempotent, and no
    # projection needs a delete operation.
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
        kind=e.kind,
        key=e.key,
        confidence=e.confidence,
        tags=e.tags,
    )


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
    )


def _from_interaction(e: InteractionRecorded, stream: str, offset: int) -> Document:
    content = e.content
    if e.tool_calls:
        # Tool calls are part of what happened; make them findable by name.
        calls = "; ".join(
            f"{c.name}({'ok' if c.ok else 'failed' if c.ok is False else ''})" for c in e.tool_calls
        )
        content = f"{content}\n[tools: {calls}]"
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
    )


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
    }


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
    )
