"""What query does with a recall request: scope it, run recall, shape the answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hindsight_common.api import (
    ContextTurn,
    MemoryDetailOut,
    MemoryHistoryOut,
    MemoryListOut,
    MemoryOut,
    SourceTurn,
    Provenance,
    QuarantineOut,
    RecallIn,
    RecallItemOut,
    RecallOut,
    SessionContextOut,
)
from hindsight_common.errors import InvalidInput, NotFound, Problem
from hindsight_common.ports.projection import Browse, Document, Scope, TextIndex
from hindsight_common.recall.access import AccessRecorder
from hindsight_common.recall.engine import RecallEngine, RecallItem, RecallRequest
from hindsight_common.recall.presets import DEFAULT_PRESET
from hindsight_common.security.signed_items import Integrity
from hindsight_common.recall.rerank import importance_of
from hindsight_common.settings import Settings
from hindsight_common.text.tokens import count_tokens, truncate_to_tokens

DEFAULT_TYPES = ("episodic", "semantic")
MAX_CONTEXT_TURNS = 500
MAX_HISTORY = 200


def scope_types(types: Sequence[str], include: Sequence[str]) -> tuple[str, ...]:
    """The document types a request may see: its types plus the states it asked to
    include (each state is the type of the documents in it: "forgotten", ...). Whether
    the caller may include them is the interface's check (admin only)."""
    return tuple(dict.fromkeys([*types, *include]))


def to_request(body: RecallIn, settings: Settings) -> RecallRequest:
    if body.k > settings.recall_max_k:
        raise InvalidInput(
            "k too large", [Problem("k", f"at most {settings.recall_max_k}, got {body.k}")]
        )
    if not body.query.strip():
        raise InvalidInput("empty query", [Problem("query", "must not be blank")])
    scope = Scope(
        tenant=body.tenant or settings.default_tenant,
        user=body.user,
        session=body.session,
        agent=body.agent,
        types=scope_types(body.types or DEFAULT_TYPES, body.include),
        since=body.since,
        until=body.until,
    )
    return RecallRequest(
        scope=scope,
        query=body.query,
        k=body.k,
        preset=body.preset or DEFAULT_PRESET,
        reference_time=body.reference_time,
        kinds=tuple(body.kinds),
        keys=tuple(body.keys),
        tags=tuple(body.tags),
        budget_tokens=body.budget_tokens,
    )


def to_item(item: RecallItem, explain: bool = False) -> RecallItemOut:
    d = item.document
    return RecallItemOut(
        id=d.id,
        type=d.type,
        kind=d.kind,
        key=d.key,
        confidence=d.confidence,
        tags=list(d.tags),
        content=d.content,
        speaker=d.speaker,
        role=d.role,
        session=d.session,
        user=d.user,
        occurred_at=d.occurred_at,
        score=item.score,
        scores={path: ps.score for path, ps in item.paths.items()},
        ranks={path: ps.rank for path, ps in item.paths.items()},
        provenance=Provenance(event_ids=list(d.event_ids), external_ids=list(d.external_ids)),
        **memory_state(d),
        context_for=item.context_for,
        explain={
            "paths": {p: {"rank": s.rank, "score": s.score} for p, s in item.paths.items()},
            "fused": item.fused,
            "factors": item.factors,
            "final": item.score,
        } if explain else None,
        quarantine=quarantine_of(d),
    )


def quarantine_of(d: Document) -> QuarantineOut | None:
    """Why a quarantined document was held back; None for any other."""
    if d.type != "quarantined":
        return None
    return QuarantineOut(reasons=list(d.quarantine_reasons), score=d.quarantine_score)


def to_memory(d: Document) -> MemoryOut:
    return MemoryOut(
        id=d.id, type=d.type, kind=d.kind, key=d.key, confidence=d.confidence, tags=list(d.tags),
        content=d.content, speaker=d.speaker, session=d.session, user=d.user,
        occurred_at=d.occurred_at,
        provenance=Provenance(event_ids=list(d.event_ids), external_ids=list(d.external_ids)),
        quarantine=quarantine_of(d),
        **memory_state(d),
    )


def memory_state(d: Document) -> dict[str, Any]:
    """The ``MemoryState`` fields of an answer item: what consolidation did with it."""
    if d.role != "memory":
        return {}
    return {
        "reinforced_count": d.reinforced_count, "last_reinforced_at": d.last_reinforced_at,
        "importance": importance_of(d), "pinned": d.pinned, "expires_at": d.expires_at,
        "superseded_by": d.superseded_by,
        "supersedes": list(d.supersedes), "merged_into": d.merged_into, "merged_from": list(d.merged_from),
    }


#: States a document leaves recall and browsing in; shown only when ``include`` names them.
HIDDEN_STATES = ("forgotten", "quarantined")


def note_accesses(recorder: AccessRecorder, items: list[RecallItem]) -> None:
    """Count what recall returned, per user; neighbouring turns added for context were
    not asked for, so they are not counted."""
    by_user: dict[tuple[str, str], list[str]] = {}
    for i in items:
        if i.context_for is None:
            by_user.setdefault((i.document.tenant, i.document.user), []).append(i.document.id)
    for (tenant, user), ids in by_user.items():
        recorder.note(tenant, user, ids)


class Query:
    def __init__(
        self, engine: RecallEngine, settings: Settings, text: TextIndex,
        *, accesses: AccessRecorder | None = None, integrity: Integrity | None = None,
    ) -> None:
        self._engine = engine
        self._integrity = integrity  # verifies what browsing and session context return
        self._settings = settings
        self._text = text
        self._accesses = accesses

    async def recall(self, body: RecallIn) -> RecallOut:
        items = await self._engine.recall(to_request(body, self._settings))
        if self._accesses is not None:
            note_accesses(self._accesses, items)
        return RecallOut(items=[to_item(i, body.explain) for i in items])

    async def session_context(
        self, session: str, tenant: str | None, user: str, budget: int
    ) -> SessionContextOut:
        """The newest turns that fit in ``budget`` tokens, plus the latest rolling
        summary when older turns had to be left out."""
        if budget < 1:
            raise InvalidInput("budget too small", [Problem("budget", "must be at least 1 token")])
        docs = self._verified(await self._text.session_documents(
            tenant or self._settings.default_tenant, user, session, MAX_CONTEXT_TURNS
        ), "session")
        turns = [d for d in docs if d.type == "episodic"]  # newest first
        costs = [count_tokens(f"{d.speaker}: {d.content}") for d in turns]
        summary_doc = next((d for d in docs if d.type == "summary"), None)
        summary: str | None = None
        used = 0
        if sum(costs) > budget and summary_doc is not None:
            # Older turns will not fit: the rolling summary stands in for them,
            # taking at most half the budget so recent turns keep their place.
            summary = truncate_to_tokens(summary_doc.content, max(1, budget // 2))
            used = count_tokens(summary)
        chosen: list[ContextTurn] = []
        for d, cost in zip(turns, costs, strict=True):
            if used + cost > budget:
                break
            used += cost
            chosen.append(ContextTurn(id=d.id, speaker=d.speaker, role=d.role, content=d.content,
                                      occurred_at=d.occurred_at, tokens=cost))
        return SessionContextOut(
            session=session,
            summary=summary,
            summary_through=summary_doc.occurred_at if summary and summary_doc else None,
            turns=list(reversed(chosen)),
            tokens=used,
            budget=budget,
            omitted_turns=len(chosen) < len(turns),
        )

    async def list_memories(
        self,
        tenant: str | None,
        user: str | None,
        *,
        types: tuple[str, ...] = ("semantic",),
        session: str | None = None,
        kinds: tuple[str, ...] = (),
        keys: tuple[str, ...] = (),
        tags: tuple[str, ...] = (),
        limit: int = 50,
        offset: int = 0,
    ) -> MemoryListOut:
        """Browse memories (or any document type), newest first."""
        scope = Scope(tenant=tenant or self._settings.default_tenant, user=user, session=session, types=types)
        docs = await self._text.browse(Browse(scope, kinds, keys, tags, limit + 1, offset))
        more = len(docs) > limit
        return MemoryListOut(items=[to_memory(d) for d in self._verified(docs[:limit], "browse")],
                             next_offset=offset + limit if more else None)

    async def memory(
        self, tenant: str | None, memory_id: str, include: tuple[str, ...] = ()
    ) -> MemoryDetailOut:
        """One memory with the turns it came from; a forgotten or quarantined one only when
        ``include`` names its state (the caller checked that it may). Raises NotFound."""
        tenant = tenant or self._settings.default_tenant
        found = self._verified(await self._text.get(tenant, [memory_id]), "memory")
        if not found or (found[0].type in HIDDEN_STATES and found[0].type not in include):
            raise NotFound(f"no memory {memory_id} in tenant {tenant}")
        doc = found[0]
        sources = self._verified(await self._text.get(tenant, list(doc.event_ids)), "memory")
        return MemoryDetailOut(
            memory=to_memory(doc),
            sources=[
                SourceTurn(id=s.id, speaker=s.speaker, role=s.role, content=s.content, session=s.session,
                           occurred_at=s.occurred_at, external_id=s.external_id)
                for s in sources if s.type == "episodic"
            ],
        )

    def _verified(self, docs: list[Document], where: str) -> list[Document]:
        return docs if self._integrity is None else self._integrity.keep(docs, where)
    async def history(
        self, tenant: str | None, memory_id: str, include: tuple[str, ...] = ()
    ) -> MemoryHistoryOut:
        """The chain of values ``memory_id`` belongs to: every memory reachable through
        supersession and merges, oldest first. Forgotten ones only when ``include`` names
        "forgotten" (admin). Raises NotFound."""
        tenant = tenant or self._settings.default_tenant
        found = await self._text.get(tenant, [memory_id])
        if not found or found[0].role != "memory" or (found[0].type == "forgotten" and "forgotten" not in include):
            raise NotFound(f"no memory {memory_id} in tenant {tenant}")
        chain = {found[0].id: found[0]}
        frontier = [found[0]]
        while frontier and len(chain) < MAX_HISTORY:
            links = {i for d in frontier for i in linked(d)} - chain.keys()
            frontier = await self._text.get(tenant, sorted(links)) if links else []
            chain.update((d.id, d) for d in frontier)
        versions = sorted((d for d in chain.values() if d.type != "forgotten" or "forgotten" in include),
                          key=lambda d: (d.occurred_at, d.id))
        live = [d.id for d in versions if d.type == "semantic"]
        return MemoryHistoryOut(memory_id=memory_id, live=live[-1] if live else None,
                                versions=[to_memory(d) for d in versions])


def linked(d: Document) -> list[str]:
    """The memories ``d`` names as replaced, replacing, merged or merged into."""
    return [*d.supersedes, *d.merged_from, *(i for i in (d.superseded_by, d.merged_into) if i)]
