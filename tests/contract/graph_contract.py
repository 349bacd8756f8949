"""The contract of the graph projection. Subclass per adapter and provide the
``graph`` fixture (an open, empty store) and ``reopen`` (a new handle on the same data).

The fixture graph (tenant t1 unless said otherwise; entities given explicitly, so the
suite tests the store, not the extractor):

    i1  ann/s1  Pixel, Green Paws, Leeds     Jan 5
    i2  ann/s1  (no entities)                Jan 6   session neighbour of i1
    i3  ann/s2  Pixel, Roundhay Park         Feb 1
    i4  bob/s3  Leeds                        Mar 1
    i5  bob/s1  (no entities)                Mar 2   Bob's "s1" is not Ann's
    m1  ann/s2  Ann, Pixel (memory)          Feb 2   derived from i1, i3
    m2  ann/s2  Ann, Pixel (memory)          Feb 3   supersedes m1, derived from i3
    x1  t2: the same id as i1, Pixel         Jan 5   another tenant
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from hindsight_common.ports.graph import HOP_WEIGHT, GraphItem, GraphLinks, GraphStore, hop_score
from hindsight_common.ports.projection import Document, Scope

Reopen = Callable[[], Awaitable[GraphStore]]


def _id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"graph-contract:{name}"))


I1, I2, I3, I4, I5, M1, M2 = (_id(n) for n in ("i1", "i2", "i3", "i4", "i5", "m1", "m2"))


def _doc(doc_id: str, user: str, session: str, content: str, day: datetime, *,
         tenant: str = "t1", semantic: bool = False) -> Document:
    return Document(
        id=doc_id, tenant=tenant, user=user, session=session,
        type="semantic" if semantic else "episodic", speaker=user.title(),
        role="memory" if semantic else "user", content=content, occurred_at=day,
        event_ids=(doc_id,), stream="hindsight.interactions.v1", offset=1,
        kind="fact" if semantic else None, key="pet.name" if semantic else None,
        confidence=0.9 if semantic else None, tags=("pets",) if semantic else (),
    )


def keys(graph: GraphStore, tenant: str, *names: str) -> tuple[str, ...]:
    """What ``entities_of`` gives for these names: their keys (a sealed graph: tokens), sorted."""
    return tuple(sorted(graph.stored_keys(tenant, names)))


def _at(month: int, day: int) -> datetime:
    return datetime(2024, month, day, tzinfo=UTC)


def items() -> list[GraphItem]:
    return [
        GraphItem(_doc(I1, "ann", "s1", "I adopted Pixel from Green Paws in Leeds", _at(1, 5)),
                  ("Pixel", "Green Paws", "Leeds")),
        GraphItem(_doc(I2, "ann", "s1", "how is the weather", _at(1, 6))),
        GraphItem(_doc(I3, "ann", "s2", "Pixel loves Roundhay Park", _at(2, 1)), ("Pixel", "Roundhay Park")),
        GraphItem(_doc(I4, "bob", "s3", "we visited Leeds", _at(3, 1)), ("Leeds",)),
        GraphItem(_doc(I5, "bob", "s1", "nothing much", _at(3, 2))),
        GraphItem(_doc(M1, "ann", "s2", "Ann's dog is called Pixel", _at(2, 2), semantic=True),
                  ("Ann", "Pixel"), derived_from=(I3, I1)),
        GraphItem(_doc(M2, "ann", "s2", "Ann's greyhound is called Pixel", _at(2, 3), semantic=True),
                  ("Ann", "Pixel"), derived_from=(I3,), supersedes=(M1,)),
        GraphItem(_doc(I1, "ann", "s1", "Pixel in another tenant", _at(1, 5), tenant="t2"), ("Pixel",)),
    ]


T1_IDS = sorted({I1, I2, I3, I4, I5, M1, M2})
ALL = {"s#0": 8}


class GraphContract:
    async def found(self, graph: GraphStore, scope: Scope, entities: list[str], k: int = 10,
                    hops: int = 1) -> list[tuple[str, float]]:
        hits = await graph.search(scope, entities, k, hops)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True), "best first"
        assert all(h.document.tenant == scope.tenant for h in hits)
        return [(h.document.id, h.score) for h in hits]

    async def test_upsert_is_idempotent(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        before = await self.found(graph, Scope(tenant="t1"), ["Pixel", "Leeds"])
        await graph.upsert(items(), ALL)
        assert await graph.count("t1") == 7
        assert await graph.count("t2") == 1
        assert await graph.ids("t1") == T1_IDS
        assert await graph.entities_of("t1", I1) == keys(graph, "t1", "Green Paws", "Leeds", "Pixel")
        assert await self.found(graph, Scope(tenant="t1"), ["Pixel", "Leeds"]) == before
        assert await graph.links_of("t1", M1) == GraphLinks(tuple(sorted((I1, I3))), (), (M2,))

    async def test_rewriting_a_document_replaces_its_links(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        [m2] = [i for i in items() if i.document.id == M2]
        await graph.upsert([replace(m2, entities=("Biscuit",), supersedes=())], {"s#0": 9})
        assert await graph.entities_of("t1", M2) == keys(graph, "t1", "Biscuit")
        assert await graph.links_of("t1", M1) == GraphLinks(tuple(sorted((I1, I3))), (), ())
        assert M2 not in [i for i, _ in await self.found(graph, Scope(tenant="t1"), ["Ann"], hops=0)]
        assert await graph.count("t1") == 7

    async def test_two_writes_of_a_document_in_one_batch_leave_the_last(self, graph: GraphStore) -> None:
        # Where a batch is cut must not matter (a restart cuts the log elsewhere): the same
        # items in one batch leave what they leave one by one.
        await graph.upsert(items(), ALL)
        [m2] = [i for i in items() if i.document.id == M2]
        await graph.upsert([m2, replace(m2, entities=("Biscuit",), derived_from=(I1,), supersedes=())], {"s#0": 9})
        assert await graph.entities_of("t1", M2) == keys(graph, "t1", "Biscuit")
        assert await graph.links_of("t1", M2) == GraphLinks((I1,), (), ())
        assert await graph.links_of("t1", M1) == GraphLinks(tuple(sorted((I1, I3))), (), ())

    async def test_purge_user_deletes_that_users_documents_and_entities_only_they_named(
            self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        assert await graph.purge_user("t1", "ann") == 5
        assert await graph.purge_user("t1", "ann") == 0
        assert await graph.ids("t1") == sorted({I4, I5})
        assert await self.found(graph, Scope(tenant="t1"), ["Pixel", "Green Paws", "Ann"]) == []
        assert [i for i, _ in await self.found(graph, Scope(tenant="t1"), ["Leeds"], hops=0)] == [I4]
        assert await graph.entities_of("t1", I4) == keys(graph, "t1", "Leeds")
        assert await graph.count("t2") == 1
        assert await self.found(graph, Scope(tenant="t2"), ["Pixel"]) == [(I1, 1.0)]

    async def test_tenant_is_enforced_inside_the_adapter(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        assert await self.found(graph, Scope(tenant="t2"), ["Pixel", "Leeds", "Ann"]) == [(I1, 1.0)]
        [hit] = await graph.search(Scope(tenant="t2"), ["Pixel"], 10)
        assert hit.document.content == "Pixel in another tenant"
        t1 = await self.found(graph, Scope(tenant="t1"), ["Pixel"])
        assert {i for i, _ in t1} >= {I1, I3, M1, M2}
        assert await graph.search(Scope(tenant="nobody"), ["Pixel"], 10) == []
        assert await graph.entities_of("t2", I1) == keys(graph, "t2", "Pixel")
        assert await graph.entities_of("nobody", I1) == ()
        assert await graph.ids("nobody") == []

    async def test_more_matched_entities_rank_higher(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        got = await self.found(graph, Scope(tenant="t1"), ["Pixel", "Leeds", "Roundhay Park"], hops=0)
        # i1 and i3 match two each (newer first), then one each, newest first.
        assert got == [(I3, 2.0), (I1, 2.0), (I4, 1.0), (M2, 1.0), (M1, 1.0)]
        spelt = ["  PIXEL ", "roundhay   park"]
        assert await self.found(graph, Scope(tenant="t1"), spelt, k=1) == [(I3, 2.0)]

    async def test_documents_round_trip(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        hits = await graph.search(Scope(tenant="t1"), ["Roundhay Park"], 10, hops=0)
        assert [h.document for h in hits] == [items()[2].document]
        [memory] = await graph.search(Scope(tenant="t1", types=("semantic",)), ["Ann"], 1, hops=0)
        assert memory.document == items()[6].document

    async def test_a_quarantined_document_is_found_only_when_its_state_is_asked_for(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        m2 = next(i for i in items() if i.document.id == M2)
        held = replace(m2, document=replace(m2.document, type="quarantined", quarantine_score=0.8,
                                            quarantine_reasons=("conflict: contradicts a more trusted memory",)))
        await graph.upsert([held], {"s#0": 9})
        for hops in (0, 1):
            served = await self.found(graph, Scope(tenant="t1", types=("episodic", "semantic")), ["Ann"], hops=hops)
            assert M2 not in [i for i, _ in served] and M1 in [i for i, _ in served]
        [hit] = await graph.search(Scope(tenant="t1", types=("quarantined",)), ["Ann", "Pixel"], 10, hops=1)
        assert hit.document == held.document

    async def test_one_hop_reaches_neighbours_through_a_shared_entity(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        got = dict(await self.found(graph, Scope(tenant="t1"), ["Roundhay Park"]))
        assert got.pop(I3) == 1.0
        # i1, m1 and m2 share Pixel with i3 (m1 and m2 its session s2 as well); i4 is two
        # hops away (Leeds, via i1); i2 and i5 share nothing with i3.
        assert set(got) == {I1, M1, M2}
        assert set(got.values()) == {hop_score(1, 1)} and hop_score(1, 1) == HOP_WEIGHT
        assert await self.found(graph, Scope(tenant="t1"), ["Roundhay Park"], hops=0) == [(I3, 1.0)]

    async def test_one_hop_reaches_the_same_session_of_the_same_user(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        got = await self.found(graph, Scope(tenant="t1"), ["Green Paws", "Nowhere"])
        assert got[0] == (I1, 1.0)
        neighbours = dict(got[1:])
        # i2 shares no entity with i1, only Ann's session s1; Bob's s1 (i5) is another session.
        assert I2 in neighbours and I5 not in neighbours
        assert set(neighbours) == {I2, I3, I4, M1, M2}
        assert all(score == hop_score(1, 2) < 1 for score in neighbours.values())
        # Neighbours are ordered newest first among equals.
        assert list(neighbours) == [I4, M2, M1, I3, I2]

    async def test_neighbours_obey_the_scope_and_k(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        ann = await self.found(graph, Scope(tenant="t1", user="ann"), ["Green Paws"])
        assert {i for i, _ in ann} == {I1, I2, I3, M1, M2}
        memories = await self.found(graph, Scope(tenant="t1", types=("semantic",)), ["Roundhay Park", "Ann"])
        assert [i for i, _ in memories] == [M2, M1]
        window = Scope(tenant="t1", since=_at(2, 1), until=_at(3, 1))
        assert {i for i, _ in await self.found(graph, window, ["Leeds", "Pixel"])} == {I3, M1, M2}
        top3 = await self.found(graph, Scope(tenant="t1"), ["Green Paws"], k=3)
        assert [i for i, _ in top3] == [I1, I4, M2]
        assert await self.found(graph, Scope(tenant="t1"), ["Pixel"], k=2) == [(M2, 1.0), (M1, 1.0)]

    async def test_empty_queries_and_bad_hops(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        assert await graph.search(Scope(tenant="t1"), [], 10) == []
        assert await graph.search(Scope(tenant="t1"), ["", "  "], 10) == []
        assert await graph.search(Scope(tenant="t1"), ["Pixel"], 0) == []
        assert await graph.search(Scope(tenant="t1"), ["Atlantis"], 10) == []
        with pytest.raises(ValueError):
            await graph.search(Scope(tenant="t1"), ["Pixel"], 10, hops=2)

    async def test_derived_from_and_supersedes_are_recorded(self, graph: GraphStore) -> None:
        await graph.upsert(items(), ALL)
        assert await graph.links_of("t1", M2) == GraphLinks((I3,), (M1,), ())
        assert await graph.links_of("t1", M1) == GraphLinks(tuple(sorted((I1, I3))), (), (M2,))
        assert await graph.links_of("t1", I1) == GraphLinks()
        assert await graph.links_of("t2", M2) == GraphLinks()

    async def test_links_may_point_at_documents_not_written_yet(self, graph: GraphStore) -> None:
        later = _id("later")
        memory = GraphItem(_doc(_id("m3"), "ann", "s9", "early memory", _at(4, 1), semantic=True),
                           ("Pixel",), derived_from=(later,))
        await graph.upsert([memory], {"s#0": 1})
        assert await graph.ids("t1") == [memory.document.id]  # the target is not a document yet
        assert await graph.links_of("t1", memory.document.id) == GraphLinks((later,), (), ())
        await graph.upsert([GraphItem(_doc(later, "ann", "s9", "the source", _at(3, 31)), ("Leeds",))],
                           {"s#0": 2})
        assert await graph.ids("t1") == sorted([memory.document.id, later])
        assert await graph.links_of("t1", memory.document.id) == GraphLinks((later,), (), ())
        [hit] = await graph.search(Scope(tenant="t1"), ["Leeds"], 1)
        assert hit.document.content == "the source"

    async def test_position_is_recorded_and_survives_reopen(self, graph: GraphStore, reopen: Reopen) -> None:
        assert await graph.position() == {}
        await graph.upsert(items()[:3], {"s#0": 3, "m#0": 1})
        await graph.upsert(items()[3:], {"s#0": 8})
        await graph.upsert([], {"s#0": 5})  # an older position never moves it back
        await graph.close()
        await graph.close()  # idempotent
        again = await reopen()
        assert await again.position() == {"s#0": 8, "m#0": 1}
        assert await again.count("t1") == 7
        assert await again.ids("t1") == T1_IDS
        assert await again.entities_of("t1", I3) == keys(again, "t1", "Pixel", "Roundhay Park")

    async def test_entities_too_common_to_discriminate_are_ignored(self, graph: GraphStore) -> None:
        docs = [_fanout_doc(i) for i in range(4)]
        await graph.upsert([GraphItem(d, ("Ann",) if i < 3 else ("Ann", "Porto")) for i, d in enumerate(docs)],
                           {"s#0": 4})
        graph.max_fanout = 2  # "Ann" is in 4 documents: too common
        assert await graph.search(Scope(tenant="fan"), ["Ann"], 10, hops=0) == []
        found = await graph.search(Scope(tenant="fan"), ["Ann", "Porto"], 10, hops=0)
        assert [h.document.id for h in found] == [docs[3].id]
        graph.max_fanout = 100
        assert len(await graph.search(Scope(tenant="fan"), ["Ann"], 10, hops=0)) == 4

    async def test_one_hop_skips_entities_and_sessions_too_common_to_discriminate(
        self, graph: GraphStore
    ) -> None:
        # Entity hub: 0-3 each in a session of their own, all mention Ann; 3 also Porto.
        # Session hub: 4-7 share one session; only 7 mentions Lisbon.
        docs = [_fanout_doc(i, session=f"own{i}" if i < 4 else "big") for i in range(8)]
        names = [("Ann",)] * 3 + [("Ann", "Porto")] + [()] * 3 + [("Lisbon",)]
        await graph.upsert([GraphItem(d, n) for d, n in zip(docs, names, strict=True)], {"s#0": 8})
        scope = Scope(tenant="fan")
        graph.max_fanout = 3  # Ann (4 documents) and the shared session (4) are hubs
        assert [h.document.id for h in await graph.search(scope, ["Porto"], 10, hops=1)] == [docs[3].id]
        assert [h.document.id for h in await graph.search(scope, ["Lisbon"], 10, hops=1)] == [docs[7].id]
        graph.max_fanout = 100
        via_ann = await graph.search(scope, ["Porto"], 10, hops=1)
        assert [h.document.id for h in via_ann] == [docs[3].id, docs[2].id, docs[1].id, docs[0].id]
        via_session = await graph.search(scope, ["Lisbon"], 10, hops=1)
        assert [h.document.id for h in via_session] == [docs[7].id, docs[6].id, docs[5].id, docs[4].id]
        assert all(h.score == hop_score(1, 1) for h in via_ann[1:] + via_session[1:])


def _fanout_doc(i: int, session: str = "s") -> Document:
    return Document(id=f"00000000-0000-0000-0000-00000000000{i}", tenant="fan", user="u", session=session,
                    type="episodic", speaker="x", role="user", content=f"doc {i}",
                    occurred_at=datetime(2024, 1, 1, i, tzinfo=UTC))
