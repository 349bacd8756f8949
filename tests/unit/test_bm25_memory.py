"""The in-memory BM25 cache: writes while a user's index is being built, the memory
budget, and the renumbering of slots once rewrites leave most of them dead."""

from __future__ import annotations

from hindsight_common.adapters.bm25_memory import IndexedDoc, MemoryBm25, UserIndex


def doc(rowid: int, words: str, doc_type: str = "episodic") -> IndexedDoc:
    return IndexedDoc(rowid, doc_type, words.split(), (words + " context").split())


def test_writes_during_a_build_land_on_the_built_index() -> None:
    cache = MemoryBm25(1 << 30)
    key = ("t", "u")
    assert cache.claim_build(key) and not cache.claim_build(key)
    assert cache.search(key, "content", ["lake"], (), 5) is None  # not ready: the caller asks FTS5
    cache.apply(key, [doc(2, "lake lake")])  # came while the table was being read
    cache.remove(key, [1])
    read = UserIndex()
    read.apply([doc(1, "lake"), doc(3, "river")])  # what the build read
    cache.built(key, read)
    assert [r for r, _ in cache.search(key, "content", ["lake"], (), 5) or []] == [2]
    assert cache.stats()["documents"] == 2


def test_a_build_abandoned_or_overtaken_by_a_purge_leaves_nothing() -> None:
    cache = MemoryBm25(1 << 30)
    key = ("t", "u")
    assert cache.claim_build(key)
    cache.drop(key)  # purged while building
    cache.built(key, UserIndex())
    assert cache.search(key, "content", ["lake"], (), 5) is None and not cache.known(key)
    assert cache.claim_build(key)
    cache.abandon(key)
    assert cache.claim_build(key)  # the next search tries again


def test_over_budget_the_user_searched_longest_ago_goes_first() -> None:
    cache = MemoryBm25(1)  # every index is over budget: only the last one written stays
    for user in ("a", "b"):
        cache.start_empty(("t", user))
        cache.apply(("t", user), [doc(1, "lake")])
    assert cache.search(("t", "a"), "content", ["lake"], (), 5) is None
    assert [r for r, _ in cache.search(("t", "b"), "content", ["lake"], (), 5) or []] == [1]
    roomy = MemoryBm25(1 << 30)
    for user in ("a", "b"):
        roomy.start_empty(("t", user))
        roomy.apply(("t", user), [doc(1, "lake")])
    assert roomy.stats()["users"] == 2


def test_rewrites_renumber_slots_and_change_no_score() -> None:
    rewritten, fresh = UserIndex(), UserIndex()
    final = [doc(r, f"lake w{r % 50} river{r % 7}", "semantic" if r % 5 == 0 else "episodic") for r in range(1500)]
    for round_ in range(3):  # each document written three times (a neighbourhood rewritten)
        rewritten.apply(doc(r, f"old{round_} w{r % 50}") for r in range(1500))
    rewritten.apply(final)
    fresh.apply(final)
    assert rewritten.live == fresh.live == 1500
    assert len(rewritten._rowid.view()) < 3000  # the dead slots were dropped
    for terms in (["lake"], ["w7", "river3"], ["old1"], ["w7", "w7"]):
        for types in ((), ("semantic",)):
            for field in ("content", "context"):
                assert rewritten.search(field, terms, types, 40) == fresh.search(field, terms, types, 40)
    assert rewritten.search("content", ["old1"], (), 5) == []


def test_users_searched_with_nothing_to_hold_still_count_against_the_budget() -> None:
    cache = MemoryBm25(100_000)  # a caller asking for many users that have no documents
    for i in range(1_000):
        key = ("t", f"nobody-{i}")
        assert cache.claim_build(key)
        cache.built(key, UserIndex())
    assert 1 <= cache.stats()["users"] <= 50 and cache.stats()["bytes"] <= 100_000
