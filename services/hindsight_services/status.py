"""One definition of "caught up", the same in both modes: what ``GET /v1/status`` answers.

Every consumer group of the six services is reported against the log heads of the streams
it reads, whether it runs in this process (embedded) or in another (the cluster gateway):
its position is the group's committed position read from the log
(``EventLog.group_position``), lowered to the position of each store it feeds that this
process can see (the vector index for embed, the text index and the graph for project,
the access counts for consolidate). A store being rebuilt from the log sits below its
group's committed offset until the rebuild has caught up, and recall reads the store, so
the lower of the two is what recall sees.

Per consumer: ``position`` (the last offset applied per ``<stream>#<partition>``),
``behind`` (offsets between the position and the heads, summed over partitions: records on
Kafka; an upper bound on the embedded log, whose offsets are shared by all streams) and
``caught_up`` (``behind`` is 0). Overall ``caught_up``: every consumer is caught up, so
every write acknowledged before the reading is visible to recall and has been reflected
on and consolidated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from hindsight_common.ports.log import EventLog, Position
from hindsight_services.consolidate import wiring as consolidate_wiring
from hindsight_services.embed import wiring as embed_wiring
from hindsight_services.project import wiring as project_wiring
from hindsight_services.project.wiring import min_position
from hindsight_services.reflect import wiring as reflect_wiring

#: Every consumer group and the streams it reads.
GROUPS: dict[str, tuple[str, ...]] = {
    embed_wiring.GROUP: tuple(embed_wiring.STREAMS),
    project_wiring.GROUP: tuple(project_wiring.STREAMS),
    reflect_wiring.GROUP: tuple(reflect_wiring.STREAMS),
    consolidate_wiring.GROUP: tuple(consolidate_wiring.STREAMS),
}


class Positioned(Protocol):
    """A store that records the log position it reflects (a projection, the access counts)."""

    async def position(self) -> Position: ...


def status_document(
    heads: Position, positions: Mapping[str, Position],
    extras: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The status document from the log ``heads`` and each group's ``positions`` (a pure
    function). ``extras`` adds fields to a group's entry (counters of a consumer that runs
    in this process)."""
    consumers: dict[str, dict[str, Any]] = {}
    for group, position in positions.items():
        streams = GROUPS.get(group, ())
        behind = sum(max(0, head - position.get(key, -1))
                     for key, head in heads.items() if key.rsplit("#", 1)[0] in streams)
        consumers[group] = {"position": dict(position), "behind": behind, "caught_up": behind == 0,
                            **(extras or {}).get(group, {})}
    return {"log": dict(heads), "consumers": consumers,
            "caught_up": all(c["caught_up"] for c in consumers.values())}


async def consumer_positions(log: EventLog, feeds: Mapping[str, Sequence[Positioned]]) -> dict[str, Position]:
    """Each group's committed position, lowered to what each store in ``feeds[group]`` holds.
    Raises PersistenceError, ProjectionError."""
    out: dict[str, Position] = {}
    for group, streams in GROUPS.items():
        held = [await store.position() for store in feeds.get(group, ())]
        out[group] = min_position(await log.group_position(group, streams), *held)
    return out


async def read_status(
    log: EventLog, feeds: Mapping[str, Sequence[Positioned]],
    extras: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The status document of this log, read now. Positions are read before the heads: a
    record appended in between (reflect's memories) shows as behind instead of being missed."""
    positions = await consumer_positions(log, feeds)
    heads: dict[str, int] = {}
    for stream in sorted({s for streams in GROUPS.values() for s in streams}):
        heads.update(await log.head(stream))
    return status_document(heads, positions, extras)
