"""What project does with a batch of events: index their documents for keyword search
and, when a graph store is given, write them into the entity graph."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from hindsight_common.context_windows import SessionKey, with_context
from hindsight_common.documents import documents_of, last_states
from hindsight_common.events import MemoryExtracted
from hindsight_common.text.entities import document_entities
from hindsight_common.ports.effects import EffectAudit
from hindsight_common.ports.graph import GraphItem, GraphStore
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.ports.projection import Document, TextIndex
from hindsight_common.telemetry import span


def graph_item(record: LogRecord, document: Document) -> GraphItem:
    """The graph form of ``record``'s document: the entities its text names (plus a
    memory's own), and for a memory the events it came from and the memories it
    replaces (``related_memory_ids``: earlier values of the same key)."""
    event = record.event
    if isinstance(event, MemoryExtracted):
        return GraphItem(
            document,
            entities=document_entities(document.content, event.entities),
            derived_from=tuple(str(i) for i in event.source_event_ids),
            supersedes=tuple(dict.fromkeys([*document.supersedes, *(str(i) for i in event.related_memory_ids)])),
        )
    # A memory updated by consolidation keeps its SUPERSEDES edges (those it replaced).
    return GraphItem(document, entities=document_entities(document.content), supersedes=document.supersedes)


class Project:
    def __init__(self, text: TextIndex, graph: GraphStore | None = None, audit: EffectAudit | None = None) -> None:
        self._text = text
        self._graph = graph
        self._audit = audit  # notes each applied record once each projection's write succeeded

    async def _neighbours(self, key: SessionKey, first: int, last: int, n: int) -> list[Document]:
        tenant, user, session = key
        return await self._text.session_turns(tenant, user, session, first, last, n)

    async def purge(self, tenant: str, user: str) -> None:
        """An erased user's text documents and graph nodes (``hindsight_common/erasure.py``)."""
        await self._text.purge_user(tenant, user)
        if self._graph is not None:
            await self._graph.purge_user(tenant, user)

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        """Idempotent: documents are keyed by id. The text index and the graph are
        written at the same time, each recording the batch position in its own
        transaction; when either fails the other is cancelled and the batch is retried as
        a whole (both writes are idempotent). A forgotten memory keeps its content
        (re-typed "forgotten", see ``documents_of``), looked up in the text index; so
        does a quarantined item (re-typed "quarantined")."""
        pairs = await documents_of(records, self._text.get)
        # Each document once, in its last state: a turn quarantined in this batch never
        # enters its neighbours' context (the graph still gets every record's links).
        docs = await with_context(last_states(pairs), self._neighbours)
        try:
            async with asyncio.TaskGroup() as writes:
                writes.create_task(self._write_text(records, docs, position))
                if self._graph is not None:
                    writes.create_task(self._write_graph(self._graph, records, pairs, position))
        except BaseExceptionGroup as failed:  # the consumer judges the error itself
            raise failed.exceptions[0] from None

    async def _write_text(self, records: Sequence[LogRecord], docs: Sequence[Document], position: Position) -> None:
        with span("projection write text", {"hindsight.projection": "text", "hindsight.documents": len(docs)}):
            await self._text.upsert(docs, position)
        if self._audit is not None:
            await self._audit.record("text", records)

    async def _write_graph(self, graph: GraphStore, records: Sequence[LogRecord],
                           pairs: Sequence[tuple[LogRecord, Document]], position: Position) -> None:
        with span("projection write graph", {"hindsight.projection": "graph", "hindsight.documents": len(pairs)}):
            await graph.upsert([graph_item(r, d) for r, d in pairs], position)
        if self._audit is not None:
            await self._audit.record("graph", records)
