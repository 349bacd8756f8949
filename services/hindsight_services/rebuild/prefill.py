"""The vector half of an offline rebuild, in a process of its own.

One interpreter runs Python on one core at a time, and a rebuild with the embedding cache
warm is almost all Python (reading and opening records, building documents, points, rows,
entities). So ``hindsight replay`` with no server holding the data directory, when it
rebuilds the vectors and something else, first fills the new vector version in a child
process (``python -m hindsight_services.rebuild.prefill``) up to the log's head while it
fills the text and graph versions itself (``HINDSIGHT_REBUILD_PROCESSES``, default 2; 1
keeps everything in one process). Then the usual rebuild (``engine.Rebuild``) runs over
every new version from the least advanced position: it finds them at the head, swaps and
drains. The child is only a head start: when it fails the parent logs why and does its
work; each version records its own position, so a kill of either resumes.

A running server rebuilds in its own process (its live references are swapped in memory).
The child dies with its parent (``PR_SET_PDEATHSIG`` on Linux, else a watch on the
parent's id), so no two processes ever write one new version.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

from hindsight_common.adapters.position_file import read_position
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.factory import make_embedder, make_embedding_cache, make_graph_store, make_log, make_text_index
from hindsight_common.factory import make_vector_index
from hindsight_common.ports.embedding_cache import EmbeddingCache
from hindsight_common.ports.log import EventLog
from hindsight_common.ports.projection import TextIndex
from hindsight_common.settings import Settings
from hindsight_services.embed import wiring as embed_wiring
from hindsight_services.rebuild.engine import NewVersions, Progress, Rebuild, rebuild_consumers, remaining
from hindsight_services.rebuild.records import RebuildRecord, at_versions

log = logging.getLogger(__name__)

GROUP = "rebuild-vector"


async def wanted(settings: Settings, record: RebuildRecord, log_: EventLog) -> bool:
    """Whether the vector version is filled by a child: more than one process allowed,
    the vectors rebuilt beside another projection, and at least
    ``HINDSIGHT_REBUILD_PROCESS_MIN_RECORDS`` records for it to apply (the child takes
    seconds to start)."""
    if settings.rebuild_processes < 2 or "vector" not in record.projections or len(record.projections) < 2:
        return False
    heads: dict[str, int] = {}
    for stream in embed_wiring.STREAMS:
        heads.update(await log_.head(stream))
    held = read_position(at_versions(settings, record.targets).vector_dir / "position.json")
    return remaining(held, heads) >= settings.rebuild_process_min_records


@dataclass(frozen=True)
class HeadStart:
    """What the processes of the head start did: the records each applied, the texts the
    child's model embedded (None without the cache), and their progress at the end."""

    progress: Progress
    child_applied: int
    embedded: int | None
    error: str | None


def _message(line: bytes) -> dict[str, Any] | None:
    """A line of the child's output: its JSON message, or None for anything else one of
    its libraries printed (logged, not fatal)."""
    try:
        message = json.loads(line)
    except ValueError:
        message = None
    if not isinstance(message, dict):
        log.info("vector process: %s", line.decode(errors="replace").rstrip())
        return None
    return message


def _combined(parent: Progress, child: Progress | None) -> Progress:
    """The progress of both: the one with more left to apply."""
    if child is None:  # starting: as if it had everything the parent has seen left
        child = Progress("starting", 0, 0, parent.applied + parent.lag, 0.0, None)
    slower = parent if parent.lag > child.lag else child
    return replace(slower, phase="catching up")


async def head_start(settings: Settings, record: RebuildRecord, log_: EventLog, cache: EmbeddingCache | None,
                     lookup: TextIndex, on_progress: Callable[[Progress], None] | None) -> HeadStart:
    """Fill the vector version of ``record`` in a child and its other versions here, each
    up to the log's head (``settings``: resolved to the live versions)."""
    started = time.monotonic()
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", __name__, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(pickle.dumps((settings, record)))
    child.stdin.close()
    latest: dict[str, Progress | None] = {"child": None}
    result: dict[str, object] = {}

    async def read_child() -> None:
        assert child.stdout is not None
        async for line in child.stdout:
            message = _message(line)
            if message is None:
                continue
            if "progress" in message:
                latest["child"] = Progress(**message["progress"])
            else:
                result.update(message)

    reader = asyncio.create_task(read_child())
    target = at_versions(settings, record.targets)
    others = NewVersions(text=make_text_index(target) if "text" in record.projections else None,
                         graph=make_graph_store(target) if "graph" in record.projections else None)

    def shown(p: Progress) -> None:
        if on_progress is not None:
            on_progress(_combined(p, latest["child"]))

    try:
        rebuild = Rebuild(log_, rebuild_consumers(log_, others, cache, lookup, settings.poll_timeout_s,
                                                  settings.rebuild_batch))

        async def nothing() -> None:
            return None

        mine = await rebuild.run(nothing, shown)
        while child.returncode is None:
            try:
                await asyncio.wait_for(child.wait(), 1.0)
            except TimeoutError:
                shown(mine)
        await reader
    finally:
        await others.close()
        if child.returncode is None:
            child.kill()
            await child.wait()
        reader.cancel()
    error = None if child.returncode == 0 else f"exit status {child.returncode}"
    if error is not None:
        log.warning("rebuild: the vector process failed (%s, its output above); this process rebuilds the "
                    "vectors itself", error)
    applied = int(str(result.get("applied", 0)))
    elapsed = max(time.monotonic() - started, 1e-9)
    both = max(mine.applied, applied)
    embedded = result.get("embedded")
    theirs = latest["child"]
    resumed_from = mine.resumed_from if theirs is None else min(mine.resumed_from, theirs.resumed_from)
    return HeadStart(Progress("caught up", both, resumed_from, 0, both / elapsed, None), applied,
                     None if embedded is None else int(str(embedded)), error)


def _die_with_parent() -> None:
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGKILL) == 0:  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # it died before the call
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _say(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def fill_vectors(settings: Settings, record: RebuildRecord) -> None:
    """The child's work: the vector version of ``record`` up to the log's head."""
    target = at_versions(settings, record.targets)
    model = make_embedder(settings.model_copy(update={"embedder": record.embedder}))
    log_, cache = make_log(settings), make_embedding_cache(settings)
    embedder = CachedEmbedder(model, cache) if cache is not None else model
    vectors = make_vector_index(target, embedder.dim)
    try:
        consumers = rebuild_consumers(log_, NewVersions(vectors, embedder), None, None, settings.poll_timeout_s,
                                      settings.rebuild_batch, group=GROUP)

        async def nothing() -> None:
            return None

        progress = await Rebuild(log_, consumers).run(nothing, lambda p: _say({"progress": asdict(p)}))
        _say({"applied": progress.applied,
              "embedded": embedder.misses if isinstance(embedder, CachedEmbedder) else None})
    finally:
        await vectors.close()
        if cache is not None:
            await cache.close()
        await log_.close()


def main() -> None:
    _die_with_parent()
    settings, record = pickle.loads(sys.stdin.buffer.read())
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(fill_vectors(settings, record))


if __name__ == "__main__":
    main()
