"""The synthetic stream of ``hindsight bench consolidate``: deterministic, in the stated
proportions, with a truth that names live targets, and scored as documented."""

from __future__ import annotations

import uuid

from hindsight_common.bench.consolidation import score, stream


def test_the_stream_is_deterministic_and_in_proportion() -> None:
    first, again = stream(2000, seed=3), stream(2000, seed=3)
    assert first.events == again.events and first.truth == again.truth
    assert stream(2000, seed=4).events != first.events
    actions = [first.truth[e.memory_id].action for e in first.events]
    assert 0.36 < actions.count("merge") / 2000 < 0.44
    assert 0.07 < actions.count("supersede") / 2000 < 0.13
    assert first.live == actions.count("new")


def test_every_target_is_live_when_it_is_named() -> None:
    data = stream(1500, seed=11)
    live: dict[tuple[str, str, str], uuid.UUID] = {}
    for e in data.events:
        slot, truth = (e.user, e.subject, e.key), data.truth[e.memory_id]
        if truth.action == "new":
            assert slot not in live
        else:
            assert truth.target == live[slot]
        if truth.action != "merge":
            live[slot] = e.memory_id
    restated = [e for e in data.events if data.truth[e.memory_id].action == "merge"]
    assert any(e.value != e.content for e in restated)  # paraphrases carry their own value text


def test_score_counts_pairs() -> None:
    a, b, c, d = (uuid.uuid4() for _ in range(4))
    s = score([(a, b), (c, d)], [(a, b), (b, c)])
    assert (s.precision, s.recall, s.made, s.expected) == (0.5, 0.5, 2, 2)
    assert score([], []).precision == 1.0 and score([], [(a, b)]).recall == 0.0
