"""The one definition of "caught up" (services/hindsight_services/status.py), as a pure
function of the log heads and each consumer group's position."""

from __future__ import annotations

from hindsight_services.status import GROUPS, status_document

HEADS = {"hindsight.interactions.v1#0": 5, "hindsight.interactions.v1#1": 2,
         "hindsight.memories.v1#0": 3, "hindsight.control.v1#0": 1}


def test_every_group_is_behind_by_the_offsets_it_has_not_applied() -> None:
    positions = {
        "embed": {"hindsight.interactions.v1#0": 5, "hindsight.interactions.v1#1": 2, "hindsight.memories.v1#0": 3,
                  "hindsight.control.v1#0": 1},
        "project": {"hindsight.interactions.v1#0": 3, "hindsight.memories.v1#0": 3,
                    "hindsight.control.v1#0": 1},  # interactions #1 never applied
        "reflect": {"hindsight.interactions.v1#0": 5, "hindsight.interactions.v1#1": 2},  # control#0 missing
        "consolidate": {"hindsight.memories.v1#0": 3, "hindsight.control.v1#0": 1},
    }
    doc = status_document(HEADS, positions, {"embed": {"processed": 7}})
    c = doc["consumers"]
    assert set(c) == set(GROUPS)
    assert (c["embed"]["behind"], c["embed"]["caught_up"], c["embed"]["processed"]) == (0, True, 7)
    assert (c["project"]["behind"], c["project"]["caught_up"]) == (2 + 3, False)  # 3 -> 5, and 0..2
    assert (c["reflect"]["behind"], c["reflect"]["caught_up"]) == (2, False)  # control offsets 0 and 1
    assert c["consolidate"] == {"position": {"hindsight.memories.v1#0": 3, "hindsight.control.v1#0": 1},
                                "behind": 0, "caught_up": True}
    assert doc["log"] == HEADS and doc["caught_up"] is False


def test_caught_up_only_when_every_group_is() -> None:
    everything = {g: {k: v for k, v in HEADS.items() if k.rsplit("#", 1)[0] in s} for g, s in GROUPS.items()}
    assert status_document(HEADS, everything)["caught_up"] is True
    ahead = {g: {k: v + 1 for k, v in p.items()} for g, p in everything.items()}  # never negative
    assert all(c["behind"] == 0 for c in status_document(HEADS, ahead)["consumers"].values())
    assert status_document({}, {g: {} for g in GROUPS})["caught_up"] is True  # an empty log
