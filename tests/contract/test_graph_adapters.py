"""The graph contract against SQLite (embedded) and a real Neo4j 5 (cluster), plus
what is each adapter's own, the factory, and the project service feeding the graph.

Neo4j comes from ``HINDSIGHT_NEO4J_URI`` (or ``.infra/env``, written by
``deploy/local/infra.sh up``); without it the Neo4j tests fail with how to start it.
Each Neo4j test writes into its own namespace and deletes it afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import AsyncGraphDatabase

from hindsight_common.adapters.neo4j_graph import Neo4jGraph
from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.adapters.sqlite_graph import SqliteGraph
from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.errors import ConfigurationError, ProjectionError
from hindsight_common.events import InteractionRecorded, MemoryExtracted, ReflectorInfo, serialize_event
from hindsight_common.factory import make_graph_store
from hindsight_common.ports.graph import GraphItem, GraphLinks, GraphStore
from hindsight_common.ports.log import LogRecord
from hindsight_common.ports.projection import Scope
from hindsight_common.security.data_keys import DataKeys
from hindsight_common.security.sealed_graph import SealedGraph
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_services.project.handler import Project
from hindsight_services.project.wiring import min_position, resume_position
from tests.contract.graph_contract import ALL, I1, I2, I3, I4, M1, M2, GraphContract, Reopen, items
from tests.servers import server_url

MASTER = bytes(range(32))


class TestSqliteGraph(GraphContract):
    @pytest.fixture
    async def graph(self, tmp_path: Path) -> AsyncIterator[SqliteGraph]:
        graph = SqliteGraph(tmp_path / "graph.sqlite3")
        yield graph
        await graph.close()

    @pytest.fixture
    async def reopen(self, tmp_path: Path) -> AsyncIterator[Reopen]:
        opened: list[SqliteGraph] = []

        async def again() -> SqliteGraph:
            opened.append(SqliteGraph(tmp_path / "graph.sqlite3"))
            return opened[-1]

        yield again
        for graph in opened:
            await graph.close()

    async def test_closed_store_raises_projection_error(self, graph: SqliteGraph) -> None:
        await graph.close()
        with pytest.raises(ProjectionError):
            await graph.count("t1")

    async def test_a_batch_leaves_what_its_items_written_one_by_one_leave(self, tmp_path: Path) -> None:
        """One statement per kind for a batch, with documents met twice (a memory
        rewritten, a turn re-typed): every table as when each item is its own write."""
        first = items()
        again = [GraphItem(replace(first[0].document, type="quarantined"), ("Leeds", "Pixel")),
                 GraphItem(replace(first[6].document, content="Ann's lurcher is Pixel"), ("Ann",),
                           derived_from=(I1,), supersedes=(M1, I3)),
                 GraphItem(replace(first[1].document, session="s9"), ("Weather Bureau",))]
        batch = [*first[:4], again[0], *first[4:], again[1], again[2], first[0]]
        together, alone = SqliteGraph(tmp_path / "together.sqlite3"), SqliteGraph(tmp_path / "alone.sqlite3")
        try:
            await together.upsert(batch, {"s#0": 1})
            for item in batch:
                await alone.upsert([item], {"s#0": 1})
            tables = ("docs", "entities", "users", "sessions", "edges")
            for table in tables:
                rows = [sorted(g._db.execute(f"SELECT * FROM {table}").fetchall()) for g in (together, alone)]
                assert rows[0] == rows[1] and rows[0], table
            assert await together.links_of("t1", M2) == await alone.links_of("t1", M2)
        finally:
            await together.close()
            await alone.close()


@pytest.fixture
def neo4j_uri() -> str:
    return server_url("HINDSIGHT_NEO4J_URI", "Neo4j")


@pytest.fixture
async def namespace(neo4j_uri: str) -> AsyncIterator[str]:
    ns = f"hindsight_test_{uuid.uuid4().hex[:12]}"
    yield ns
    cleaner = Neo4jGraph(neo4j_uri, namespace=ns)
    try:
        await cleaner.drop()
        assert await cleaner.count("t1") == 0
    finally:
        await cleaner.close()


class TestSealedNeo4jGraph(GraphContract):
    """The cluster's graph as the factory builds it: Neo4j under the sealing wrapper."""

    @pytest.fixture
    async def opened(self) -> AsyncIterator[list[SealedGraph]]:
        graphs: list[SealedGraph] = []
        yield graphs
        for graph in graphs:
            await graph.close()

    @pytest.fixture
    def reopen(self, neo4j_uri: str, namespace: str, opened: list[SealedGraph], tmp_path: Path) -> Reopen:
        async def again() -> SealedGraph:
            opened.append(SealedGraph(Neo4jGraph(neo4j_uri, namespace=namespace),
                                      DataKeys(SqliteKeyVault(tmp_path / "keys.sqlite3"), MASTER), lambda: MASTER))
            return opened[-1]

        return again

    @pytest.fixture
    async def graph(self, reopen: Reopen) -> GraphStore:
        return await reopen()


class TestNeo4jGraph(GraphContract):
    @pytest.fixture
    async def opened(self) -> AsyncIterator[list[Neo4jGraph]]:
        graphs: list[Neo4jGraph] = []
        yield graphs
        for graph in graphs:
            await graph.close()

    @pytest.fixture
    def graph(self, neo4j_uri: str, namespace: str, opened: list[Neo4jGraph]) -> Neo4jGraph:
        opened.append(Neo4jGraph(neo4j_uri, namespace=namespace))
        return opened[-1]

    @pytest.fixture
    def reopen(self, neo4j_uri: str, namespace: str, opened: list[Neo4jGraph]) -> Reopen:
        async def again() -> Neo4jGraph:
            opened.append(Neo4jGraph(neo4j_uri, namespace=namespace))
            return opened[-1]

        return again

    async def test_namespaces_do_not_see_each_other(
        self, graph: Neo4jGraph, neo4j_uri: str, opened: list[Neo4jGraph]
    ) -> None:
        await graph.upsert(items(), ALL)
        other = Neo4jGraph(neo4j_uri, namespace=f"{graph.namespace}_other")
        opened.append(other)
        assert await other.count("t1") == 0
        assert await other.position() == {}
        assert await other.search(Scope(tenant="t1"), ["Pixel"], 10) == []
        await other.drop()  # dropping another namespace leaves this one alone
        assert await graph.count("t1") == 7

    async def test_schema_labels_and_relationships(self, graph: Neo4jGraph, neo4j_uri: str) -> None:
        await graph.upsert(items(), ALL)
        driver = AsyncGraphDatabase.driver(neo4j_uri, auth=None)
        try:
            async with driver.session() as session:
                names = {r["name"] for r in await (await session.run("SHOW CONSTRAINTS")).data()}
                assert {"hindsight_doc_key", "hindsight_entity_key", "hindsight_position_key"} <= names
                result = await session.run(
                    "MATCH (d:Doc {ns: $ns, tenant: 't1'}) RETURN labels(d) AS labels, d.type AS type",
                    ns=graph.namespace,
                )
                labels = {(r["type"], tuple(sorted(r["labels"]))) for r in await result.data()}
                assert labels == {("episodic", ("Doc", "Interaction")), ("semantic", ("Doc", "Memory"))}
                result = await session.run(
                    "MATCH (m:Memory {ns: $ns})-[:IN_SESSION]->(s:Session)-[:OF_USER]->(u:User) "
                    "MATCH (m)-[:MENTIONS]->(e:Entity) "
                    "RETURN DISTINCT s.id AS session, u.id AS user, e.key AS key, e.name AS name",
                    ns=graph.namespace,
                )
                rows = {(r["session"], r["user"], r["key"], r["name"]) for r in await result.data()}
                assert rows == {("s2", "ann", "ann", "Ann"), ("s2", "ann", "pixel", "Pixel")}
        finally:
            await driver.close()

    async def test_tenant_filter_holds_even_across_a_stray_edge(
        self, graph: Neo4jGraph, neo4j_uri: str
    ) -> None:
        # Entities are per tenant, so a cross-tenant edge cannot arise from upsert; the
        # filter on every matched document is the second wall, tested by forging one.
        await graph.upsert(items(), ALL)
        driver = AsyncGraphDatabase.driver(neo4j_uri, auth=None)
        try:
            async with driver.session() as session:
                await (await session.run(
                    "MATCH (x:Doc {ns: $ns, tenant: 't2'}), (e:Entity {ns: $ns, tenant: 't1', key: 'leeds'}) "
                    "CREATE (x)-[:MENTIONS]->(e)", ns=graph.namespace)).consume()
        finally:
            await driver.close()
        found = await self.found(graph, Scope(tenant="t1"), ["Leeds"])  # checks every tenant
        assert {i for i, _ in found} == {I1, I2, I3, I4, M1, M2}

    async def test_unreachable_server_is_a_projection_error(self, opened: list[Neo4jGraph]) -> None:
        graph = Neo4jGraph("bolt://127.0.0.1:1", namespace="unused", timeout_s=2.0)
        opened.append(graph)
        with pytest.raises(ProjectionError):
            await graph.count("t1")

    async def test_bad_uri_is_a_configuration_error(self, opened: list[Neo4jGraph]) -> None:
        graph = Neo4jGraph("gopher://127.0.0.1:7687", namespace="unused")
        opened.append(graph)
        with pytest.raises(ConfigurationError):
            await graph.count("t1")


async def test_factory_builds_the_configured_graph_store(tmp_path: Path) -> None:
    store = make_graph_store(Settings(data_dir=tmp_path))
    assert isinstance(store, SqliteGraph)
    await store.close()
    assert (tmp_path / "projections" / "graph" / "graph.sqlite3").exists()
    with pytest.raises(ConfigurationError, match="HINDSIGHT_NEO4J_URI"):
        make_graph_store(Settings(data_dir=tmp_path, graph_backend="neo4j", neo4j_uri=None))
    neo = make_graph_store(Settings(data_dir=tmp_path, graph_backend="neo4j",
                                    neo4j_uri="bolt://127.0.0.1:7687", neo4j_namespace="ns_x"))
    # The cluster's graph is sealed (security/sealed_graph.py) unless the log is not.
    assert isinstance(neo, SealedGraph) and isinstance(neo.inner, Neo4jGraph) and neo.inner.namespace == "ns_x"
    await neo.close()  # never connected: nothing to release
    plain = make_graph_store(Settings(data_dir=tmp_path, graph_backend="neo4j", seal_log=False,
                                      neo4j_uri="bolt://127.0.0.1:7687"))
    assert isinstance(plain, Neo4jGraph)
    await plain.close()


def test_resume_from_the_lesser_position() -> None:
    assert min_position({"a#0": 5, "b#0": 3}, {"a#0": 4, "b#0": 9}) == {"a#0": 4, "b#0": 3}
    assert min_position({"a#0": 5, "b#0": 3}, {"a#0": 4}) == {"a#0": 4}  # b: from the start
    assert min_position({"a#0": 5}, {}) == {}
    assert min_position() == {}


def _record(event: InteractionRecorded | MemoryExtracted, stream: str, offset: int) -> LogRecord:
    return LogRecord(stream, 0, offset, f"{event.tenant}/{event.user}", serialize_event(event), event)


async def test_project_writes_text_and_graph_and_resumes_from_the_lesser(tmp_path: Path) -> None:
    at = datetime(2024, 5, 1, tzinfo=UTC)
    turn = InteractionRecorded(tenant="t1", user="ann", occurred_at=at, session="s1", speaker="Ann",
                               role="user", content="I adopted a greyhound called Pixel in Leeds")
    old = uuid.uuid4()
    memory = MemoryExtracted(
        tenant="t1", user="ann", occurred_at=at, memory_id=uuid.uuid4(), session="s1", subject="Ann",
        content="Ann's dog is a greyhound called Pixel", kind="fact", key="pet.name", value="Pixel",
        confidence=0.9, entities=("Ann", "Greyhound Club"), source_event_ids=(turn.event_id,),
        related_memory_ids=(old,), reflector=ReflectorInfo(name="offline-rules", version="1"),
    )
    text = SqliteFtsIndex(tmp_path / "text.sqlite3")
    graph = SqliteGraph(tmp_path / "graph.sqlite3")
    try:
        records = [_record(turn, INTERACTIONS, 1), _record(memory, MEMORIES, 1)]
        position = {f"{INTERACTIONS}#0": 1, f"{MEMORIES}#0": 1}
        await Project(text, graph).handle(records, position)
        assert await graph.entities_of("t1", str(turn.event_id)) == ("leeds", "pixel")
        mid = str(memory.memory_id)
        assert await graph.entities_of("t1", mid) == ("ann", "greyhound club", "pixel")
        assert await graph.links_of("t1", mid) == GraphLinks((str(turn.event_id),), (str(old),), ())
        [hit, neighbour] = await graph.search(Scope(tenant="t1"), ["Greyhound Club"], 5)
        assert (hit.document.id, neighbour.document.id) == (mid, str(turn.event_id))
        assert await text.position() == position == await graph.position()
        # The graph behind the text index (e.g. deleted): project resumes from the graph's.
        await text.upsert([], {f"{INTERACTIONS}#0": 7, f"{MEMORIES}#0": 3})
        assert await resume_position(text, graph)() == position
        assert await resume_position(text, None)() == {f"{INTERACTIONS}#0": 7, f"{MEMORIES}#0": 3}
    finally:
        await text.close()
        await graph.close()
