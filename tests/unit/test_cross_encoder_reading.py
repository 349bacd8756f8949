"""The cross-encoder's second reading of a turn: the end of the turn before it, then the turn."""

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from hindsight_common.ports.projection import Document
from hindsight_common.recall.cross_encoding import after_previous
from hindsight_common.recall.presets import PRESETS

T0 = datetime(2023, 5, 1, tzinfo=UTC)
QUESTION = "Bob: We spent the whole weekend repainting the hallway. Where did you end up going on your trip?"


def _turn(content: str, context: str = "") -> Document:
    return Document(id="d1", tenant="t1", user="ann", session="s1", type="episodic", speaker="Ann",
                    role="user", content=content, occurred_at=T0, context=context)


def test_a_turn_is_read_after_the_whole_turn_before_it() -> None:
    reply = _turn("Lisbon, it was lovely.")
    doc = _turn(reply.content, f"Bob: hi\n{QUESTION}\nAnn: Lisbon, it was lovely.\nBob: nice")
    assert after_previous(doc) == f"{QUESTION}\nAnn: Lisbon, it was lovely."


def test_the_turn_before_is_cut_to_its_last_characters() -> None:
    doc = _turn("Lisbon, it was lovely.", f"{QUESTION}\nAnn: Lisbon, it was lovely.")
    read = after_previous(doc, 40)
    assert read == f"{QUESTION[-40:]}\nAnn: Lisbon, it was lovely."
    assert read.startswith("Where did you end up going") and "weekend" not in read  # the question stays
    assert after_previous(doc, len(QUESTION) + 10) == after_previous(doc)  # shorter than the cut: whole


def test_a_first_turn_or_one_without_a_neighbourhood_is_read_alone() -> None:
    assert after_previous(_turn("Hello!"), 40) == "Ann: Hello!"
    assert after_previous(_turn("Hello!", "Ann: Hello!\nBob: hi"), 40) == "Ann: Hello!"


def test_balanced_cuts_the_turn_before_and_fast_reads_nothing_twice() -> None:
    assert PRESETS["balanced"].cross_encoder_context_chars == 100
    assert PRESETS["fast"].cross_encoder_top == 0


def _item(n: int, kind: str) -> tuple[Document, float]:
    doc = Document(id=f"d{n}", tenant="t1", user="ann", session="s1", type=kind, speaker="Ann",
                   role="user" if kind == "episodic" else "memory", content=f"text {n}", occurred_at=T0)
    return doc, 1.0 / (n + 1)


def test_memories_fused_among_the_top_turns_do_not_take_their_places() -> None:
    from dataclasses import replace

    from hindsight_common.recall.cross_encoding import pool_size

    top3 = replace(PRESETS["balanced"], cross_encoder_top=3)
    kinds = ["episodic", "semantic", "episodic", "summary", "semantic", "episodic", "episodic"]
    items = [_item(n, k) for n, k in enumerate(kinds)]
    assert pool_size(items, top3) == 6  # three turns, and the three memories between them
    assert pool_size(items[:4], top3) == 4  # fewer turns than N: every candidate
    assert pool_size([_item(n, "semantic") for n in range(10)], top3) == 6  # at most 2 N items
    assert pool_size(items, replace(top3, cross_encoder_counts_turns=False)) == 3  # N items of any kind


async def test_without_the_alone_reading_each_turn_is_read_once_after_the_one_before(tmp_path: Path) -> None:
    # The ablation ``balanced-no-alone_reading`` (LoCoMo: R@10 0.784 against 0.792 with
    # both readings, so balanced keeps both): half the pairs, each turn after the turn
    # before it, a turn with none before it alone; both readings otherwise.
    from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
    from hindsight_common.ports.reranker import Reranker
    from hindsight_common.recall.cross_encoding import cross_encode
    from hindsight_common.recall.presets import ablations

    class Recording(Reranker):
        def __init__(self) -> None:
            self.read: list[str] = []
            self.calls = 0

        @property
        def model_id(self) -> str:
            return "recording"

        async def score(self, query: str, passages: Sequence[str]) -> list[float]:
            self.read += passages
            self.calls += 1
            return [float("Lisbon" in p) for p in passages]

    first = replace(_turn("Where did you go?", "Ann: Where did you go?\nBob: Lisbon."), id="d1", speaker="Ann")
    reply = replace(_turn("Lisbon.", "Ann: Where did you go?\nBob: Lisbon."), id="d2", speaker="Bob")
    index = SqliteFtsIndex(tmp_path / "text.sqlite3")
    await index.upsert([first, reply], {"s#0": 1})
    try:
        head = [(first, 0.5), (reply, 0.4)]
        for preset, expected in ((PRESETS["balanced"], ["Ann: Where did you go?", "Bob: Lisbon.",
                                                         "Ann: Where did you go?\nBob: Lisbon."]),
                                 (ablations(PRESETS["balanced"])["balanced-no-alone_reading"],
                                  ["Ann: Where did you go?", "Ann: Where did you go?\nBob: Lisbon."])):
            reranker = Recording()
            ranked, ranks = await cross_encode(reranker, index, "Lisbon trip", "t1", preset, head)
            assert sorted(reranker.read) == sorted(expected), preset.name
            assert reranker.calls == 1  # both readings in one call: its runs share out the tokens
            assert [d.id for d, _ in ranked] == ["d2", "d1"] and [s for _, s in ranked] == [0.5, 0.4]
            assert ranks == {"d2": (1, ranks["d2"][1]), "d1": (2, ranks["d1"][1])}
    finally:
        await index.close()
