"""Turn neighbourhoods for the text index: the same whatever the batches and the order
they are applied in, and a redelivered batch changes nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hindsight_common.context_windows import SessionKey, no_neighbours, with_context
from hindsight_common.ports.projection import Document


def turn(i: int, session: str = "s1", kind: str = "episodic") -> Document:
    return Document(id=f"id{session}{i}", tenant="t", user="u", session=session, type=kind, speaker="Ann",
                    role="user", content=f"turn {i}", occurred_at=datetime(2024, 1, 1, tzinfo=UTC) + timedelta(minutes=i),
                    offset=i + (100 if session == "s2" else 1))


class Index:
    """The part of a text index ``with_context`` reads: a session's turns around offsets."""

    def __init__(self) -> None:
        self.docs: dict[str, Document] = {}
        self.reads = 0

    def write(self, docs: list[Document]) -> None:
        self.docs.update((d.id, d) for d in docs)

    async def turns(self, key: SessionKey, first: int, last: int, n: int) -> list[Document]:
        self.reads += 1
        found = sorted((d for d in self.docs.values()
                        if (d.tenant, d.user, d.session) == key and d.type == "episodic"), key=lambda d: d.offset)
        before = [d for d in found if d.offset < first][-n:] if n else []
        return before + [d for d in found if first <= d.offset <= last] + [d for d in found if d.offset > last][:n]


async def build(batches: list[list[Document]]) -> dict[str, str]:
    index = Index()
    for batch in batches:
        index.write(await with_context(batch, index.turns))
    return {i: d.context for i, d in index.docs.items()}


async def test_each_turn_sees_two_turns_either_side_of_it() -> None:
    contexts = await build([[turn(i) for i in range(6)]])
    assert contexts["ids13"] == "Ann: turn 1\nAnn: turn 2\nAnn: turn 3\nAnn: turn 4\nAnn: turn 5"
    assert contexts["ids10"] == "Ann: turn 0\nAnn: turn 1\nAnn: turn 2"
    assert contexts["ids15"] == "Ann: turn 3\nAnn: turn 4\nAnn: turn 5"


async def test_batches_and_redelivery_give_the_same_neighbourhoods() -> None:
    turns = [turn(i) for i in range(7)] + [turn(i, "s2") for i in range(3)]
    whole = await build([turns])
    one_by_one = await build([[t] for t in turns])
    redelivered = await build([turns[:4], turns[2:6], turns[6:], turns[5:]])
    assert whole == one_by_one == redelivered
    # Sessions never mix.
    assert "s2" not in whole["ids16"] and whole["ids20"] == "Ann: turn 0\nAnn: turn 1\nAnn: turn 2"


async def test_other_documents_pass_through() -> None:
    memory = turn(9, kind="semantic")
    [out] = await with_context([memory], Index().turns)
    assert out == memory and out.context == ""


async def test_a_turn_applied_late_takes_its_place_in_log_order() -> None:
    # A rebuild's drain applies turn 2 after the live worker wrote turns 3 and 4 into the
    # new version; an older batch redelivered after a newer one is the same case.
    turns = [turn(i) for i in range(7)]
    in_order = await build([turns[:3], turns[3:]])
    assert await build([turns[:2], turns[3:5], turns[2:3], turns[5:]]) == in_order
    assert await build([turns[4:], turns[:4], turns[1:3]]) == in_order
    assert in_order["ids12"] == "Ann: turn 0\nAnn: turn 1\nAnn: turn 2\nAnn: turn 3\nAnn: turn 4"


async def test_one_read_per_session_of_a_batch_and_the_whole_log_needs_none() -> None:
    index = Index()
    turns = [turn(i) for i in range(5)] + [turn(i, "s2") for i in range(5)]
    index.write(await with_context(turns, index.turns))
    assert index.reads == 2
    whole = {d.id: d.context for d in await with_context(turns, no_neighbours)}
    assert whole == {i: d.context for i, d in index.docs.items()}


async def test_a_turn_quarantined_in_the_batch_is_nobodys_neighbour() -> None:
    turns = [turn(i) for i in range(3)]
    held = replace(turns[1], type="quarantined")
    out = {d.id: d for d in await with_context([*turns, held], no_neighbours)}
    assert out["ids11"].type == "quarantined" and out["ids11"].context == ""
    assert out["ids12"].context == "Ann: turn 0\nAnn: turn 2"


def test_a_documents_quick_copy_is_replaces_and_refuses_unknown_fields() -> None:
    d = turn(3)
    copy = d.but(context="turn 2\nturn 3", offset=9)
    assert copy == replace(d, context="turn 2\nturn 3", offset=9) and copy is not d
    assert (d.context, d.offset) == ("", 4)  # the original is untouched
    try:
        d.but(contxt="x")
    except TypeError as e:
        assert "contxt" in str(e)
    else:
        raise AssertionError("an unknown field was accepted")
