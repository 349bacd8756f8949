"""The graph projection's port: documents, the entities they mention, and their links.

Nodes: users, sessions, documents (interactions, memories, summaries) and entities
(per tenant, keyed by :func:`hindsight_common.text.entities.entity_key`). Edges:
``MENTIONS`` document -> entity, ``IN_SESSION`` document -> session, ``OF_USER``
session -> user, ``DERIVED_FROM`` memory -> the events it was learned from, and
``SUPERSEDES`` memory -> the memories it replaces.

Adapters: ``adapters.sqlite_graph`` (embedded), ``adapters.neo4j_graph`` (cluster).
Both rank :meth:`GraphStore.search` with the rule below, so either can serve recall's
graph path:

- a document that mentions ``m`` of the query's entities scores ``m``;
- with ``hops=1``, a document that mentions none of them but shares an entity or a
  session (same tenant, user and session) with a directly matching document scores
  :func:`hop_score` (< 1, so every direct match ranks above every neighbour);
- ties: newer first (``occurred_at``), then by id.

A neighbour is only scored when fewer than ``k`` documents match directly; then every
direct match is in the result, so limiting the expansion to them changes nothing.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from hindsight_common.ports.log import Position
from hindsight_common.ports.projection import Document, Hit, Projection, Scope
from hindsight_common.text.entities import entity_keys

HOP_WEIGHT = 0.5
MAX_HOPS = 1


def hop_score(best_matched: int, query_entities: int) -> float:
    """A neighbour's score: ``HOP_WEIGHT`` times the share of the query's entities that
    its best-matching directly-matched neighbour mentions (so at most ``HOP_WEIGHT``)."""
    return HOP_WEIGHT * best_matched / max(query_entities, 1)


@dataclass(frozen=True)
class GraphItem:
    """One document as the graph stores it, with its outgoing links.

    ``entities`` are names (the adapter normalises them to keys); ``derived_from``
    holds the ids of the events a memory was learned from (interaction documents share
    their event's id); ``supersedes`` the ids of the memories it replaces.
    """

    document: Document
    entities: tuple[str, ...] = ()
    derived_from: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()


@dataclass(frozen=True)
class GraphLinks:
    """A document's provenance and supersession links, each sorted by id."""

    derived_from: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()
    superseded_by: tuple[str, ...] = ()


class GraphStore(Projection):
    """Entity graph projection (SQLite tables embedded, Neo4j in the cluster).

    ``count`` and ``ids`` (from :class:`Projection`) count documents only: not
    entities, users or sessions, nor documents known only as the target of a link.
    """

    @abstractmethod
    async def upsert(self, items: Sequence[GraphItem], position: Position) -> None:
        """Insert or replace ``items`` by (tenant, document id), with their links, and
        record ``position``, all in one transaction.

        A document's ``MENTIONS``, ``IN_SESSION``, ``DERIVED_FROM`` and ``SUPERSEDES``
        edges are replaced by the item's, so writing the same items again changes
        nothing (idempotent). Link targets need not exist yet (a memory may arrive
        before the interaction it came from). Durable on return. Raises
        ProjectionError.
        """

    #: Entities mentioned by more documents of the tenant than this are too common to
    #: tell documents apart (like stop words) and are left out of a search; without
    #: the cut a popular name turns every query into a scan of most of the graph. The
    #: one-hop expansion likewise skips entities and sessions linked to more documents.
    max_fanout: int = 2000

    @abstractmethod
    async def search(
        self, scope: Scope, entities: Sequence[str], k: int, hops: int = 1
    ) -> list[Hit]:
        """Up to ``k`` documents inside ``scope`` that mention any of ``entities``
        (names or keys; normalised here), plus, with ``hops=1``, their neighbours; best
        first, scored as the module docstring says. The tenant, and every other scope
        filter, is enforced inside the adapter, on matches and neighbours alike.

        Returns [] for no entities or ``k <= 0``. Raises ValueError when ``hops`` is
        not 0 or 1, ProjectionError when the store fails.
        """

    def stored_keys(self, tenant: str, names: Sequence[str]) -> tuple[str, ...]:
        """The keys :meth:`entities_of` gives for entities named ``names``: their
        normalised keys, or what a wrapper stores instead (``security.sealed_graph``:
        keyed tokens)."""
        return entity_keys(names)

    @abstractmethod
    async def entities_of(self, tenant: str, doc_id: str) -> tuple[str, ...]:
        """The entity keys document ``doc_id`` of ``tenant`` mentions, sorted; () for an
        unknown document. Raises ProjectionError."""

    @abstractmethod
    async def links_of(self, tenant: str, doc_id: str) -> GraphLinks:
        """What document ``doc_id`` of ``tenant`` was derived from, which memories it
        supersedes and which supersede it; empty links for an unknown document.
        Raises ProjectionError."""


def check_hops(hops: int) -> None:
    """Raise ValueError unless ``hops`` is one the adapters implement."""
    if not 0 <= hops <= MAX_HOPS:
        raise ValueError(f"hops must be between 0 and {MAX_HOPS}, got {hops}")
