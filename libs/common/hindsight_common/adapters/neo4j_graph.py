"""Cluster graph projection on Neo4j 5, through the official async driver.

Model (every node carries ``ns``, the namespace, and all but the position ``tenant``):

    (:User {id})<-[:OF_USER]-(:Session {user, id})<-[:IN_SESSION]-(:Doc)
    (:Doc:Interaction | :Doc:Memory | :Doc:Summary {id, type, user, session, agent,
        ts, payload})-[:MENTIONS]->(:Entity {key, name})
    (:Doc:Memory)-[:DERIVED_FROM]->(:Doc)      the events a memory was learned from
    (:Doc:Memory)-[:SUPERSEDES]->(:Doc)        the memories it replaces
    (:ProjectionPosition {name, key, offset})  where the projection stands in the log

``payload`` is the document as JSON (``documents.to_payload``). A link may point at a
document that has not arrived yet: its target is created as a *stub* ``:Doc`` (no
payload) that the document's own write fills in later; stubs are never counted,
listed or returned.

The namespace (``hindsight_v1`` by default) is a property on every node rather than a
label prefix, so one set of constraints serves every namespace: a rebuild writes
``hindsight_v2`` next to the live one, and each test writes its own and drops it.
A namespace alias lets readers switch namespace without a restart: a
``(:NamespaceAlias {name, target})`` node named after the configured namespace points
at the namespace that is live (an online rebuild writes ``hindsight_v2`` and then
points ``hindsight_v1``'s alias at it, one write). Every call resolves it, cached for
``ALIAS_TTL_S``; with no such node the configured namespace is the live one.
Uniqueness constraints, on (ns, tenant, id) for documents, users and sessions (plus
user), (ns, tenant, key) for entities and (ns, name, key) for positions, are created
lazily on the first call (``IF NOT EXISTS``, so idempotent). Every query filters on
``ns`` and, except the position's, on ``tenant``.

A batch (documents, edges and position) is one write transaction, retried by the
driver on transient errors. Every call is bounded by ``timeout_s`` (server-side
transaction timeout and an asyncio timeout around it). Driver errors become
ProjectionError; a bad URI becomes ConfigurationError.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, unit_of_work
from neo4j.exceptions import DriverError, Neo4jError

from hindsight_common.adapters.neo4j_aliases import NamespaceAliases
from hindsight_common.documents import from_payload, to_payload
from hindsight_common.errors import ConfigurationError, ProjectionError
from hindsight_common.text.entities import entity_key, entity_keys
from hindsight_common.ports.graph import GraphItem, GraphLinks, GraphStore, check_hops, hop_score
from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Hit, Scope

T = TypeVar("T")

DEFAULT_NAMESPACE = "hindsight_v1"
DEFAULT_TIMEOUT_S = 10.0
ALIAS_TTL_S = 1.0
_LABELS = {"episodic": "Interaction", "semantic": "Memory", "summary": "Summary"}

_CREATED_CONCURRENTLY = frozenset({
    "Neo.ClientError.Schema.IndexWithNameAlreadyExists",
    "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists",
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
})
_SCHEMA = (
    "CREATE CONSTRAINT hindsight_doc_key IF NOT EXISTS "
    "FOR (d:Doc) REQUIRE (d.ns, d.tenant, d.id) IS UNIQUE",
    "CREATE CONSTRAINT hindsight_entity_key IF NOT EXISTS "
    "FOR (e:Entity) REQUIRE (e.ns, e.tenant, e.key) IS UNIQUE",
    "CREATE CONSTRAINT hindsight_user_key IF NOT EXISTS "
    "FOR (u:User) REQUIRE (u.ns, u.tenant, u.id) IS UNIQUE",
    "CREATE CONSTRAINT hindsight_session_key IF NOT EXISTS "
    "FOR (s:Session) REQUIRE (s.ns, s.tenant, s.user, s.id) IS UNIQUE",
    "CREATE CONSTRAINT hindsight_position_key IF NOT EXISTS "
    "FOR (p:ProjectionPosition) REQUIRE (p.ns, p.name, p.key) IS UNIQUE",
    "CREATE INDEX hindsight_doc_scope IF NOT EXISTS FOR (d:Doc) ON (d.ns, d.tenant, d.user, d.session)",
)

_WRITE_DOCS = """
UNWIND $docs AS row
MERGE (d:Doc {ns: $ns, tenant: row.tenant, id: row.id})
SET d += row.props
REMOVE d.stub
FOREACH (_ IN CASE WHEN row.label = 'Interaction' THEN [1] ELSE [] END | SET d:Interaction)
FOREACH (_ IN CASE WHEN row.label = 'Memory' THEN [1] ELSE [] END | SET d:Memory)
FOREACH (_ IN CASE WHEN row.label = 'Summary' THEN [1] ELSE [] END | SET d:Summary)
WITH d, row
CALL (d) {
  MATCH (d)-[r:MENTIONS|IN_SESSION|DERIVED_FROM|SUPERSEDES]->()
  DELETE r
}
MERGE (u:User {ns: $ns, tenant: row.tenant, id: row.props.user})
MERGE (s:Session {ns: $ns, tenant: row.tenant, user: row.props.user, id: row.props.session})
MERGE (s)-[:OF_USER]->(u)
MERGE (d)-[:IN_SESSION]->(s)
"""
_WRITE_MENTIONS = """
UNWIND $rows AS row
MATCH (d:Doc {ns: $ns, tenant: row.tenant, id: row.id})
MERGE (e:Entity {ns: $ns, tenant: row.tenant, key: row.key})
ON CREATE SET e.name = row.name
MERGE (d)-[:MENTIONS]->(e)
"""
# Relationship types cannot be parameters: one statement per link type.
_WRITE_LINK = """
UNWIND $rows AS row
MATCH (d:Doc {ns: $ns, tenant: row.tenant, id: row.id})
MERGE (t:Doc {ns: $ns, tenant: row.tenant, id: row.target})
ON CREATE SET t.stub = true
MERGE (d)-[:%s]->(t)
"""
_WRITE_POSITION = """
UNWIND $rows AS row
MERGE (p:ProjectionPosition {ns: $ns, name: $name, key: row.key})
SET p.offset = CASE WHEN p.offset IS NULL OR p.offset < row.offset THEN row.offset ELSE p.offset END
"""
_NEIGHBOURS = """
UNWIND $seeds AS seed
MATCH (s:Doc {ns: $ns, tenant: $tenant, id: seed.id})
CALL (s) {
  MATCH (s)-[:MENTIONS]->(e:Entity) WHERE COUNT { (e)<-[:MENTIONS]-(:Doc) } <= $max_fanout
  MATCH (e)<-[:MENTIONS]-(n:Doc) RETURN n
  UNION
  MATCH (s)-[:IN_SESSION]->(x:Session) WHERE COUNT { (x)<-[:IN_SESSION]-(:Doc) } <= $max_fanout
  MATCH (x)<-[:IN_SESSION]-(n:Doc) RETURN n
}
WITH n, max(seed.matched) AS best
WHERE %s AND NOT n.id IN $seed_ids
RETURN n.payload AS payload, best
ORDER BY best DESC, n.ts DESC, n.id ASC
LIMIT $limit
"""


def scope_cypher(var: str, scope: Scope) -> tuple[str, dict[str, Any]]:
    """The WHERE conditions of ``scope`` on document ``var``: namespace and tenant
    always, stubs never, then the optional filters."""
    where = [f"{var}.ns = $ns", f"{var}.tenant = $tenant", f"{var}.payload IS NOT NULL"]
    params: dict[str, Any] = {"tenant": scope.tenant}
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            where.append(f"{var}.{name} = $scope_{name}")
            params[f"scope_{name}"] = value
    if scope.types:
        where.append(f"{var}.type IN $scope_types")
        params["scope_types"] = list(scope.types)
    if scope.since is not None:
        where.append(f"{var}.ts >= $scope_since")
        params["scope_since"] = scope.since.timestamp()
    if scope.until is not None:
        where.append(f"{var}.ts < $scope_until")
        params["scope_until"] = scope.until.timestamp()
    return " AND ".join(where), params


def _doc_row(item: GraphItem) -> dict[str, Any]:
    d = item.document
    props = {
        "user": d.user, "session": d.session, "agent": d.agent or "", "type": d.type,
        "ts": d.occurred_at.timestamp(), "payload": json.dumps(to_payload(d)),
    }
    return {"tenant": d.tenant, "id": d.id, "label": _LABELS.get(d.type, ""), "props": props}


class Neo4jGraph(NamespaceAliases, GraphStore):
    """The graph projection in one Neo4j database, inside one namespace.

    No I/O in the constructor (the factory stays sync): the driver connects, and the
    constraints are created, on the first call. ``database`` None is the server's
    default database.
    """

    def __init__(
        self,
        uri: str,
        *,
        user: str | None = None,
        password: str | None = None,
        namespace: str = DEFAULT_NAMESPACE,
        database: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        name: str = "graph",
        follow_alias: bool = True,
    ) -> None:
        if not namespace:
            raise ConfigurationError("the Neo4j graph namespace must not be empty")
        self._uri = uri
        self._auth = (user, password or "") if user else None
        self.namespace = namespace
        self._database = database
        self._timeout_s = timeout_s
        self._name = name
        self._driver: AsyncDriver | None = None
        self._schema_ready = False
        self._closed = False
        self._init_lock = asyncio.Lock()
        # The namespace alias (see the module docstring): resolved at most every ALIAS_TTL_S.
        self._follow_alias = follow_alias
        self._resolved: tuple[float, str] | None = None

    async def _ready(self) -> AsyncDriver:
        async with self._init_lock:
            if self._closed:
                raise ProjectionError("the graph store is closed")
            if self._driver is None:
                try:
                    self._driver = AsyncGraphDatabase.driver(
                        self._uri,
                        auth=self._auth,
                        connection_timeout=self._timeout_s,
                        connection_acquisition_timeout=self._timeout_s,
                        max_transaction_retry_time=self._timeout_s,
                        warn_notification_severity="OFF", notifications_min_severity="OFF",  # none sent
                    )
                except (ValueError, DriverError) as e:
                    raise ConfigurationError(f"bad Neo4j URI {self._uri!r}: {e}") from e
            if not self._schema_ready:
                driver = self._driver

                async def create() -> None:
                    async with driver.session(database=self._database) as session:
                        for statement in _SCHEMA:
                            try:
                                await (await session.run(statement)).consume()
                            except Neo4jError as e:
                                # Another process created it at the same moment: IF NOT EXISTS
                                # does not cover that race on a fresh server.
                                if e.code not in _CREATED_CONCURRENTLY:
                                    raise

                await self._bounded(create(), "schema set-up")
                self._schema_ready = True
            return self._driver

    async def _bounded(self, work: Awaitable[T], what: str) -> T:
        try:
            return await asyncio.wait_for(work, self._timeout_s)
        except TimeoutError as e:
            raise ProjectionError(f"neo4j {what} timed out after {self._timeout_s}s") from e
        except (Neo4jError, DriverError, OSError) as e:
            raise ProjectionError(f"neo4j {what} failed: {type(e).__name__}: {e}") from e

    async def _tx(
        self, write: bool, fn: Callable[[AsyncManagedTransaction], Awaitable[T]], what: str
    ) -> T:
        driver = await self._ready()
        work = unit_of_work(timeout=self._timeout_s)(fn)

        async def run() -> T:
            async with driver.session(database=self._database) as session:
                if write:
                    return await session.execute_write(work)
                return await session.execute_read(work)

        return await self._bounded(run(), what)

    async def _read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        ns = await self.live_namespace()

        async def fn(tx: AsyncManagedTransaction) -> list[dict[str, Any]]:
            result = await tx.run(query, ns=ns, **params)
            return await result.data()

        return await self._tx(False, fn, "read")

    async def live_namespace(self) -> str:
        """The namespace the configured one is an alias of (itself when no alias node
        names it, or with ``follow_alias=False``), cached for ``ALIAS_TTL_S``."""
        if not self._follow_alias:
            return self.namespace
        now = time.monotonic()
        if self._resolved is not None and now - self._resolved[0] < ALIAS_TTL_S:
            return self._resolved[1]
        target = await self.alias_target()
        self._resolved = (now, target or self.namespace)
        return self._resolved[1]

    async def upsert(self, items: Sequence[GraphItem], position: Position) -> None:
        # Each document once, in its last state (as the SQLite graph, item by item): a union
        # of a batch's items of one document made the graph depend on where batches were cut.
        items = list({(i.document.tenant, i.document.id): i for i in items}.values())
        docs = [_doc_row(i) for i in items]
        mentions: dict[tuple[str, str, str], str] = {}
        for i in items:
            for name in i.entities:
                key = entity_key(name)
                if key:
                    mentions.setdefault((i.document.tenant, i.document.id, key), name)
        mention_rows = [{"tenant": t, "id": d, "key": k, "name": n} for (t, d, k), n in mentions.items()]
        links = {
            rel: [
                {"tenant": i.document.tenant, "id": i.document.id, "target": target}
                for i in items
                for target in dict.fromkeys(getattr(i, attr))
                if target != i.document.id
            ]
            for rel, attr in (("DERIVED_FROM", "derived_from"), ("SUPERSEDES", "supersedes"))
        }
        rows = [{"key": k, "offset": v} for k, v in position.items()]

        ns = await self.live_namespace()

        async def fn(tx: AsyncManagedTransaction) -> None:
            if docs:
                await (await tx.run(_WRITE_DOCS, ns=ns, docs=docs)).consume()
            if mention_rows:
                await (await tx.run(_WRITE_MENTIONS, ns=ns, rows=mention_rows)).consume()
            for rel, link_rows in links.items():
                if link_rows:
                    await (await tx.run(_WRITE_LINK % rel, ns=ns, rows=link_rows)).consume()
            if rows:
                await (await tx.run(_WRITE_POSITION, ns=ns, name=self._name, rows=rows)).consume()

        await self._tx(True, fn, "upsert")

    async def search(
        self, scope: Scope, entities: Sequence[str], k: int, hops: int = 1
    ) -> list[Hit]:
        check_hops(hops)
        keys = list(entity_keys(entities))
        if not keys or k <= 0:
            return []
        where, params = scope_cypher("d", scope)
        seeds = await self._read(
            "MATCH (e:Entity) WHERE e.ns = $ns AND e.tenant = $tenant AND e.key IN $keys "
            # Entities too common to discriminate are left out (see GraphStore.max_fanout).
            "AND COUNT { (e)<-[:MENTIONS]-(:Doc) } <= $max_fanout "
            f"MATCH (d:Doc)-[:MENTIONS]->(e) WHERE {where} "
            "WITH d, count(DISTINCT e) AS matched "
            "ORDER BY matched DESC, d.ts DESC, d.id ASC LIMIT $k "
            "RETURN d.id AS id, d.payload AS payload, matched",
            keys=keys, k=k, max_fanout=self.max_fanout, **params,
        )
        hits = [Hit(from_payload(json.loads(r["payload"])), float(r["matched"])) for r in seeds]
        if hops == 0 or not seeds or len(seeds) >= k:
            return hits
        n_where, n_params = scope_cypher("n", scope)
        rows = await self._read(
            _NEIGHBOURS % n_where,
            seeds=[{"id": r["id"], "matched": r["matched"]} for r in seeds],
            seed_ids=[r["id"] for r in seeds],
            limit=k - len(seeds),
            max_fanout=self.max_fanout,
            **n_params,
        )
        return hits + [
            Hit(from_payload(json.loads(r["payload"])), hop_score(int(r["best"]), len(keys)))
            for r in rows
        ]

    async def entities_of(self, tenant: str, doc_id: str) -> tuple[str, ...]:
        rows = await self._read(
            "MATCH (d:Doc {ns: $ns, tenant: $tenant, id: $id})-[:MENTIONS]->(e:Entity) "
            "WHERE e.ns = $ns AND e.tenant = $tenant RETURN e.key AS key ORDER BY key",
            tenant=tenant, id=doc_id,
        )
        return tuple(str(r["key"]) for r in rows)

    async def links_of(self, tenant: str, doc_id: str) -> GraphLinks:
        rows = await self._read(
            "MATCH (d:Doc {ns: $ns, tenant: $tenant, id: $id}) RETURN "
            "COLLECT { MATCH (d)-[:DERIVED_FROM]->(x:Doc) WHERE x.ns = $ns AND x.tenant = $tenant "
            "RETURN x.id ORDER BY x.id } AS derived_from, "
            "COLLECT { MATCH (d)-[:SUPERSEDES]->(x:Doc) WHERE x.ns = $ns AND x.tenant = $tenant "
            "RETURN x.id ORDER BY x.id } AS supersedes, "
            "COLLECT { MATCH (d)<-[:SUPERSEDES]-(x:Doc) WHERE x.ns = $ns AND x.tenant = $tenant "
            "RETURN x.id ORDER BY x.id } AS superseded_by",
            tenant=tenant, id=doc_id,
        )
        if not rows:
            return GraphLinks()
        r = rows[0]
        return GraphLinks(
            tuple(r["derived_from"]), tuple(r["supersedes"]), tuple(r["superseded_by"])
        )

    async def position(self) -> Position:
        rows = await self._read(
            "MATCH (p:ProjectionPosition) WHERE p.ns = $ns AND p.name = $name "
            "AND p.key IS NOT NULL RETURN p.key AS key, p.offset AS offset",
            name=self._name,
        )
        return {str(r["key"]): int(r["offset"]) for r in rows}

    async def count(self, tenant: str) -> int:
        rows = await self._read(
            # "d.id IS NOT NULL" lets the planner seek the (ns, tenant, id) index.
            "MATCH (d:Doc) WHERE d.ns = $ns AND d.tenant = $tenant AND d.id IS NOT NULL "
            "AND d.payload IS NOT NULL RETURN count(d) AS n",
            tenant=tenant,
        )
        return int(rows[0]["n"])

    async def ids(self, tenant: str) -> list[str]:
        rows = await self._read(
            "MATCH (d:Doc) WHERE d.ns = $ns AND d.tenant = $tenant AND d.id IS NOT NULL "
            "AND d.payload IS NOT NULL RETURN d.id AS id ORDER BY id",
            tenant=tenant,
        )
        return [str(r["id"]) for r in rows]

    async def purge_user(self, tenant: str, user: str) -> int:
        async def fn(tx: AsyncManagedTransaction) -> int:
            ns = self.namespace
            found = await (await tx.run(
                "MATCH (d:Doc) WHERE d.ns = $ns AND d.tenant = $tenant AND d.user = $user "
                "WITH collect(d) AS docs, count(d) AS n FOREACH (d IN docs | DETACH DELETE d) RETURN n",
                ns=ns, tenant=tenant, user=user)).single()
            await (await tx.run(
                "MATCH (n:Session|User) WHERE n.ns = $ns AND n.tenant = $tenant AND "
                "((n:Session AND n.user = $user) OR (n:User AND n.id = $user)) DETACH DELETE n",
                ns=ns, tenant=tenant, user=user)).consume()
            # Entities only the user's documents mentioned, and link stubs left unlinked.
            await (await tx.run(
                "MATCH (n:Entity|Doc) WHERE n.ns = $ns AND n.tenant = $tenant AND "
                "(n:Entity OR n.stub = true) AND NOT (n)--() DELETE n",
                ns=ns, tenant=tenant)).consume()
            return int(found["n"]) if found else 0

        return await self._tx(True, fn, "purge user")

    async def drop(self) -> None:
        """Delete every node of this namespace (a retired rebuild version, a test's
        data), in batches. The constraints stay: other namespaces use them. Raises
        ProjectionError."""
        driver = await self._ready()

        async def run() -> None:
            async with driver.session(database=self._database) as session:
                result = await session.run(
                    "MATCH (n:Doc|Entity|User|Session|ProjectionPosition) WHERE n.ns = $ns "
                    "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
                    ns=self.namespace,
                )
                await result.consume()

        await self._bounded(run(), "drop")

    async def close(self) -> None:
        async with self._init_lock:
            self._closed = True
            driver, self._driver = self._driver, None
        if driver is not None:
            try:
                await driver.close()
            except (Neo4jError, DriverError, OSError) as e:
                raise ProjectionError(f"closing the Neo4j driver failed: {e}") from e
