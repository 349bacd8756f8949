"""The contract every EventLog adapter honours. Subclass it per adapter and
provide the ``log`` and ``reopen`` fixtures."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import pytest

from hindsight_common.errors import IdempotencyConflict
from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.log import EventLog, IdempotencyKey, position_key
from hindsight_common.streams import INTERACTIONS

Reopen = Callable[[], Awaitable[EventLog]]


def turn(user: str, content: str, tenant: str = "t1") -> InteractionRecorded:
    return InteractionRecorded(
        tenant=tenant, user=user, session="s", speaker=user, role="user", content=content,
        occurred_at=datetime(2024, 1, 1, tzinfo=UTC),
    )


class LogContract:
    async def test_append_then_read_in_order(self, log: EventLog) -> None:
        events = [turn("u1", f"m{i}") for i in range(5)]
        appended = await log.append(INTERACTIONS, events)
        assert [a.event_id for a in appended] == [e.event_id for e in events]
        offsets = [a.offset for a in appended]
        assert offsets == sorted(offsets) and len(set(offsets)) == 5
        records = await log.read(INTERACTIONS)
        assert [r.event for r in records] == events
        assert all(r.key == "t1/u1" for r in records)
        assert await log.head(INTERACTIONS) == {position_key(INTERACTIONS): offsets[-1]}

    async def test_read_after_offset_and_limit(self, log: EventLog) -> None:
        appended = await log.append(INTERACTIONS, [turn("u", f"m{i}") for i in range(6)])
        records = await log.read(INTERACTIONS, after=appended[1].offset, limit=3)
        assert [r.offset for r in records] == [a.offset for a in appended[2:5]]

    async def test_appends_are_durable_across_reopen(self, log: EventLog, reopen: Reopen) -> None:
        await log.append(INTERACTIONS, [turn("u", "kept")])
        await log.close()
        again = await reopen()
        [record] = await again.read(INTERACTIONS)
        assert isinstance(record.event, InteractionRecorded) and record.event.content == "kept"

    async def test_idempotent_retry_appends_nothing(self, log: EventLog) -> None:
        key = IdempotencyKey("t1", "batch-1", "fp-a")
        first = await log.append(INTERACTIONS, [turn("u", "once")], idempotency=key)
        second = await log.append(INTERACTIONS, [turn("u", "once")], idempotency=key)
        assert second == first
        assert len(await log.read(INTERACTIONS)) == 1

    async def test_idempotency_key_reuse_with_other_body_conflicts(self, log: EventLog) -> None:
        await log.append(INTERACTIONS, [turn("u", "a")], idempotency=IdempotencyKey("t1", "k", "fp-a"))
        with pytest.raises(IdempotencyConflict):
            await log.append(INTERACTIONS, [turn("u", "b")], idempotency=IdempotencyKey("t1", "k", "fp-b"))
        # Another tenant may use the same key.
        await log.append(INTERACTIONS, [turn("u", "c", "t2")], idempotency=IdempotencyKey("t2", "k", "fp-b"))
        assert [r.event.content for r in await log.read(INTERACTIONS)] == ["a", "c"]  # type: ignore[union-attr]

    async def test_poison_record_reads_back_with_an_error(self, log: EventLog) -> None:
        await log.append_raw(INTERACTIONS, "t1/u", b'{"type": "InteractionRecorded"}')
        [record] = await log.read(INTERACTIONS)
        assert record.event is None and record.error and "invalid" in record.error.lower()
        assert record.raw == b'{"type": "InteractionRecorded"}'

    async def test_subscription_resumes_after_commit_and_redelivers_the_rest(self, log: EventLog) -> None:
        await log.append(INTERACTIONS, [turn("u", f"m{i}") for i in range(4)])
        sub = await log.subscribe("g", [INTERACTIONS])
        batch = await sub.fetch(2, 1.0)
        assert len(batch) == 2
        await sub.commit(batch)
        assert len(await sub.fetch(10, 1.0)) == 2  # fetched but never committed
        await sub.close()
        again = await log.subscribe("g", [INTERACTIONS])
        rest = await again.fetch(10, 1.0)
        assert [r.event.content for r in rest] == ["m2", "m3"]  # type: ignore[union-attr]
        other = await log.subscribe("other-group", [INTERACTIONS])
        assert len(await other.fetch(10, 1.0)) == 4

    async def test_seek_to_an_empty_position_restarts_from_the_beginning(self, log: EventLog) -> None:
        await log.append(INTERACTIONS, [turn("u", f"m{i}") for i in range(3)])
        sub = await log.subscribe("g", [INTERACTIONS])
        await sub.commit(await sub.fetch(10, 1.0))
        await sub.seek({})
        assert len(await sub.fetch(10, 1.0)) == 3

    async def test_fetch_waits_for_new_records(self, log: EventLog) -> None:
        sub = await log.subscribe("g", [INTERACTIONS])
        assert await sub.fetch(10, 0.05) == []

        async def later() -> None:
            await asyncio.sleep(0.1)
            await log.append(INTERACTIONS, [turn("u", "late")])

        task = asyncio.create_task(later())
        records: list[object] = []
        for _ in range(50):
            records = list(await sub.fetch(10, 0.2))
            if records:
                break
        await task
        assert len(records) == 1

    async def test_a_groups_position_is_read_without_joining_it(self, log: EventLog) -> None:
        await log.append(INTERACTIONS, [turn("u", f"m{i}") for i in range(3)])
        assert await log.group_position("status-g", [INTERACTIONS]) == {}  # never committed
        sub = await log.subscribe("status-g", [INTERACTIONS])
        batch = await sub.fetch(2, 1.0)
        while len(batch) < 2:
            batch += await sub.fetch(2 - len(batch), 1.0)
        await sub.commit(batch)
        key = position_key(INTERACTIONS)
        assert await log.group_position("status-g", [INTERACTIONS]) == {key: batch[-1].offset}
        assert await log.group_position("status-g", [INTERACTIONS]) == await sub.committed()
        assert await log.group_position("status-g", ["hindsight.control.v1"]) == {}  # other streams only
        assert await log.group_position("another-group", [INTERACTIONS]) == {}
        await sub.close()
