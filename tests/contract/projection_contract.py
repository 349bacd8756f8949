"""The contracts of the vector and text projections. Subclass per adapter and
provide ``index`` and ``reopen`` fixtures (and ``embedder`` for vectors)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import (
    Browse, Document, Embedded, Scope, TextIndex, TextSearch, VectorIndex, VectorSearch,
)

TEXTS = [
    ("t1", "ann", "s1", "Ann", "I adopted a greyhound called Pixel", datetime(2024, 1, 5, tzinfo=UTC)),
    ("t1", "ann", "s2", "Ann", "My favourite food is spicy ramen", datetime(2024, 2, 5, tzinfo=UTC)),
    ("t1", "bob", "s3", "Bob", "I bought a red bicycle for commuting", datetime(2024, 3, 5, tzinfo=UTC)),
    ("t2", "ann", "s1", "Ann", "The greyhound Pixel belongs to another tenant", datetime(2024, 1, 6, tzinfo=UTC)),
]


def docs() -> list[Document]:
    return [
        Document(id=str(uuid.uuid5(uuid.NAMESPACE_URL, c)), tenant=t, user=u, session=s, type="episodic",
                 speaker=sp, role="user", content=c, occurred_at=at, external_id=f"x{i}",
                 event_ids=(str(uuid.uuid5(uuid.NAMESPACE_URL, c)),), external_ids=(f"x{i}",),
                 stream="hindsight.interactions.v1", offset=i + 1)
        for i, (t, u, s, sp, c, at) in enumerate(TEXTS)
    ]


class _Common:
    async def write(self, index: object, documents: list[Document], position: dict[str, int]) -> None:
        raise NotImplementedError

    async def search(self, index: object, scope: Scope, query: str, k: int = 10) -> list[Document]:
        raise NotImplementedError

    async def test_upsert_is_idempotent(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        await self.write(index, docs(), {"s#0": 4})
        assert await index.count("t1") == 3
        assert await index.count("t2") == 1
        assert await index.ids("t1") == sorted(d.id for d in docs() if d.tenant == "t1")

    async def test_upsert_replaces_every_field(self, index: VectorIndex | TextIndex) -> None:
        original = docs()[0]
        await self.write(index, [original], {"s#0": 1})
        changed = replace(original, type="forgotten", session="s9", content="greyhound tombstone")
        await self.write(index, [changed], {"s#0": 2})
        assert await self.search(index, Scope(tenant="t1", types=("episodic",)), "greyhound tombstone") == []
        [found] = await self.search(index, Scope(tenant="t1", types=("forgotten",), session="s9"), "greyhound tombstone")
        assert found == changed

    async def test_a_quarantined_document_is_served_only_to_who_asks_for_its_state(
        self, index: VectorIndex | TextIndex
    ) -> None:
        await self.write(index, docs(), {"s#0": 4})
        original = docs()[0]
        held = replace(original, type="quarantined", offset=5,
                       quarantine_reasons=("override: asks to drop earlier instructions",), quarantine_score=0.91)
        await self.write(index, [held], {"s#0": 5})
        served = Scope(tenant="t1", types=("episodic", "semantic"))  # what recall asks by default
        assert original.id not in [d.id for d in await self.search(index, served, "greyhound Pixel")]
        found = await self.search(index, Scope(tenant="t1", types=("episodic", "quarantined")), "greyhound Pixel")
        assert found[0] == held and found[0].quarantine_reasons and found[0].quarantine_score == 0.91
        assert await index.get("t1", [held.id]) == [held]  # a release looks it up by id
        await self.write(index, [replace(original, offset=6)], {"s#0": 6})  # released
        assert original.id in [d.id for d in await self.search(index, served, "greyhound Pixel")]

    async def test_purge_user_deletes_only_that_users_documents(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        assert await index.purge_user("t1", "ann") == 2
        assert await index.purge_user("t1", "ann") == 0  # idempotent
        assert await index.ids("t1") == [d.id for d in docs() if d.user == "bob"]
        assert await index.get("t1", [d.id for d in docs()[:2]]) == []
        assert await self.search(index, Scope(tenant="t1", user="ann"), "greyhound Pixel") == []
        assert [d.user for d in await self.search(index, Scope(tenant="t1"), "red bicycle")] == ["bob"]
        assert await index.count("t2") == 1  # the same user name in another tenant is someone else
        assert await index.position() == {"s#0": 4}

    async def test_tenant_is_enforced_inside_the_adapter(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        found = await self.search(index, Scope(tenant="t1"), "greyhound Pixel")
        assert found and all(d.tenant == "t1" for d in found)
        other = await self.search(index, Scope(tenant="t2"), "greyhound Pixel")
        assert [d.tenant for d in other] == ["t2"]
        assert await self.search(index, Scope(tenant="nobody"), "greyhound Pixel") == []

    async def test_scope_filters(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        by_user = await self.search(index, Scope(tenant="t1", user="bob"), "bicycle greyhound ramen")
        assert {d.user for d in by_user} == {"bob"}
        by_session = await self.search(index, Scope(tenant="t1", session="s2"), "ramen greyhound")
        assert [d.session for d in by_session] == ["s2"]
        in_time = await self.search(
            index, Scope(tenant="t1", since=datetime(2024, 2, 1, tzinfo=UTC), until=datetime(2024, 3, 1, tzinfo=UTC)),
            "ramen greyhound bicycle")
        assert [d.content for d in in_time] == ["My favourite food is spicy ramen"]
        assert await self.search(index, Scope(tenant="t1", types=("semantic",)), "greyhound") == []

    async def test_speaker_filter(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        by_bob = await self.search(index, Scope(tenant="t1", speakers=("Bob",)), "bicycle greyhound ramen")
        assert [d.speaker for d in by_bob] == ["Bob"]
        both = await self.search(index, Scope(tenant="t1", speakers=("Bob", "Ann")), "bicycle greyhound ramen")
        assert {d.speaker for d in both} == {"Ann", "Bob"}
        assert await self.search(index, Scope(tenant="t1", speakers=("Zed",)), "bicycle greyhound ramen") == []

    async def test_get_by_id_in_order_inside_the_tenant(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        first, second, third, other_tenant = docs()
        missing = str(uuid.uuid4())
        asked = [third.id, missing, first.id, other_tenant.id, "not-a-uuid", first.id]
        assert await index.get("t1", asked) == [third, first]
        assert await index.get("t2", [first.id, other_tenant.id]) == [other_tenant]
        assert await index.get("t1", []) == []

    async def test_documents_round_trip(self, index: VectorIndex | TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        [first, *_] = await self.search(index, Scope(tenant="t1", user="ann"), "greyhound Pixel", 1)
        expected = docs()[0]
        assert first == expected

    async def test_superseded_and_merged_memories_leave_the_live_scope(self, index: VectorIndex | TextIndex) -> None:
        # What consolidation writes (consolidation/lifecycle.py): the live memory with
        # its reinforcement and links, the replaced and the merged ones re-typed.
        ramen, greyhound, bicycle = (replace(d, type="semantic", role="memory", kind="fact", key="k.v",
                                             confidence=0.9) for d in docs()[:3])
        live = replace(greyhound, reinforced_count=2, last_reinforced_at=datetime(2024, 6, 1, 9, 30, tzinfo=UTC),
                       supersedes=(ramen.id,), merged_from=(bicycle.id,))
        old = replace(ramen, type="superseded", superseded_by=live.id)
        merged = replace(bicycle, type="merged", merged_into=live.id)
        await self.write(index, [live, old, merged], {"s#0": 3})
        query = "greyhound Pixel ramen bicycle"
        assert await self.search(index, Scope(tenant="t1", types=("semantic",)), query) == [live]
        found = await self.search(index, Scope(tenant="t1", types=("semantic", "superseded", "merged")), query)
        assert sorted(found, key=lambda d: d.id) == sorted([live, old, merged], key=lambda d: d.id)
        assert await index.get("t1", [old.id, merged.id, live.id]) == [old, merged, live]

    async def test_position_is_recorded_and_survives_reopen(
        self, index: VectorIndex | TextIndex, reopen: Callable[[], Awaitable[VectorIndex | TextIndex]]
    ) -> None:
        assert await index.position() == {}
        await self.write(index, docs()[:2], {"s#0": 2})
        await self.write(index, docs()[2:], {"s#0": 4})
        await index.close()
        again = await reopen()
        assert await again.position() == {"s#0": 4}
        assert await again.count("t1") == 3


class VectorContract(_Common):
    embedder: Embedder

    async def write(self, index: object, documents: list[Document], position: dict[str, int]) -> None:
        assert isinstance(index, VectorIndex)
        vectors = await self.embedder.embed([d.search_text for d in documents])
        await index.upsert([Embedded(d, v) for d, v in zip(documents, vectors, strict=True)], position)

    async def search(self, index: object, scope: Scope, query: str, k: int = 10) -> list[Document]:
        assert isinstance(index, VectorIndex)
        [vector] = await self.embedder.embed([query])
        hits = await index.search(scope, vector, k)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        return [h.document for h in hits]

    async def test_stored_vectors_by_id_inside_the_tenant(self, index: VectorIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        first, second, _, other_tenant = docs()
        expected = await self.embedder.embed([first.search_text, second.search_text])
        got = await index.vectors("t1", [second.id, first.id, other_tenant.id, str(uuid.uuid4()), "x"])
        assert set(got) == {first.id, second.id}
        for doc_id, want in zip((first.id, second.id), expected, strict=True):
            assert len(got[doc_id]) == len(want)
            assert sum(a * b for a, b in zip(got[doc_id], want, strict=True)) > 0.9999
        assert list(await index.vectors("t2", [first.id, other_tenant.id])) == [other_tenant.id]
        assert await index.vectors("t1", []) == {}

    async def test_other_models_counts_vectors_another_embedder_made(self, index: VectorIndex) -> None:
        first, second, third, other_tenant = docs()
        vectors = await self.embedder.embed([d.search_text for d in (first, second, third, other_tenant)])
        await index.upsert([Embedded(first, vectors[0], "model-a"), Embedded(second, vectors[1], "model-a"),
                            Embedded(third, vectors[2], "model-b"), Embedded(other_tenant, vectors[3], "")],
                           {"s#0": 4})
        assert await index.other_models("model-a") == (2, ["", "model-b"])  # every tenant
        assert await index.other_models("model-b") == (3, ["", "model-a"])
        await index.upsert([Embedded(d, v, "model-a") for d, v in zip((third, other_tenant), vectors[2:])],
                           {"s#0": 5})
        assert await index.other_models("model-a") == (0, [])

    async def test_searches_asked_at_once_are_each_searchs_hits(self, index: VectorIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        pet, food = await self.embedder.embed(["which pet does she own?", "what food"])
        asked = [VectorSearch(Scope(tenant="t1"), pet, 3), VectorSearch(Scope(tenant="t1", speakers=("Bob",)), pet, 3),
                 VectorSearch(Scope(tenant="t1", user="ann"), food, 1)]
        together = await index.search_many(asked)
        one_by_one = [await index.search(s.scope, s.vector, s.k) for s in asked]
        assert [[h.document for h in hits] for hits in together] == [[h.document for h in hits] for hits in one_by_one]
        assert [h.score for hits in together for h in hits] == \
            pytest.approx([h.score for hits in one_by_one for h in hits], abs=1e-4)
        assert [len(hits) for hits in together] == [3, 1, 1]
        found = await index.find_many(asked)  # ids first where the index can (its documents read or not)
        assert [[f.id for f in fs] for fs in found] == [[h.document.id for h in hits] for hits in together]
        assert [f.score for fs in found for f in fs] == pytest.approx([h.score for hits in together for h in hits],
                                                                     abs=1e-4)
        assert all(f.document in (None, h.document) for fs, hits in zip(found, together, strict=True)
                   for f, h in zip(fs, hits, strict=True))

    async def test_nearest_meaning_ranks_first(self, index: VectorIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        [best, *_] = await self.search(index, Scope(tenant="t1"), "which pet dog does she own?")
        assert "greyhound" in best.content


class TextContract(_Common):
    async def write(self, index: object, documents: list[Document], position: dict[str, int]) -> None:
        assert isinstance(index, TextIndex)
        await index.upsert(documents, position)

    async def search(self, index: object, scope: Scope, query: str, k: int = 10) -> list[Document]:
        assert isinstance(index, TextIndex)
        hits = await index.search(scope, query, k)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        return [h.document for h in hits]

    async def test_browsing_and_sessions_keep_a_quarantined_document_apart(self, index: TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        original = docs()[0]
        held = replace(original, type="quarantined", quarantine_reasons=("hidden: comment",), quarantine_score=0.8)
        await self.write(index, [held], {"s#0": 5})
        listed = await index.browse(Browse(Scope(tenant="t1", user="ann", types=("episodic",))))
        assert original.id not in [d.id for d in listed] and listed
        shown = await index.browse(Browse(Scope(tenant="t1", user="ann", types=("episodic", "quarantined"))))
        assert held in shown
        # Session context (and the turn neighbourhoods) never see it: its session's only turn.
        assert await index.session_documents("t1", "ann", "s1", 10) == []

    async def test_session_turns_around_offsets_in_log_order(self, index: TextIndex) -> None:
        base = docs()[0]

        def at(n: int, **changes: object) -> Document:
            # Times out of log order: a session's turns are ordered by their offsets.
            return replace(base, id=str(uuid.uuid4()), content=f"turn {n}", offset=n,
                           occurred_at=datetime(2024, 1, 20 - n, tzinfo=UTC), **changes)  # type: ignore[arg-type]

        turns = [at(n) for n in (1, 2, 3, 5, 8, 9, 11, 12)]
        others = [at(4, type="summary"), at(6, type="semantic"), at(7, type="quarantined"), at(10, session="s2"),
                  at(13, user="bob"), at(14, tenant="t2")]
        await self.write(index, [*others, *reversed(turns)], {"s#0": 14})

        async def around(first: int, last: int, n: int) -> list[str]:
            return [d.content for d in await index.session_turns("t1", "ann", "s1", first, last, n)]

        assert await around(5, 9, 2) == ["turn 2", "turn 3", "turn 5", "turn 8", "turn 9", "turn 11", "turn 12"]
        assert await around(6, 6, 1) == ["turn 5", "turn 8"]
        assert await around(1, 1, 0) == ["turn 1"]
        assert await around(20, 30, 3) == ["turn 9", "turn 11", "turn 12"]
        assert [d.tenant for d in await index.session_turns("t2", "ann", "s1", 1, 20, 4)] == ["t2"]

    async def test_browsing_shows_superseded_memories_only_when_asked(self, index: TextIndex) -> None:
        live, old = (replace(d, type="semantic", role="memory", kind="fact", key="k.v") for d in docs()[:2])
        old = replace(old, type="superseded", superseded_by=live.id)
        await self.write(index, [live, old], {"s#0": 2})
        assert await index.browse(Browse(Scope(tenant="t1", types=("semantic",)))) == [live]
        both = await index.browse(Browse(Scope(tenant="t1", types=("semantic", "superseded"))))
        assert both == [old, live]  # newest first

    async def test_keywords_match_with_stemming(self, index: TextIndex) -> None:
        await self.write(index, docs(), {"s#0": 4})
        [best, *_] = await self.search(index, Scope(tenant="t1"), "who adopts greyhounds?")
        assert "greyhound" in best.content
        assert await self.search(index, Scope(tenant="t1"), "what is it?") == []

    async def test_searches_asked_at_once_are_each_searchs_hits(self, index: TextIndex) -> None:
        reply = replace(docs()[0], context="Bob: Did you visit the old lighthouse?\nAnn: I adopted a greyhound")
        await self.write(index, [reply, *docs()[1:]], {"s#0": 4})
        asked = [TextSearch(Scope(tenant="t1"), "greyhound lighthouse ramen", 5),
                 TextSearch(Scope(tenant="t1"), "greyhound lighthouse ramen", 5, "context"),
                 TextSearch(Scope(tenant="t1", user="bob"), "bicycle", 5), TextSearch(Scope(tenant="t1"), "what is it?", 5)]
        together = await index.search_many(asked)
        one_by_one = [await index.search(s.scope, s.query, s.k, field=s.field) for s in asked]
        assert [[(h.document, h.score) for h in hits] for hits in together] == \
            [[(h.document, h.score) for h in hits] for hits in one_by_one]
        assert [len(hits) for hits in together] == [2, 1, 1, 0]
        found = await index.find_many(asked)  # ids first where the index can (its documents read or not)
        assert [[(f.id, f.score) for f in fs] for fs in found] == \
            [[(h.document.id, h.score) for h in hits] for hits in together]
        assert all(f.document in (None, h.document) for fs, hits in zip(found, together, strict=True)
                   for f, h in zip(fs, hits, strict=True))

    async def test_the_context_field_is_searched_on_its_own(self, index: TextIndex) -> None:
        # A turn whose topic is named only by its neighbours is found through its context.
        reply = replace(docs()[0], content="Yes, we went there on Friday!",
                        context="Bob: Did you visit the old lighthouse?\nAnn: Yes, we went there on Friday!")
        await self.write(index, [reply, *docs()[1:]], {"s#0": 4})
        assert await self.search(index, Scope(tenant="t1"), "lighthouse") == []
        hits = await index.search(Scope(tenant="t1"), "which lighthouse did they visit?", 5, field="context")
        assert [h.document for h in hits] == [reply]
        assert hits[0].score > 0
        # The context field keeps the tenant and scope rules of every search.
        assert await index.search(Scope(tenant="t2"), "lighthouse", 5, field="context") == []
