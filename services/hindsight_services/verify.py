"""``hindsight verify``: does each projection hold what the log implies?

For each projection (vector, text, graph) the log is replayed, in memory, through the
same pure projection logic the consumers run (``documents_of``, the text index's turn
neighbourhoods, ``graph_item``), up to the log position the projection says it
reflects; the result is compared, item by item, with what the store holds:

- text: every field of each document (``to_payload``, the neighbourhood included);
- vector: the payload of each point, and its vector (cosine with the vector the log
  implies at least ``VECTOR_MIN_COSINE``: stores may renormalise, so the last bits of a
  float can differ, and a rounded value would then flip at a rounding boundary);
- graph: each document's entity keys, ``DERIVED_FROM`` and ``SUPERSEDES`` links.

Each projection gets an order-independent digest (SHA-256 over the sorted digests of
its items: ids, payloads, vectors rounded to ``VECTOR_DECIMALS`` decimals) and a diff:
ids missing from the store, extra ids, ids whose content differs, with a few examples.
The vectors the log implies come from the embedding cache (a miss runs the model), so
after a rebuild with the cache warm this embeds nothing. Only tenants that appear in the
log are read from the stores.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hindsight_common.context_windows import no_neighbours, with_context
from hindsight_common.documents import documents_of, to_payload
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.graph import GraphStore
from hindsight_common.ports.log import EventLog, LogRecord, Position
from hindsight_common.ports.projection import Document, TextIndex, VectorIndex
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_common.text.entities import entity_keys
from hindsight_services.project.handler import graph_item

STREAMS = (INTERACTIONS, MEMORIES)  # what embed and project consume
VECTOR_DECIMALS = 4
VECTOR_MIN_COSINE = 0.9999
EXAMPLES = 5
READ_BATCH = 1000

#: Called with (what, done, total) as work advances; a progress bar on the command line.
Progress = Callable[[str, int, int], None]
Key = tuple[str, str]  # (tenant, document id)


@dataclass(frozen=True)
class Item:
    """One entry of a projection in comparable form."""

    fields: Mapping[str, Any]
    vector: tuple[float, ...] | None = None

    def digest(self) -> str:
        body: dict[str, Any] = {"fields": self.fields}
        if self.vector is not None:
            body["vector"] = [round(x, VECTOR_DECIMALS) + 0.0 for x in self.vector]
        return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()

    def same_as(self, other: Item) -> bool:
        if self.fields != other.fields:
            return False
        if self.vector is None or other.vector is None:
            return self.vector is None and other.vector is None
        return _cosine(self.vector, other.vector) >= VECTOR_MIN_COSINE


@dataclass(frozen=True)
class ProjectionReport:
    projection: str
    expected: int
    actual: int
    expected_digest: str
    actual_digest: str
    missing: list[Key] = field(default_factory=list)
    extra: list[Key] = field(default_factory=list)
    different: list[Key] = field(default_factory=list)
    fields_differing: list[str] = field(default_factory=list)  # in the examples of ``different``

    @property
    def equal(self) -> bool:
        return not (self.missing or self.extra or self.different)

    def summary(self) -> dict[str, Any]:
        def ex(keys: list[Key]) -> list[str]:
            return [f"{t}/{i}" for t, i in keys[:EXAMPLES]]

        return {
            "projection": self.projection, "equal": self.equal,
            "expected": self.expected, "actual": self.actual,
            "expected_digest": self.expected_digest, "actual_digest": self.actual_digest,
            "missing": len(self.missing), "extra": len(self.extra), "different": len(self.different),
            "examples": {"missing": ex(self.missing), "extra": ex(self.extra), "different": ex(self.different)},
            "fields_differing": self.fields_differing,
        }


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) != len(b):
        return -1.0
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / max(na * nb, 1e-12)


def digest(items: Mapping[Key, Item]) -> str:
    """Order-independent: SHA-256 of the sorted item digests (each over its key too)."""
    h = hashlib.sha256()
    for line in sorted(f"{t}/{i}:{item.digest()}" for (t, i), item in items.items()):
        h.update(line.encode() + b"\n")
    return h.hexdigest()


def compare(projection: str, expected: Mapping[Key, Item], actual: Mapping[Key, Item]) -> ProjectionReport:
    different = sorted(k for k in expected.keys() & actual.keys() if not expected[k].same_as(actual[k]))
    fields: set[str] = set()
    for k in different[:EXAMPLES]:
        e, a = expected[k], actual[k]
        fields |= {f for f in e.fields.keys() | a.fields.keys() if e.fields.get(f) != a.fields.get(f)}
        if not Item({}, e.vector).same_as(Item({}, a.vector)):
            fields.add("vector")
    return ProjectionReport(
        projection, len(expected), len(actual), digest(expected), digest(actual),
        missing=sorted(expected.keys() - actual.keys()), extra=sorted(actual.keys() - expected.keys()),
        different=different, fields_differing=sorted(fields),
    )


# -- what the log implies ---------------------------------------------------------


async def read_log(log: EventLog, progress: Progress | None = None) -> list[LogRecord]:
    """Every record of the streams the projections consume, per stream and partition in
    offset order (the order a consumer applies them in)."""
    heads: dict[str, int] = {}
    for stream in STREAMS:
        heads.update(await log.head(stream))
    total = sum(max(0, v) for v in heads.values())
    records: list[LogRecord] = []
    for key in sorted(heads):
        stream, _, partition = key.partition("#")
        after = -1
        while True:
            batch = await log.read(stream, after=after, limit=READ_BATCH, partition=int(partition or 0))
            if not batch:
                break
            records += batch
            after = batch[-1].offset
            if progress is not None:
                progress("read the log", len(records), total)
            if after >= heads[key]:
                break
    return records


def up_to(records: Sequence[LogRecord], position: Position) -> list[LogRecord]:
    """The records a projection at ``position`` has applied."""
    return [r for r in records if r.offset <= position.get(f"{r.stream}#{r.partition}", -1)]


async def _nothing(tenant: str, ids: Sequence[str]) -> list[Document]:
    return []


async def implied_documents(records: Sequence[LogRecord]) -> list[tuple[LogRecord, Document]]:
    # The whole log as one batch: documents_of and with_context give the same documents
    # however the log is split, and one batch needs nothing from a store.
    return await documents_of(records, _nothing)


def _last(pairs: Sequence[tuple[LogRecord, Document]]) -> dict[Key, tuple[LogRecord, Document]]:
    return {(d.tenant, d.id): (r, d) for r, d in pairs}  # a later write of an id replaces it


async def implied_text(records: Sequence[LogRecord]) -> dict[Key, Item]:
    docs = await with_context([d for _, d in await implied_documents(records)], no_neighbours)
    return {(d.tenant, d.id): Item(to_payload(d)) for d in docs}


async def implied_vectors(records: Sequence[LogRecord], embedder: Embedder,
                          progress: Progress | None = None) -> dict[Key, Item]:
    docs = [d for _, d in _last(await implied_documents(records)).values()]
    out: dict[Key, Item] = {}
    for start in range(0, len(docs), 256):
        chunk = docs[start : start + 256]
        vectors = await embedder.embed([d.search_text for d in chunk])
        out.update({(d.tenant, d.id): Item(to_payload(d), tuple(v)) for d, v in zip(chunk, vectors, strict=True)})
        if progress is not None:
            progress("vectors the log implies", len(out), len(docs))
    return out


def _graph_fields(entities: Sequence[str], derived_from: Sequence[str], supersedes: Sequence[str]) -> dict[str, Any]:
    return {"entities": sorted(entities), "derived_from": sorted(set(derived_from)),
            "supersedes": sorted(set(supersedes))}


async def implied_graph(records: Sequence[LogRecord], graph: GraphStore | None = None) -> dict[Key, Item]:
    """``graph``: the store compared with, whose way of keying entities is used (a
    sealed graph keeps tokens); plain normalised keys without it."""
    out: dict[Key, Item] = {}
    for key, (r, d) in _last(await implied_documents(records)).items():
        g = graph_item(r, d)
        keys = graph.stored_keys(d.tenant, g.entities) if graph is not None else entity_keys(g.entities)
        out[key] = Item(_graph_fields(keys, g.derived_from, g.supersedes))
    return out


# -- what the stores hold ---------------------------------------------------------


async def stored_text(index: TextIndex, tenants: Sequence[str]) -> dict[Key, Item]:
    out: dict[Key, Item] = {}
    for tenant in tenants:
        ids = await index.ids(tenant)
        for start in range(0, len(ids), READ_BATCH):
            for d in await index.get(tenant, ids[start : start + READ_BATCH]):
                out[(tenant, d.id)] = Item(to_payload(d))
    return out


async def stored_vectors(index: VectorIndex, tenants: Sequence[str]) -> dict[Key, Item]:
    out: dict[Key, Item] = {}
    for tenant in tenants:
        ids = await index.ids(tenant)
        for start in range(0, len(ids), READ_BATCH):
            chunk = ids[start : start + READ_BATCH]
            vectors = await index.vectors(tenant, chunk)
            for d in await index.get(tenant, chunk):
                v = vectors.get(d.id)
                out[(tenant, d.id)] = Item(to_payload(d), tuple(v) if v is not None else ())
    return out


async def stored_graph(graph: GraphStore, tenants: Sequence[str], progress: Progress | None = None) -> dict[Key, Item]:
    out: dict[Key, Item] = {}
    ids = [(t, i) for t in tenants for i in await graph.ids(t)]
    for n, (tenant, doc_id) in enumerate(ids, start=1):
        links = await graph.links_of(tenant, doc_id)
        out[(tenant, doc_id)] = Item(_graph_fields(
            await graph.entities_of(tenant, doc_id), links.derived_from, links.supersedes))
        if progress is not None and (n % 200 == 0 or n == len(ids)):
            progress("read the graph", n, len(ids))
    return out


async def verify(
    log: EventLog, embedder: Embedder, vectors: VectorIndex | None, text: TextIndex | None,
    graph: GraphStore | None, progress: Progress | None = None,
) -> list[ProjectionReport]:
    """One report per projection given, comparing it with what the log implies up to
    the position it records. Raises what the log and the stores raise."""
    records = await read_log(log, progress)
    tenants = sorted({r.event.tenant for r in records if r.event is not None})
    reports: list[ProjectionReport] = []
    if vectors is not None:
        mine = up_to(records, await vectors.position())
        reports.append(compare("vector", await implied_vectors(mine, embedder, progress),
                               await stored_vectors(vectors, tenants)))
    if text is not None:
        mine = up_to(records, await text.position())
        reports.append(compare("text", await implied_text(mine), await stored_text(text, tenants)))
    if graph is not None:
        mine = up_to(records, await graph.position())
        reports.append(compare("graph", await implied_graph(mine, graph), await stored_graph(graph, tenants, progress)))
    return reports


def print_reports(reports: Sequence[ProjectionReport], as_json: bool) -> None:
    if as_json:
        print(json.dumps({"equal": all(r.equal for r in reports), "projections": [r.summary() for r in reports]}))
        return
    for r in reports:
        state = "equal" if r.equal else "DIFFERENT"
        print(f"{r.projection}: {state}: {r.actual} stored, {r.expected} implied by the log; "
              f"digest {r.actual_digest[:16]} (log: {r.expected_digest[:16]})")
        if not r.equal:
            s = r.summary()
            for kind in ("missing", "extra", "different"):
                if s[kind]:
                    print(f"  {kind}: {s[kind]} (e.g. {', '.join(s['examples'][kind])})")
            if r.fields_differing:
                print(f"  fields that differ: {', '.join(r.fields_differing)}")


class _Bars:
    """``Progress`` drawn as the benchmarks' progress line on stderr, one per stage."""

    def __init__(self) -> None:
        from hindsight_services.bench import Progress as Bar  # the benchmarks' progress line

        self._bar = Bar
        self._bars: dict[str, tuple[Any, int]] = {}

    def __call__(self, what: str, done: int, total: int) -> None:
        bar, shown = self._bars.get(what) or (self._bar(what, total), 0)
        bar.advance(done - shown)
        self._bars[what] = (bar, done)


async def run(settings: Settings, projections: Sequence[str], as_json: bool) -> int:
    """``hindsight verify``: 0 when every projection asked for equals what the log
    implies, 1 with a diff summary otherwise. Embedded: the data directory must not be
    in use (its lock is taken). Raises HindsightError (the command's exit code 2)."""
    from hindsight_common.embedding_cache import CachedEmbedder
    from hindsight_common.factory import (
        make_embedder, make_embedding_cache, make_graph_store, make_log, make_text_index, make_vector_index,
    )

    lock = None
    if settings.log_backend == "sqlite":
        from hindsight_services.embedded import lock_data_dir

        from hindsight_services.rebuild.records import resolve

        lock = lock_data_dir(settings)
        settings = resolve(settings)  # the live versions, and the embedder they were made with
    log = make_log(settings)
    embedder: Embedder = make_embedder(settings)
    cache = make_embedding_cache(settings)
    if cache is not None:
        embedder = CachedEmbedder(embedder, cache)
    vectors = make_vector_index(settings, embedder.dim) if "vector" in projections else None
    text = make_text_index(settings) if "text" in projections else None
    graph = make_graph_store(settings) if "graph" in projections else None
    try:
        reports = await verify(log, embedder, vectors, text, graph, _Bars())
    finally:
        for store in (vectors, text, graph, cache, log):
            if store is not None:
                await store.close()
        if lock is not None:
            lock.close()
    print_reports(reports, as_json)
    return 0 if all(r.equal for r in reports) else 1
