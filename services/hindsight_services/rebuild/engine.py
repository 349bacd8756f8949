"""An online rebuild: fill new versions of projections from the log beside the live
ones, swap them in once they reach the head, then drain.

The new versions are fed by a consumer of their own (group ``rebuild``, so in the
cluster it never takes partitions from the live workers), resuming from the least
advanced position the new versions record. It runs the live services' own handlers
(``Embed``, ``Project``) side by side on each batch, so a rebuilt projection holds what
the live one would. The order:

1. catch up: run until every new version's position reaches the log's head (new events
   keep arriving; the live versions keep serving and receiving them);
2. swap (the caller's: an alias, the embedded pointer record): from now on the live
   workers write into the new versions and readers read them;
3. drain: an event the live workers applied to the OLD version just before the swap
   was on the log before it, so the rebuild consumers run on until they have applied
   the heads read after the swap; then they stop. Nothing the log holds is missed.

Projection writes are idempotent and positions only move forward, so the live worker
and the rebuild consumer writing the same records into the new version is harmless.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from hindsight_common.consumer import Consumer, Handler, supervise
from hindsight_common.documents import documents_of
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.log import EventLog, LogRecord, Position
from hindsight_common.ports.projection import TextIndex, VectorIndex
from hindsight_common.telemetry import span
from hindsight_services.embed import wiring as embed_wiring
from hindsight_services.embed.handler import Embed
from hindsight_services.project import wiring as project_wiring
from hindsight_services.project.handler import Project, graph_item

log = logging.getLogger(__name__)

GROUP = "rebuild"
NEAR_LAG = 200  # records: close enough to the head to swap once the lag stays there
NEAR_POLLS = 25



@dataclass(frozen=True)
class NewVersions:
    """The stores a rebuild fills (None: that projection is not rebuilt), and the
    embedder of the new vector version."""

    vectors: VectorIndex | None = None
    embedder: Embedder | None = None
    text: TextIndex | None = None
    graph: GraphStore | None = None

    async def close(self) -> None:
        for store in (self.vectors, self.text, self.graph):
            if store is not None:
                await store.close()


@dataclass(frozen=True)
class Progress:
    phase: str  # "catching up", "swapping", "draining", "done"
    applied: int  # records applied by this run of the rebuild
    resumed_from: int  # records the least advanced new version held when this run started
    lag: int  # records of the log not in the new versions yet
    rate: float  # records per second in this run
    eta_s: float | None

    def as_dict(self) -> dict[str, object]:
        return {"phase": self.phase, "applied": self.applied, "resumed_from": self.resumed_from,
                "lag": self.lag, "events_per_s": round(self.rate, 1),
                "eta_s": None if self.eta_s is None else round(self.eta_s, 1)}


def remaining(position: Mapping[str, int], heads: Mapping[str, int]) -> int:
    """Records of ``heads`` not applied at ``position`` (at most; offsets may have gaps).
    0 exactly when every head is applied."""
    return sum(max(0, offset - position.get(key, -1)) for key, offset in heads.items())


class GraphOnly:
    """project's graph half alone (``--projection graph``): the documents come from the
    events, a forgotten memory's content from the live text index (read only)."""

    def __init__(self, lookup: TextIndex, graph: GraphStore) -> None:
        self._lookup = lookup
        self._graph = graph

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        pairs = await documents_of(records, self._lookup.get)
        with span("projection write graph", {"hindsight.projection": "graph", "hindsight.documents": len(pairs)}):
            await self._graph.upsert([graph_item(r, d) for r, d in pairs], position)


class Together:
    """Handlers of the same streams run on each batch at the same time, so a rebuild of
    the vectors and the text (and graph) reads, opens and parses each record once, and
    one handler's waits on its store overlap the other's work. When one fails the others
    are cancelled and the batch is retried as a whole (every projection write is
    idempotent, and positions only move forward)."""

    def __init__(self, *handlers: Handler) -> None:
        self._handlers = handlers

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        async def run(handler: Handler) -> None:
            await handler(records, position)

        try:
            async with asyncio.TaskGroup() as writes:
                for handler in self._handlers:
                    writes.create_task(run(handler))
        except BaseExceptionGroup as failed:  # the consumer judges the error itself
            raise failed.exceptions[0] from None


def rebuild_consumers(
    log_: EventLog, new: NewVersions, cache: EmbeddingCache | None, live_text: TextIndex | None,
    poll_timeout_s: float, batch: int, *, group: str = GROUP,
) -> list[Consumer]:
    """One consumer, group ``rebuild``, running embed's handler into the new vector
    version and project's into the new text and graph versions on each batch, resuming
    from the least advanced of them (a version ahead of it rewrites a few records it
    holds; the writes are idempotent). ``batch``: records per fetch
    (``HINDSIGHT_REBUILD_BATCH``); ``group``: another for the vector process of an
    offline rebuild (``prefill.py``). A rebuild reads many at a time: each batch is one
    write per projection, which is where a rebuild spends its time once the vectors come
    from the cache."""
    for store in (new.vectors, new.text):
        if store is not None:
            store.defer_caches()  # nothing searches a new version before the swap
    handlers: list[Handler] = []
    positions: list[Callable[[], Awaitable[Position]]] = []
    if new.vectors is not None and new.embedder is not None:
        embedder: Embedder = CachedEmbedder(new.embedder, cache) if cache is not None else new.embedder
        handlers.append(Embed(embedder, new.vectors).handle)
        positions.append(new.vectors.position)
    if new.text is not None:
        handlers.append(Project(new.text, new.graph).handle)
        positions.append(project_wiring.resume_position(new.text, new.graph))
    elif new.graph is not None:
        if live_text is None:
            raise ValueError("a rebuild of the graph alone reads forgotten memories from the live text index")
        handlers.append(GraphOnly(live_text, new.graph).handle)
        positions.append(new.graph.position)
    if not handlers:
        return []

    async def resume() -> Position:
        return project_wiring.min_position(*await asyncio.gather(*(p() for p in positions)))

    handler = handlers[0] if len(handlers) == 1 else Together(*handlers).handle
    return [Consumer(log_, group, embed_wiring.STREAMS, handler, resume_from=resume,
                     batch_size=batch, poll_timeout_s=poll_timeout_s)]


class Rebuild:
    """Runs the rebuild consumers through catch-up, swap and drain (module docstring)."""

    def __init__(self, log_: EventLog, consumers: Sequence[Consumer], poll_s: float = 0.2,
                 settle_s: float = 0.0) -> None:
        """``settle_s``: how long after the swap readers and writers may still reach an
        old version (a cached alias resolution, a write in flight); the drain's heads
        are read after it."""
        self._log = log_
        self._settle_s = settle_s
        self._consumers = list(consumers)
        self._poll_s = poll_s
        self._started = time.monotonic()
        self._resumed_from = 0
        self.progress = Progress("starting", 0, 0, 0, 0.0, None)

    async def _heads(self) -> dict[str, int]:
        heads: dict[str, int] = {}
        for stream in {s for c in self._consumers for s in c.streams}:
            heads.update(await self._log.head(stream))
        return heads

    async def _lag(self, heads: Mapping[str, int]) -> int:
        """The largest number of records any consumer still has to apply up to ``heads``."""
        return max((remaining(c.position, {k: v for k, v in heads.items() if k.split("#")[0] in c.streams})
                    for c in self._consumers), default=0)

    def _note(self, phase: str, lag: int) -> None:
        applied = max((c.processed for c in self._consumers), default=0)
        elapsed = max(time.monotonic() - self._started, 1e-9)
        rate = applied / elapsed
        self.progress = Progress(phase, applied, self._resumed_from, lag, rate,
                                 lag / rate if rate > 0 else None)

    async def _until_applied(self, phase: str, heads: Callable[[], Awaitable[Mapping[str, int]]],
                             near: int = 0) -> None:
        """Until the lag is 0, or at most ``near`` for ``NEAR_POLLS`` polls in a row (a
        steady writer can keep it from being 0 at the instant of a poll; the drain after
        the swap applies the rest)."""
        close = 0
        while True:
            lag = await self._lag(await heads())
            self._note(phase, lag)
            close = close + 1 if lag <= near else 0
            if lag == 0 or close >= NEAR_POLLS:
                return
            await asyncio.sleep(self._poll_s)

    async def run(self, swap: Callable[[], Awaitable[None]],
                  on_progress: Callable[[Progress], None] | None = None) -> Progress:
        """Catch up, ``swap``, drain; returns the last progress. The consumers are stopped
        on return and on error (a later run resumes from the new versions' positions)."""
        stop = asyncio.Event()
        tasks = [asyncio.create_task(supervise(c, stop), name=f"consumer:{c.group}") for c in self._consumers]
        reporter = asyncio.create_task(self._report(on_progress)) if on_progress else None
        try:
            await asyncio.gather(*(c.ready.wait() for c in self._consumers))
            first = await self._heads()
            # What the least advanced new version held already (0 for a fresh rebuild).
            self._resumed_from = min((remaining({}, first) - remaining(c.position, first)
                                      for c in self._consumers), default=0)
            self._started = time.monotonic()
            await self._until_applied("catching up", self._heads, near=NEAR_LAG)
            self._note("swapping", 0)
            await swap()
            await asyncio.sleep(self._settle_s)
            after = await self._heads()  # every record applied to an old version is at or before these

            async def fixed() -> Mapping[str, int]:
                return after

            await self._until_applied("draining", fixed)
            self._note("done", 0)
            return self.progress
        finally:
            stop.set()
            for t in tasks:
                try:
                    await asyncio.wait_for(t, timeout=30)
                except TimeoutError:
                    t.cancel()
            if reporter is not None:
                reporter.cancel()
                if on_progress is not None:
                    on_progress(self.progress)

    async def _report(self, on_progress: Callable[[Progress], None] | None) -> None:
        while on_progress is not None:
            on_progress(self.progress)
            await asyncio.sleep(1.0)
