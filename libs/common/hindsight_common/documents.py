"""Projection documents: derived from events, flattened for indexes.

Pure functions, so every projection (Qdrant Edge, Qdrant, SQLite FTS,
Elasticsearch, graph) derives the same document from the same event.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hindsight_common.events import Event, InteractionRecorded
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Document


def document_from_record(record: LogRecord) -> Document | None:
    """The document an event projects to, or None if it projects to nothing."""
    event = record.event
    if isinstance(event, InteractionRecorded):
        return _from_interaction(event, record.stream, record.offset)
    return None


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
    )
