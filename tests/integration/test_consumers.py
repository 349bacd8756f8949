"""Consumers: at-least-once, dead letters, retry on outages."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.consumer import Consumer
from hindsight_common.errors import ProjectionError
from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.log import LogRecord, Position
from hindsight_common.streams import INTERACTIONS, dead_letter_stream
from tests.integration.conftest import App


def turn(content: str) -> InteractionRecorded:
    return InteractionRecorded(tenant="t", user="u", session="s", speaker="Ann", role="user",
                               content=content, occurred_at=datetime(2024, 1, 1, tzinfo=UTC))


async def test_poison_record_goes_to_dead_letters_and_the_rest_flows(app: App) -> None:
    log = app.runtime.log
    await log.append(INTERACTIONS, [turn("before the poison")])
    await log.append_raw(INTERACTIONS, "t/u", b'{"type": "InteractionRecorded", "content": 7}')
    await log.append(INTERACTIONS, [turn("after the poison pill")])
    await app.runtime.wait_caught_up()
    for group in ("embed", "project"):
        [dead] = await log.read(dead_letter_stream(group))
        body = json.loads(dead.raw)
        assert body["consumer"] == group and body["offset"] == 2
        assert "invalid" in body["error"].lower() and '"content": 7' in body["payload"]
    assert await app.runtime.vectors.count("t") == 2
    assert await app.runtime.text.count("t") == 2
    r = await app.client.post("/v1/recall", json={"tenant": "t", "query": "after the poison pill"})
    assert r.json()["items"][0]["content"] == "after the poison pill"


class Flaky:
    """A handler whose projection is down for the first ``outages`` calls, and
    which cannot process one specific record (a bug-shaped failure)."""

    def __init__(self, outages: int, bad: str) -> None:
        self.outages = outages
        self.bad = bad
        self.applied: list[str] = []
        self.positions: list[Position] = []

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        if self.outages > 0:
            self.outages -= 1
            raise ProjectionError("index unavailable")
        contents = [r.event.content for r in records]  # type: ignore[union-attr]
        if self.bad in contents:
            raise ValueError("cannot handle this one")
        self.applied += contents
        self.positions.append(dict(position))


async def test_outages_are_retried_and_bad_records_isolated(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite3")
    await log.append(INTERACTIONS, [turn("a"), turn("bad"), turn("c")])
    handler = Flaky(outages=2, bad="bad")
    consumer = Consumer(log, "g", [INTERACTIONS], handler.handle, poll_timeout_s=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    for _ in range(200):
        if consumer.processed == 3:
            break
        await asyncio.sleep(0.02)
    stop.set()
    await task
    assert handler.applied == ["a", "c"]  # retried through the outage, nothing lost
    [dead] = await log.read(dead_letter_stream("g"))
    assert "cannot handle this one" in json.loads(dead.raw)["error"]
    assert handler.positions[-1] == {f"{INTERACTIONS}#0": 3}
    sub = await log.subscribe("g", [INTERACTIONS])
    assert await sub.committed() == {f"{INTERACTIONS}#0": 3}
    await log.close()


async def test_nothing_is_committed_before_the_write_succeeds(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite3")
    await log.append(INTERACTIONS, [turn("a")])
    handler = Flaky(outages=10_000, bad="")
    consumer = Consumer(log, "g", [INTERACTIONS], handler.handle, poll_timeout_s=0.05)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    await asyncio.sleep(0.3)
    stop.set()
    try:
        await asyncio.wait_for(task, 5)
    except ProjectionError:
        pass
    sub = await log.subscribe("g", [INTERACTIONS])
    assert await sub.committed() == {}
    assert len(await sub.fetch(10, 0.1)) == 1
    await log.close()


class CutAfterWrite:
    """A projecting handler that writes its documents and position, then notes the
    batch elsewhere (as the effect audit does); ``cut`` makes the note never happen,
    as a kill -9 between the two would."""

    def __init__(self) -> None:
        self.position: Position = {}
        self.noted: list[str] = []
        self.cut = False

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        self.position = dict(position)  # the projection's own write, with its position
        if self.cut:
            raise asyncio.CancelledError  # killed before the rest of the handler ran
        self.noted += [r.event.content for r in records]  # type: ignore[union-attr]

    async def resume(self) -> Position:
        return self.position


async def _run_until(consumer: Consumer, done: Callable[[], bool]) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    try:
        for _ in range(250):
            if done() or task.done():
                break
            await asyncio.sleep(0.02)
    finally:
        stop.set()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_a_batch_cut_after_the_projection_write_is_delivered_again(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite3")
    await log.append(INTERACTIONS, [turn("a"), turn("b")])
    handler = CutAfterWrite()
    first = Consumer(log, "g", [INTERACTIONS], handler.handle, resume_from=handler.resume,
                     not_past_commit=True, poll_timeout_s=0.05)
    await _run_until(first, lambda: handler.noted == ["a", "b"])
    await log.append(INTERACTIONS, [turn("c")])
    handler.cut = True
    cut = Consumer(log, "g", [INTERACTIONS], handler.handle, resume_from=handler.resume,
                   not_past_commit=True, poll_timeout_s=0.05)
    await _run_until(cut, lambda: False)  # "c" written to the projection, never noted nor committed
    assert handler.position == {f"{INTERACTIONS}#0": 3} and handler.noted == ["a", "b"]
    handler.cut = False

    # Resuming from the projection alone would skip "c" for good; capped by the commit, it comes again.
    skipping = Consumer(log, "other", [INTERACTIONS], handler.handle, resume_from=handler.resume,
                        poll_timeout_s=0.05)
    await _run_until(skipping, lambda: skipping.position.get(f"{INTERACTIONS}#0") == 3)
    assert handler.noted == ["a", "b"]
    again = Consumer(log, "g", [INTERACTIONS], handler.handle, resume_from=handler.resume,
                     not_past_commit=True, poll_timeout_s=0.05)
    await _run_until(again, lambda: handler.noted == ["a", "b", "c"])
    assert handler.noted == ["a", "b", "c"]
