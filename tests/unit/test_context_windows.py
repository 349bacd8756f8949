"""Turn neighbourhoods for the text index: the same whatever the batches, and a
redelivered batch changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hindsight_common.context_windows import SessionKey, with_context
from hindsight_common.ports.projection import Document


def turn(i: int, session: str = "s1", kind: str = "episodic") -> Document:
    return Document(id=f"id{session}{i}", tenant="t", user="u", session=session, type=kind, speaker="Ann",
                    role="user", content=f"turn {i}", occurred_at=datetime(2024, 1, 1, tzinfo=UTC) + timedelta(minutes=i))


class Index:
    """The part of a text index ``with_context`` reads: a session's newest turns."""

    def __init__(self) -> None:
        self.docs: dict[str, Document] = {}

    def write(self, docs: list[Document]) -> None:
        self.docs.update((d.id, d) for d in docs)

    async def tail(self, key: SessionKey, n: int) -> list[Document]:
        found = [d for d in self.docs.values() if (d.tenant, d.user, d.session) == key and d.type == "episodic"]
        return sorted(found, key=lambda d: d.occurred_at, reverse=True)[:n]


async def build(batches: list[list[Document]]) -> dict[str, str]:
    index = Index()
    for batch in batches:
        index.write(await with_context(batch, index.tail))
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
    [out] = await with_context([memory], Index().tail)
    assert out == memory and out.context == ""
