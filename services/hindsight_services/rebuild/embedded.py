"""Online rebuild of the embedded projections: new versions in new folders beside the
live ones, swapped through the pointer record (``records.py``) and, in a running
server, through the live references (``live.py``) at the same moment.

``rebuild_data_dir`` is the whole procedure; ``EmbeddedRebuilds`` runs it inside a
running ``hindsight serve`` (``POST /v1/admin/rebuild``, one at a time), and
``hindsight replay`` runs it directly when no server holds the data directory.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import make_embedder, make_graph_store, make_text_index, make_vector_index
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.projection import Projection, TextIndex, VectorIndex
from hindsight_common.settings import Settings
from hindsight_services.rebuild import prefill
from hindsight_services.rebuild.engine import NewVersions, Progress, Rebuild, rebuild_consumers
from hindsight_services.rebuild.prefill import HeadStart
from hindsight_services.rebuild.live import LiveEmbedder, LiveGraph, LiveTextIndex, LiveVectorIndex, Swappable
from hindsight_services.rebuild.records import (
    PROJECTIONS,
    RebuildRecord,
    Versions,
    at_versions,
    clear_rebuild,
    existing_versions,
    read_rebuild,
    read_versions,
    version_paths,
    write_rebuild,
    write_versions,
)



class Runtime(Protocol):
    """What a rebuild needs of the running ``EmbeddedRuntime`` (its live, swappable parts)."""

    settings: Settings
    log: EventLog
    embedding_cache: EmbeddingCache | None
    embedder: Embedder
    vectors: VectorIndex
    text: TextIndex
    graph: GraphStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RebuildRequest:
    projections: tuple[str, ...]
    embedder: str | None = None  # a Settings.embedder name; None: the live one
    drop_old: bool = False


def parse_projections(text: str) -> tuple[str, ...]:
    """``vector``, ``text``, ``graph``, ``all`` or a comma-separated choice, in a fixed order.
    Raises ConfigurationError naming what is accepted."""
    names = {n.strip() for n in text.split(",") if n.strip()}
    if "all" in names:
        names = (names - {"all"}) | set(PROJECTIONS)
    unknown = sorted(names - set(PROJECTIONS))
    if unknown or not names:
        raise ConfigurationError(
            f"--projection takes vector, text, graph or all, not {', '.join(unknown) or 'nothing'}")
    return tuple(p for p in PROJECTIONS if p in names)


def plan(settings: Settings, request: RebuildRequest) -> tuple[RebuildRecord, bool]:
    """The rebuild to run: the one recorded as under way (resumed, True) or a new one
    into versions no folder holds yet. Raises ConfigurationError when another rebuild is
    recorded as under way with other options."""
    embedder = request.embedder or settings.embedder
    recorded = read_rebuild(settings)
    live = read_versions(settings)
    if recorded is not None and all(live.of(p) == v for p, v in recorded.targets.items()):
        clear_rebuild(settings)  # stopped after its swap: it is done, its versions are live
        recorded = None
    if recorded is not None:
        if recorded.projections != request.projections or recorded.embedder != embedder:
            raise ConfigurationError(
                f"an interrupted rebuild of {', '.join(recorded.projections)} (embedder {recorded.embedder}) "
                f"is recorded in {settings.projections_dir}; run `hindsight replay --projection "
                f"{','.join(recorded.projections)} --embedder {recorded.embedder}` to finish it first")
        return recorded, True
    targets = {p: max([live.of(p), *existing_versions(settings, p)]) + 1 for p in request.projections}
    record = RebuildRecord(request.projections, targets, embedder)
    write_rebuild(settings, record)
    return record, False


async def open_new(settings: Settings, record: RebuildRecord, embedder: Embedder | None) -> NewVersions:
    """The stores of the versions ``record`` fills; ``embedder`` for the vector one."""
    target = at_versions(settings, record.targets)
    vectors = make_vector_index(target, embedder.dim) if "vector" in record.projections and embedder else None
    text = make_text_index(target) if "text" in record.projections else None
    graph = make_graph_store(target) if "graph" in record.projections else None
    return NewVersions(vectors, embedder if vectors is not None else None, text, graph)


async def choose_embedder(settings: Settings, record: RebuildRecord, live: Embedder | None) -> Embedder | None:
    """The embedder of the new vector version: the live one when the model is the same
    (its vectors then come from the cache), else the named one, loaded."""
    if "vector" not in record.projections:
        return None
    if live is not None and record.embedder == settings.embedder:
        return live
    embedder = make_embedder(settings.model_copy(update={"embedder": record.embedder}))
    await embedder.embed(["warm up"])  # load the model before the rebuild starts
    return embedder


def drop_versions(settings: Settings, projections: Sequence[str], keep: Versions) -> list[str]:
    """Delete every folder of ``projections`` but the live version's; returns what went."""
    dropped = []
    for p in projections:
        for v in existing_versions(settings, p):
            if v != keep.of(p):
                path = version_paths(settings, p, v)
                shutil.rmtree(path, ignore_errors=True)
                dropped.append(path.name)
    return dropped


async def rebuild_data_dir(
    settings: Settings, log_: EventLog, cache: EmbeddingCache | None, lookup: TextIndex,
    request: RebuildRequest, *, live_embedder: Embedder | None = None,
    embedder: Embedder | None = None, on_swap: Callable[[NewVersions], None] | None = None,
    on_progress: Callable[[Progress], None] | None = None, after_swap: Callable[[], Awaitable[None]] | None = None,
) -> dict[str, object]:
    """Rebuild ``request.projections`` of the data directory of ``settings`` (already
    resolved to its live versions) from ``log_``. ``lookup``: the live text index, read
    for a forgotten memory's content when only the graph is rebuilt. ``embedder``
    overrides the one ``request.embedder`` names (tests). ``on_swap`` switches a running
    server to the new stores; without it they are closed after the pointer moved. With
    neither (no server) the vectors get a process of their own first (``prefill.py``)."""
    record, resumed = plan(settings, request)
    started = time.monotonic()
    head: HeadStart | None = None
    if on_swap is None and embedder is None and await prefill.wanted(settings, record, log_):
        head = await prefill.head_start(settings, record, log_, cache, lookup, on_progress)
    chosen = embedder or await choose_embedder(settings, record, live_embedder)
    new = await open_new(settings, record, chosen)
    live = read_versions(settings)
    swapped = Versions({**{p: live.of(p) for p in PROJECTIONS}, **record.targets},
                       record.embedder if "vector" in record.projections else live.embedder)

    async def swap() -> None:
        write_versions(settings, swapped)  # no await between the record and the references
        if on_swap is not None:
            on_swap(new)
        log.info("rebuild: %s now live at versions %s", ", ".join(record.projections), dict(record.targets))

    try:
        rebuild = Rebuild(log_, rebuild_consumers(log_, new, cache, lookup, settings.poll_timeout_s, settings.rebuild_batch))
        shown = on_progress
        if head is not None and on_progress is not None:
            before = head.progress

            def shown(p: Progress) -> None:  # the whole run's records: the head start's too
                on_progress(replace(p, applied=before.applied + p.applied, resumed_from=before.resumed_from))

        progress = await rebuild.run(swap, shown)
    except BaseException:
        if on_swap is None or read_versions(settings) != swapped:
            await new.close()  # not live (yet): the next run resumes from what they hold
        raise
    if on_swap is None:
        await new.close()
    clear_rebuild(settings)
    if after_swap is not None:
        await after_swap()  # the old versions are closed before they may be dropped
    dropped = drop_versions(settings, record.projections, swapped) if request.drop_old else []
    extra: dict[str, object] = {}
    if head is not None:  # the whole run: the head start's records, then the rest's
        applied = head.progress.applied + progress.applied
        progress = Progress("done", applied, head.progress.resumed_from, 0,
                            applied / max(time.monotonic() - started, 1e-9), None)
        extra["vector_process"] = {"applied": head.child_applied, "embedded": head.embedded, "error": head.error}
    return {"rebuilt": list(record.projections), "versions": dict(record.targets), "embedder": record.embedder,
            "resumed": resumed, **progress.as_dict(), "dropped": dropped, **extra}


class EmbeddedRebuilds:
    """The rebuild of a running embedded runtime, one at a time, as a task."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._task: asyncio.Task[dict[str, object]] | None = None
        self._rebuild_progress: Progress | None = None
        self.request: RebuildRequest | None = None
        self.result: dict[str, object] | None = None
        self.error: str | None = None

    def state(self) -> dict[str, object]:
        running = self._task is not None and not self._task.done()
        out: dict[str, object] = {"running": running}
        if self.request is not None:
            out["projections"] = list(self.request.projections)
        if self._rebuild_progress is not None:
            out["progress"] = self._rebuild_progress.as_dict()
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out

    def start(self, request: RebuildRequest, embedder: Embedder | None = None) -> bool:
        """Start ``request`` unless a rebuild is running (False). Options are checked
        first (raises ConfigurationError)."""
        if self._task is not None and not self._task.done():
            return False
        if read_rebuild(self._runtime.settings) is not None:
            plan(self._runtime.settings, request)  # another one recorded: raises, saying what to run
        self.request, self.result, self.error, self._rebuild_progress = request, None, None, None
        self._task = asyncio.create_task(self._run(request, embedder), name="rebuild")
        return True

    def _progress(self, p: Progress) -> None:
        self._rebuild_progress = p

    async def _run(self, request: RebuildRequest, embedder: Embedder | None) -> dict[str, object]:
        rt = self._runtime
        vectors, text, graph, live_embedder = _live(rt)
        retiring: list[tuple[Projection, Swappable[Any]]] = []

        def on_swap(new: NewVersions) -> None:
            if new.vectors is not None and new.embedder is not None:
                live_embedder.ref.swap(new.embedder)
                retiring.append((vectors.swap(new.vectors, new.embedder.model_id), vectors.ref))
            if new.text is not None:
                retiring.append((text.ref.swap(new.text), text.ref))
            if new.graph is not None:
                retiring.append((graph.ref.swap(new.graph), graph.ref))

        async def retire() -> None:
            for store, ref in retiring:
                await ref.drained(store)  # calls that started on it finish there
                await store.close()

        try:
            self.result = await rebuild_data_dir(
                rt.settings, rt.log, rt.embedding_cache, text, request,
                live_embedder=live_embedder.ref.current, embedder=embedder, on_swap=on_swap,
                on_progress=self._progress, after_swap=retire)
            return self.result
        except asyncio.CancelledError:
            raise
        except Exception as e:  # task boundary: the state says why; the record lets it resume
            log.exception("rebuild failed")
            self.error = f"{type(e).__name__}: {e}"
            raise

    async def stop(self) -> None:
        """Cancel a running rebuild (it resumes from its new versions on the next request)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # stopping: the state already says why
                pass


def _live(rt: Runtime) -> tuple[LiveVectorIndex, LiveTextIndex, LiveGraph, LiveEmbedder]:
    if not (isinstance(rt.vectors, LiveVectorIndex) and isinstance(rt.text, LiveTextIndex)
            and isinstance(rt.graph, LiveGraph) and isinstance(rt.embedder, LiveEmbedder)):
        raise ConfigurationError("this runtime's projections are not swappable; restart it to rebuild online")
    return rt.vectors, rt.text, rt.graph, rt.embedder
