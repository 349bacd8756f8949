"""The consumer loop's liveness and its supervisor (hindsight_common/consumer.py), over the
real SQLite log: what ``Consumer.health`` reports, and that a cancellation the task was not
asked for (a driver leaking one, as aiokafka's consumer stop does) restarts the loop instead
of ending it in silence."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.consumer import Consumer, supervise
from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.streams import INTERACTIONS


def turn(content: str) -> InteractionRecorded:
    return InteractionRecorded(tenant="t", user="u", session="s", speaker="Ann", role="user",
                               content=content, occurred_at=datetime(2024, 1, 1, tzinfo=UTC))


async def until(check: object, timeout_s: float = 10.0) -> None:
    async with asyncio.timeout(timeout_s):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.02)


async def test_a_stray_cancellation_restarts_the_loop_and_nothing_is_lost(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite3")
    seen: list[str] = []
    leaked = False

    async def handler(records: Sequence[LogRecord], position: Position) -> None:
        nonlocal leaked
        if not leaked:
            leaked = True
            raise asyncio.CancelledError  # as if a driver let one out mid-write
        seen.extend(r.event.content for r in records if r.event is not None)  # type: ignore[union-attr]

    consumer = Consumer(log, "project", [INTERACTIONS], handler, poll_timeout_s=0.05)
    stop = asyncio.Event()
    await log.append(INTERACTIONS, [turn("one"), turn("two")])
    task = asyncio.create_task(supervise(consumer, stop))
    try:
        await until(lambda: seen == ["one", "two"])  # redelivered: it was never committed
        assert not task.done()
        assert consumer.failure is None  # cleared by the next fetch
        await log.append(INTERACTIONS, [turn("three")])
        await until(lambda: seen == ["one", "two", "three"])
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
        await log.close()


async def test_health_reports_a_loop_that_stopped_fetching(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite3")
    release = asyncio.Event()

    async def handler(records: Sequence[LogRecord], position: Position) -> None:
        await release.wait()  # a write that hangs

    consumer = Consumer(log, "embed", [INTERACTIONS], handler, poll_timeout_s=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(supervise(consumer, stop))
    try:
        await consumer.ready.wait()
        await until(lambda: consumer.last_poll_at is not None)
        assert consumer.health(0.3) is None  # polling, nothing to do
        await log.append(INTERACTIONS, [turn("stuck")])
        await asyncio.sleep(0.5)
        problem = consumer.health(0.3)
        assert problem is not None and problem.startswith("embed: no fetch from the log has returned")
        release.set()
        await until(lambda: consumer.processed == 1)
        await until(lambda: consumer.health(0.3) is None)  # the next fetch returned
    finally:
        release.set()
        stop.set()
        await asyncio.wait_for(task, 10)
        await log.close()


async def test_health_reports_a_loop_that_keeps_failing(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite3")
    consumer = Consumer(log, "reflect", [INTERACTIONS], lambda records, position: asyncio.sleep(0))
    consumer.failed("PersistenceError: Kafka subscribe failed")
    consumer.failed("a later failure does not move the start")
    await asyncio.sleep(0.3)
    assert consumer.health(0.2) == "reflect: failing for 0 s: PersistenceError: Kafka subscribe failed"
    assert consumer.health(5.0) is None
    await log.close()
