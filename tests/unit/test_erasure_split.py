"""The SubjectErased split of a consumer batch (hindsight_common/erasure.py): records before
an erasure are handled with the position they reach, then the user is purged, then the
rest; so the erasure's offset is recorded only by a write after the purge."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from hindsight_common.erasure import erasing
from hindsight_common.events import Event, ReflectionRequested
from hindsight_common.events.erasure import SubjectErased
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.streams import CONTROL

AT = datetime(2024, 5, 1, tzinfo=UTC)


def record(offset: int, event: Event) -> LogRecord:
    return LogRecord(CONTROL, 0, offset, f"{event.tenant}/{event.user}", b"", event)


async def test_each_erasure_splits_the_batch_and_purges_in_order() -> None:
    calls: list[tuple[str, object]] = []

    async def handle(records: Sequence[LogRecord], position: Position) -> None:
        calls.append(("handle", ([r.offset for r in records], dict(position))))

    async def purge(tenant: str, user: str) -> None:
        calls.append(("purge", (tenant, user)))

    asked = [ReflectionRequested(tenant="t", user=u, occurred_at=AT) for u in ("ann", "bob", "ann")]
    batch = [record(1, asked[0]), record(2, SubjectErased(tenant="t", user="ann", occurred_at=AT, keys_destroyed=1)),
             record(3, asked[1]), record(4, SubjectErased(tenant="t", user="bob", occurred_at=AT, keys_destroyed=1)),
             record(5, asked[2])]
    await erasing(handle, purge, what="test")(batch, {"hindsight.control.v1#0": 5})
    assert calls == [
        ("handle", ([1], {"hindsight.control.v1#0": 1})), ("purge", ("t", "ann")),
        ("handle", ([3], {"hindsight.control.v1#0": 3})), ("purge", ("t", "bob")),
        ("handle", ([5], {"hindsight.control.v1#0": 5})),
    ]


async def test_a_batch_without_erasures_is_handled_as_it_came() -> None:
    seen: list[tuple[list[int], dict[str, int]]] = []

    async def handle(records: Sequence[LogRecord], position: Position) -> None:
        seen.append(([r.offset for r in records], dict(position)))

    async def purge(tenant: str, user: str) -> None:
        raise AssertionError("nothing to purge")

    batch = [record(7, ReflectionRequested(tenant="t", user="ann", occurred_at=AT))]
    await erasing(handle, purge, what="test")(batch, {"hindsight.control.v1#0": 9})
    assert seen == [([7], {"hindsight.control.v1#0": 9})]
