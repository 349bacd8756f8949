"""What consolidate does with memory events.

It adds up recall's access counts (``MemoryAccessed``) for rerank's access factor, and
it consolidates semantic memories: every ``MemoryExtracted`` goes through the
deterministic fold in ``hindsight_common/consolidation/state.py``, and the decisions it
implies (``MemoriesMerged``, ``MemorySuperseded``, ``MemoryConflicted``) are appended
to the memories stream before the batch's position is recorded, so none is lost.

Every ``forget_interval_s`` (checked after each batch and when the log is idle) it runs
a forgetting pass (``consolidation/forgetting.py``) over the fold at the current time and
appends its ``MemoryForgotten`` events; a replay reads them back instead of deciding
again, so the live set after a rebuild is the one before it.

With each periodic pass it also runs cluster consolidation (``consolidation/clusters.py``):
similar memories of one subject merged into one statement, written by the LLM when one is
configured (``consolidation/cluster_merge.py``), else by joining them; the statement and
the merge are appended, and a replay adopts them without asking the model again.

On ``SubjectErased`` (the control stream, through ``hindsight_common/erasure.py``)
``purge`` drops the user's memories, vectors and texts from the fold and their
documents' access counts from the store.

Consolidate keeps no state of its own on disk: on start, ``resume`` rebuilds the fold
from the log (memories up to the position the access store holds; recorded decisions
from the whole stream), so what it decides next is what it would have decided without
the restart. Decision ids derive from the memories involved: a batch redelivered after a
crash decides the same events again, and those already on the log are not appended twice.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from uuid import UUID

from hindsight_common.consolidation.cluster_merge import merged_statement
from hindsight_common.consolidation.clusters import ClusterPolicy, cluster_events, eligible, plan_clusters
from hindsight_common.consolidation.forgetting import FORGOTTEN_BY, ForgetPolicy, forgotten_events, plan, purges
from hindsight_common.consolidation.rules import entity_set, norm
from hindsight_common.consolidation.state import CONSOLIDATE_REFLECTORS, DEFAULT_SIMILARITY, ConsolidationState
from hindsight_common.consolidation.summaries import summary_event, summary_groups
from hindsight_common.documents import memory_text
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.events import (
    Event,
    MemoriesMerged,
    MemoryAccessed,
    MemoryConflicted,
    MemoryExtracted,
    MemoryQuarantined,
    MemoryForgotten,
    MemoryPurged,
    MemorySuperseded,
    utcnow,
)
from hindsight_common.ports.access import AccessCounts, AccessIncrement
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.llm import LLM
from hindsight_common.ports.log import EventLog, LogRecord, Position
from hindsight_common.security.signed_items import sign_events
from hindsight_common.security.signing import Keyring
from hindsight_common.streams import MEMORIES


DECISIONS = (MemoriesMerged, MemorySuperseded, MemoryConflicted)
REBUILD_BATCH = 512  # memories folded (and embedded) together when rebuilding


def access_increments(records: Sequence[LogRecord]) -> list[AccessIncrement]:
    """The access counts the records carry, each with its place on the log."""
    return [
        AccessIncrement(r.event.tenant, r.event.counts, r.position_key, r.offset)
        for r in records
        if isinstance(r.event, MemoryAccessed)
    ]


async def stream_records(log_: EventLog, stream: str, partition: int, page: int = 1000) -> AsyncIterator[LogRecord]:
    """Every record of one partition of ``stream``, oldest first."""
    batch = await log_.read(stream, limit=page, partition=partition)
    while batch:
        for r in batch:
            yield r
        batch = await log_.read(stream, after=batch[-1].offset, limit=page, partition=partition)


class Consolidate:
    def __init__(
        self, accesses: AccessCounts, log_: EventLog | None = None, embedder: Embedder | None = None,
        *, similarity: float = DEFAULT_SIMILARITY, policy: ForgetPolicy = ForgetPolicy(),
        forget_interval_s: float = 0.0, clock: Callable[[], datetime] = utcnow,
        cache: EmbeddingCache | None = None, clusters: ClusterPolicy | None = None, llm: LLM | None = None,
        keyring: Keyring | None = None, summarise: bool = False,
    ) -> None:
        """Without ``log_`` it only counts accesses; without ``embedder`` it merges exact
        repeats and supersedes, but finds no near-duplicates. With ``cache`` (the embedding
        cache embed fills) a memory's vector is read from there, under the text embed
        embeds (``memory_text``), and the model runs only for one embed has not reached yet
        (whose vector it then stores for embed). A ``forget_interval_s`` of 0 runs no
        periodic forgetting pass. With ``clusters`` (and an embedder) each periodic pass
        merges clusters of similar memories, their statement written by ``llm`` when given;
        ``keyring`` signs those statements (unsigned without one). With ``summarise`` a
        periodic forgetting pass first writes one summary per subject of what it forgets."""
        self._accesses = accesses
        self._log = log_
        self._embedder = CachedEmbedder(embedder, cache) if embedder is not None and cache is not None else embedder
        self.state = ConsolidationState(similarity)
        # Single precision: a sixth of a list of floats; similarities are rounded anyway.
        self._vectors: dict[UUID, array[float]] = {}
        self._contents: dict[UUID, str] = {}
        self._on_log: set[UUID] = set()  # decisions read from the log (or appended to it)
        self._stale = False  # a batch failed half-way: rebuild before the next one
        self.seen = 0
        self.decided = 0
        self.policy = policy
        self._forget_every = forget_interval_s
        self._clock = clock
        self._last_pass = time.monotonic()
        self._clusters = clusters
        self._llm = llm
        self._keyring = keyring
        self._summarise = summarise
        # The documents recall returned per user (memories and turns): what an erasure
        # deletes from the access store, which keeps no user.
        self._accessed: dict[tuple[str, str], set[str]] = {}

    async def resume(self) -> Position:
        """Where the consumer resumes (the access store's position), after rebuilding the
        fold up to it."""
        position = await self._accesses.position()
        await self._rebuild(position)
        return position

    async def _rebuild(self, position: Position) -> None:
        if self._log is None:
            return
        self.state = ConsolidationState(self.state.similarity)
        self._vectors.clear()
        self._contents.clear()
        self._on_log.clear()
        self._accessed.clear()
        for key in await self._log.head(MEMORIES):
            stream, _, part = key.rpartition("#")
            upto = position.get(key)
            folded: list[Event] = []
            async for r in stream_records(self._log, stream, int(part)):
                if r.event is None:
                    continue
                if upto is not None and r.offset <= upto:
                    folded.append(r.event)
                    if len(folded) >= REBUILD_BATCH:
                        await self._fold(folded, append=False)
                        folded = []
                    continue
                if folded:  # every record up to the position comes before the rest
                    await self._fold(folded, append=False)
                    folded = []
                if isinstance(r.event, DECISIONS):
                    # A decision beyond the position (appended before a crash, its batch
                    # to be redelivered): adopt it, so that batch is not decided again.
                    self.state.observe(r.event)
                    self._on_log.add(r.event.event_id)
            if folded:
                await self._fold(folded, append=False)

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        """Idempotent: decisions already on the log are not appended again; the access
        store skips records at or below the position it holds, and records the batch
        position even when no record carried counts. When a batch fails half-way (the
        append of its decisions, say), the fold is rebuilt from the log before the retry,
        so decisions the state took but the log never got are taken again."""
        if self._stale:
            await self._rebuild(await self._accesses.position())
            self._stale = False
        events = [r.event for r in records if r.event is not None]
        if self._log is None:  # no fold (which notes them otherwise): what an erasure deletes
            self._note_accesses(events)
        try:
            await self._fold(events, append=True)
        except BaseException:
            self._stale = True
            raise
        await self._accesses.add(access_increments(records), position)
        self.seen += len(records)
        await self.on_idle()

    async def purge(self, tenant: str, user: str) -> None:
        """An erased user (``SubjectErased``): their memories, vectors and texts leave the
        fold, and the access counts of their documents leave the store. Idempotent."""
        for i in self.state.purge_user(tenant, user):
            self._vectors.pop(i, None)
            self._contents.pop(i, None)
            self._accessed.setdefault((tenant, user), set()).add(str(i))
        await self._accesses.delete(tenant, sorted(self._accessed.pop((tenant, user), set())))

    async def on_idle(self) -> None:
        """Run the periodic forgetting (and cluster) pass when it is due."""
        if self._log is None or self._forget_every <= 0 or time.monotonic() - self._last_pass < self._forget_every:
            return
        self._last_pass = time.monotonic()
        if self._stale:
            return  # the next batch rebuilds first; the pass waits for it
        try:
            await self.forgetting_pass(self._clock())
            await self.cluster_pass()
        except BaseException:
            self._stale = True
            raise

    async def forgetting_pass(
        self, reference: datetime, *, tenant: str | None = None, user: str | None = None,
    ) -> list[Event]:
        """Purge what was forgotten longer ago than the grace period, then forget what the
        policy says at ``reference`` (appended, then folded); the events, those already on
        the log included."""
        assert self._log is not None
        planned = plan(self.state, reference, self.policy, tenant=tenant, user=user)
        forgets = forgotten_events(self.state, planned, reference)
        summaries: list[MemoryExtracted] = []
        if self._summarise:
            into: dict[UUID, UUID] = {}
            for group in summary_groups(self.state, planned):
                statement, how = await merged_statement(group, self._llm)
                summaries.append(summary_event(group, statement, how, reference))
                into.update((m.id, summaries[-1].memory_id) for m in group.members)
            forgets = [f.model_copy(update={"reason": f"{f.reason}; summarised into {into[f.memory_id]}"[:500]})
                       if f.memory_id in into else f for f in forgets]
        events: list[Event] = [*purges(self.state, reference, self.policy, tenant=tenant, user=user), *summaries,
                               *forgets]
        return await self._append_and_fold(events)

    async def cluster_pass(self, *, tenant: str | None = None, user: str | None = None) -> list[Event]:
        """Merge the clusters the policy finds (of one tenant / user when given): each
        statement and its merge appended (signed), then folded; the events. Nothing
        without a cluster policy or an embedder."""
        if self._log is None or self._clusters is None or self._embedder is None:
            return []
        await self._vectors_of([m.id for m in eligible(self.state, tenant=tenant, user=user)])
        events: list[Event] = []
        for cluster in plan_clusters(self.state, self._vectors.get, self._clusters, tenant=tenant, user=user):
            events += cluster_events(cluster, *await merged_statement(cluster, self._llm))
        return await self._append_and_fold(events)

    async def _vectors_of(self, ids: Sequence[UUID]) -> None:
        """Vectors for these memories (the cache first), for those that have none yet."""
        assert self._embedder is not None
        missing = [i for i in ids if i not in self._vectors and self._contents.get(i)]
        for start in range(0, len(missing), REBUILD_BATCH):
            chunk = missing[start:start + REBUILD_BATCH]
            vectors = await self._embedder.embed([self._contents[i] for i in chunk])
            self._vectors.update((i, array("f", v)) for i, v in zip(chunk, vectors, strict=True))

    def _note_accesses(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, MemoryAccessed):
                self._accessed.setdefault((e.tenant, e.user), set()).update(e.counts)

    async def _append_and_fold(self, events: list[Event]) -> list[Event]:
        """A pass's decisions: those not yet on the log appended (signed), durable before
        the state moves on; then all folded in, and what left the live set dropped from
        the vectors and contents held for it."""
        assert self._log is not None
        fresh = [e for e in events if e.event_id not in self._on_log]
        if fresh:
            await self._log.append(MEMORIES, sign_events(self._keyring, fresh) if self._keyring is not None else fresh)
            self.decided += len(fresh)
        for e in events:
            if isinstance(e, MemoryExtracted):
                self.state.adopt(e)
                self._contents[e.memory_id] = memory_text(e)
            else:
                self.state.observe(e)
                self._drop_left(e)
            self._on_log.add(e.event_id)
        return events

    def _drop_left(self, e: Event) -> None:
        known = self.state.memories
        for i in _left_live(e):
            if i in known and known[i].status != "live":
                self._vectors.pop(i, None)
                self._contents.pop(i, None)

    async def _fold(self, events: Sequence[Event], *, append: bool) -> None:
        if self._log is None:
            return
        await self._embed(events)
        self._note_accesses(events)
        decisions: list[Event] = []
        # Screening held these back (reflect appends a memory's quarantine right after it):
        # a suspected poisoning must not supersede or merge what is already known.
        held = {e.target_id for e in events if isinstance(e, MemoryQuarantined) and e.target == "memory"}
        for e in events:
            if isinstance(e, MemoryExtracted):
                if e.memory_id in held:
                    continue
                if e.reflector.name in CONSOLIDATE_REFLECTORS:  # its own statement (a cluster's, a summary)
                    self.state.adopt(e)
                    self._on_log.add(e.event_id)
                    continue
                decisions += self.state.decide(e, self._vectors.get)
            else:
                self.state.observe(e)
                if isinstance(e, (*DECISIONS, MemoryPurged)) or (
                        isinstance(e, MemoryForgotten) and e.forgotten_by == FORGOTTEN_BY):
                    self._on_log.add(e.event_id)
        if append:
            fresh = [d for d in decisions if d.event_id not in self._on_log]
            if fresh:
                await self._log.append(MEMORIES, fresh)  # durable before the position moves
                self.decided += len(fresh)
        self._on_log.update(d.event_id for d in decisions)
        # Only live memories are ever compared again: drop what the others cached.
        for e in (*events, *decisions):
            self._drop_left(e)

    async def _embed(self, events: Sequence[Event]) -> None:
        """Vectors for the new memories that a near-duplicate check will compare, and for
        the live memories they will be compared with: one embedder call per batch, each
        distinct text embedded once. A new memory whose only peers are others of the same
        batch is embedded too (the state cannot tell yet what they will be)."""
        if self._embedder is None:
            return
        new = [e for e in events if isinstance(e, MemoryExtracted) and e.memory_id not in self.state.memories]
        slots_of = {e.memory_id: _slots(e) for e in new}
        slots: dict[tuple[str, str, str, str], int] = {}  # new memories per subject and key / entities
        for e in new:
            for slot in slots_of[e.memory_id]:
                slots[slot] = slots.get(slot, 0) + 1
        texts: dict[UUID, str] = {}
        for e in new:
            self._contents[e.memory_id] = memory_text(e)
        for e in new:
            peers = self.state.candidates(e)
            if peers or any(slots[slot] > 1 for slot in slots_of[e.memory_id]):
                texts[e.memory_id] = self._contents[e.memory_id]
                for i in peers:
                    texts.setdefault(i, self._contents.get(i, ""))
        distinct = list(dict.fromkeys(t for i, t in texts.items() if i not in self._vectors and t))
        if distinct:
            vectors = dict(zip(distinct, await self._embedder.embed(distinct), strict=True))
            self._vectors.update((i, array("f", vectors[t])) for i, t in texts.items() if t in vectors)


def _slots(e: MemoryExtracted) -> list[tuple[str, str, str, str]]:
    """What two memories must share to be compared: subject and key, or subject and entities."""
    group = (e.tenant, e.user, norm(e.subject))
    entities = ",".join(sorted(entity_set(e.entities, e.subject)))
    return [(*group, "key:" + e.key.lower()), *([(*group, "entities:" + entities)] if entities else [])]


def _left_live(e: Event) -> list[UUID]:
    """The memories an event may take out of the live set."""
    if isinstance(e, MemoriesMerged):
        return list(e.merged_ids)
    if isinstance(e, MemorySuperseded):
        return [e.old_id]
    if isinstance(e, MemoryForgotten):
        return [e.memory_id]
    return []
