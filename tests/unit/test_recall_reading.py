"""Reading only the documents recall returns (``recall/reading.py``): the best k read, from
every store that found them, a document gone or refused replaced by the next, a store
whose read fails left out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from hindsight_common.errors import ProjectionError
from hindsight_common.ports.projection import Document
from hindsight_common.recall.reading import Reader, Source, read_best

T0 = datetime(2024, 5, 1, tzinfo=UTC)


def _doc(doc_id: str, content: str = "text") -> Document:
    return Document(id=doc_id, tenant="t1", user="ann", session="s1", type="episodic", speaker="Ann",
                    role="user", content=content, occurred_at=T0)


class Store:
    def __init__(self, docs: Sequence[Document], *, fails: bool = False) -> None:
        self.docs = {d.id: d for d in docs}
        self.asked: list[list[str]] = []
        self.fails = fails

    async def get(self, ids: Sequence[str]) -> list[Document]:
        self.asked.append(list(ids))
        if self.fails:
            raise ProjectionError("store down")
        return [self.docs[i] for i in ids if i in self.docs]


RANKED = [(f"d{n}", 1.0 / (n + 1)) for n in range(8)]


def _readers(**stores: Store) -> dict[str, Reader]:
    return {name: store.get for name, store in stores.items()}


async def test_only_the_best_k_are_read_each_from_every_store_that_found_it() -> None:
    vectors, text = Store([_doc(i) for i, _ in RANKED]), Store([_doc(i) for i, _ in RANKED])
    sources: dict[str, list[Source]] = {i: ["vectors", "text"] if n % 2 else ["vectors"]
                                        for n, (i, _) in enumerate(RANKED)}
    seen: list[list[str]] = []

    def keep(copies: list[Document]) -> bool:
        seen.append([c.id for c in copies])
        return True

    best, failed = await read_best(RANKED, sources, _readers(vectors=vectors, text=text), keep, 3)
    assert [(d.id, s) for d, s in best] == RANKED[:3] and failed == set()
    assert vectors.asked == [["d0", "d1", "d2"]] and text.asked == [["d1"]]
    assert seen == [["d0"], ["d1", "d1"], ["d2"]]  # every copy goes to the check


async def test_a_document_at_hand_is_not_read_again_and_comes_first() -> None:
    at_hand = _doc("d0", "from the graph path")
    text = Store([_doc("d0"), _doc("d1")])
    sources: dict[str, list[Source]] = {"d0": [at_hand, "text"], "d1": ["text"]}
    best, _ = await read_best(RANKED, sources, _readers(text=text), lambda copies: True, 2)
    assert [d.content for d, _ in best] == ["from the graph path", "text"]
    assert text.asked == [["d0", "d1"]]


async def test_a_refused_or_vanished_document_is_replaced_by_the_next_one() -> None:
    # d1 no longer in the store that found it (removed since the search); d2 fails the check
    # (a tampered copy): the next two in rank order are read in a second round.
    store = Store([_doc(i, "forged" if i == "d2" else "text") for i, _ in RANKED if i != "d1"])
    sources: dict[str, list[Source]] = {i: ["vectors"] for i, _ in RANKED}
    best, failed = await read_best(RANKED, sources, _readers(vectors=store),
                                   lambda copies: all(c.content != "forged" for c in copies), 3)
    assert [d.id for d, _ in best] == ["d0", "d3", "d4"] and failed == set()
    assert store.asked == [["d0", "d1", "d2"], ["d3", "d4"]]


async def test_a_copy_refused_in_one_store_drops_the_document_found_in_both() -> None:
    vectors = Store([_doc(i) for i, _ in RANKED])
    text = Store([_doc(i, "forged" if i == "d0" else "text") for i, _ in RANKED])
    sources: dict[str, list[Source]] = {i: ["vectors", "text"] for i, _ in RANKED}
    best, _ = await read_best(RANKED, sources, _readers(vectors=vectors, text=text),
                              lambda copies: all(c.content != "forged" for c in copies), 2)
    assert [d.id for d, _ in best] == ["d1", "d2"]


async def test_a_store_that_fails_is_named_and_only_what_it_alone_found_is_lost() -> None:
    vectors, text = Store([_doc(i) for i, _ in RANKED]), Store([], fails=True)
    sources: dict[str, list[Source]] = {"d0": ["text"], "d1": ["vectors", "text"], "d2": ["text"],
                                        "d3": ["vectors"], "d4": ["vectors"]}
    best, failed = await read_best(RANKED, sources, _readers(vectors=vectors, text=text), lambda c: True, 3)
    assert [d.id for d, _ in best] == ["d1", "d3", "d4"] and failed == {"text"}
    assert len(text.asked) == 1  # not asked again once it failed


async def test_fewer_candidates_than_k_gives_what_there_is() -> None:
    store = Store([_doc("d0")])
    best, _ = await read_best(RANKED[:2], {"d0": ["vectors"], "d1": ["vectors"]},
                              _readers(vectors=store), lambda c: True, 10)
    assert [d.id for d, _ in best] == ["d0"] and store.asked == [["d0", "d1"]]
    assert await read_best([], {}, _readers(vectors=store), lambda c: True, 10) == ([], set())
