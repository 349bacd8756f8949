"""Counting what the cluster's consumers did, for the kill -9 fault test
(tests/e2e/test_faults_kill9.py) and the proof that the counting catches a double
application (tests/integration/test_effect_audit.py).

Each check raises AssertionError naming what was lost or applied twice.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.adapters.sqlite_reflect_state import SqliteReflectState
from hindsight_common.embedding_cache import CachedEmbedder
from hindsight_common.events import MemoriesMerged, MemoryConflicted, MemoryExtracted, MemorySuperseded
from hindsight_common.events.base import Event
from hindsight_common.events.memories import MemoryReinforced
from hindsight_common.factory import (
    make_embedder, make_embedding_cache, make_graph_store, make_log, make_reflector, make_text_index,
    make_vector_index,
)
from hindsight_common.ports.effects import Effect
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, INTERACTIONS, MEMORIES
from hindsight_services.reflect import wiring as reflect_wiring
from hindsight_services.reflect.handler import Reflect
from hindsight_services.verify import ProjectionReport, verify

#: What embed and project consume (their ``STREAMS``).
PROJECTED = (INTERACTIONS, MEMORIES, CONTROL)
_PAGE = 1000


def settings_of(env: Mapping[str, str]) -> Settings:
    """The settings the service processes were started with (their ``HINDSIGHT_*`` environment)."""
    return Settings(**{k[len("HINDSIGHT_"):].lower(): v for k, v in env.items()
                       if k.startswith("HINDSIGHT_") and k not in ("HINDSIGHT_INFRA_DIR", "HINDSIGHT_CACHE_DIR")})


async def read_streams(log: EventLog, streams: Sequence[str] = PROJECTED) -> list[LogRecord]:
    """Every record of ``streams``, per stream and partition in offset order."""
    out: list[LogRecord] = []
    for stream in streams:
        for key, head in sorted((await log.head(stream)).items()):
            partition = int(key.partition("#")[2] or 0)
            after = -1
            while after < head:
                batch = await log.read(stream, after=after, limit=_PAGE, partition=partition)
                if not batch:
                    break
                out += batch
                after = batch[-1].offset
    return out


async def log_records(settings: Settings) -> list[LogRecord]:
    log = make_log(settings)
    try:
        return await read_streams(log)
    finally:
        await log.close()


def assert_each_record_applied_once(
    records: Sequence[LogRecord], effects: Sequence[Effect], projections: Sequence[str]
) -> dict[str, int]:
    """Every record of the log with an event applied exactly once by each projection,
    nothing applied that is not on the log, and no event id applied from two records.
    Returns, per projection, how many records were delivered more than once (redeliveries
    after a kill: the same record written again, counted apart from effects)."""
    on_log = {(r.stream, r.partition, r.offset): str(r.event.event_id) for r in records if r.event is not None}
    redelivered: dict[str, int] = {}
    for projection in projections:
        mine = [e for e in effects if e.projection == projection]
        applied = {(e.stream, e.partition, e.offset): e.event_id for e in mine}
        missing = sorted(on_log.keys() - applied.keys())
        assert not missing, f"{projection}: {len(missing)} records never applied, e.g. {missing[:3]}"
        unknown = sorted(applied.keys() - on_log.keys())
        assert not unknown, f"{projection}: {len(unknown)} applied records not on the log, e.g. {unknown[:3]}"
        wrong = [k for k, event_id in applied.items() if on_log[k] != event_id]
        assert not wrong, f"{projection}: records applied as other events, e.g. {wrong[:3]}"
        twice = sorted(i for i, n in Counter(applied.values()).items() if n > 1)
        assert not twice, f"{projection}: {len(twice)} events applied from two records or more, e.g. {twice[:3]}"
        redelivered[projection] = sum(1 for e in mine if e.deliveries > 1)
    return redelivered


def memory_checks(events: Sequence[Event]) -> tuple[set[str], list[Event]]:
    """Reflect's and consolidate's effects, read from the memories stream (their
    append-only record): each memory extracted and each reinforcement appended once,
    or again only as the same reflection re-run (reflect is at-least-once: a kill after
    its append and before its state moved on reflects the batch again, and the memory
    ids derive from content and sources, so the projections do not change: the copy must
    be the same extraction, field for field but its event id and time); each decision
    once; each memory replaced by one decision at most. Returns the extracted memory ids
    and consolidate's decisions."""
    def same(e: Event) -> str:
        # Its times are the re-run's own: when reflect ran (occurred_at) and built the event (recorded_at).
        return e.model_dump_json(exclude={"event_id", "occurred_at", "recorded_at", "signature", "trace"})

    extractions: dict[str, set[str]] = {}
    for e in events:
        if isinstance(e, MemoryExtracted):
            extractions.setdefault(str(e.memory_id), set()).add(same(e))
    differing = [m for m, forms in extractions.items() if len(forms) > 1]
    assert not differing, f"{len(differing)} memory ids extracted with different contents, e.g. {differing[:3]}"
    reinforced: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    for e in events:
        if isinstance(e, MemoryReinforced):
            key = (str(e.memory_id), tuple(sorted(map(str, e.source_event_ids))))
            reinforced.setdefault(key, set()).add(same(e))
    assert not [k for k, forms in reinforced.items() if len(forms) > 1], "a reinforcement appended twice, differently"
    extracted = set(extractions)
    decisions = [e for e in events if isinstance(e, MemorySuperseded | MemoriesMerged | MemoryConflicted)]
    repeated = [i for i, n in Counter(str(e.event_id) for e in decisions).items() if n > 1]
    assert not repeated, f"{len(repeated)} consolidation decisions appended twice, e.g. {repeated[:3]}"
    replaced = Counter([str(e.old_id) for e in decisions if isinstance(e, MemorySuperseded)]
                       + [str(m) for e in decisions if isinstance(e, MemoriesMerged) for m in e.merged_ids])
    again = [m for m, n in replaced.items() if n > 1]
    assert not again, f"{len(again)} memories replaced by two decisions, e.g. {again[:3]}"
    return extracted, decisions


async def fresh_reflection(settings: Settings, records: Sequence[LogRecord], batch: int = 64) -> set[str]:
    """The memory ids a fresh reflect (the service's handler, a state of its own, never
    killed) learns from the interactions and control records in ``records``."""
    with tempfile.TemporaryDirectory(prefix="fresh-reflect-") as tmp:
        out_log = SqliteLog(Path(tmp) / "log.sqlite3")
        state = SqliteReflectState(Path(tmp) / "reflect.sqlite3")
        try:
            reflect = Reflect(out_log, state, make_reflector(settings), reflect_wiring.policy(settings))
            mine = [r for r in records if r.stream in (INTERACTIONS, CONTROL) and r.event is not None]
            for key in sorted({r.position_key for r in mine}):
                part = [r for r in mine if r.position_key == key]
                for start in range(0, len(part), batch):
                    chunk = part[start:start + batch]
                    await reflect.handle(chunk, {key: chunk[-1].offset})
            learned = await read_streams(out_log, (MEMORIES,))
            return {str(r.event.memory_id) for r in learned if isinstance(r.event, MemoryExtracted)}
        finally:
            await state.close()
            await out_log.close()


async def verified(settings: Settings, embedder: Embedder | None = None) -> list[ProjectionReport]:
    """``hindsight verify`` over the cluster's stores: each projection against what a
    fresh replay of the log implies up to its position."""
    model = embedder or make_embedder(settings)
    cache = make_embedding_cache(settings)
    cached: Embedder = CachedEmbedder(model, cache) if cache is not None else model
    log = make_log(settings)
    vectors, text, graph = make_vector_index(settings, model.dim), make_text_index(settings), make_graph_store(settings)
    try:
        return await verify(log, cached, vectors, text, graph)
    finally:
        for store in (vectors, text, graph, cache, log):
            if store is not None:
                await store.close()
