"""The Kafka watchdog as a function of time, end offsets and what the member fetched
(adapters/kafka_watchdog.py): when it calls a member stalled, and what liveness hears."""

from __future__ import annotations

from aiokafka import TopicPartition

from hindsight_common.adapters.kafka_watchdog import Watchdog
from hindsight_common.errors import PersistenceError

TP = TopicPartition("hindsight.interactions.v1", 0)


class Brokers:
    """What the watchdog asks: end offsets (or an outage), the group's committed offset."""

    def __init__(self) -> None:
        self.ends = {TP: 0}
        self.committed = 0
        self.down = False
        self.asked = 0

    async def end_offsets(self, tps: list[TopicPartition], timeout_s: float) -> dict[TopicPartition, int]:
        self.asked += 1
        if self.down:
            raise PersistenceError("Kafka head failed: TimeoutError")
        return {tp: self.ends[tp] for tp in tps}

    async def resume_at(self, tp: TopicPartition) -> int:
        return self.committed


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def watchdog(brokers: Brokers, clock: Clock) -> Watchdog:
    return Watchdog("g", brokers.end_offsets, brokers.resume_at, stall_after_s=30, check_every_s=5, clock=clock)


async def test_a_caught_up_member_is_never_stalled() -> None:
    brokers, clock = Brokers(), Clock()
    dog = watchdog(brokers, clock)
    brokers.ends[TP] = brokers.committed = 40
    for _ in range(20):
        clock.now += 6
        assert not await dog.stalled({TP})
    assert dog.problem() is None


async def test_unread_records_and_no_progress_for_the_window_is_a_stall_once_per_window() -> None:
    brokers, clock = Brokers(), Clock()
    dog = watchdog(brokers, clock)
    dog.fetched(TP, 40)
    brokers.ends[TP] = 50  # ten records the member does not get
    verdicts = []
    for _ in range(12):
        clock.now += 6
        verdicts.append(await dog.stalled({TP}))
    assert verdicts == [False, False, False, False, True, False, False, False, False, True, False, False]
    clock.now += 25  # a full window again without progress
    problem = dog.problem()
    assert problem is not None and "unread records" in problem


async def test_records_arriving_are_progress() -> None:
    brokers, clock = Brokers(), Clock()
    dog = watchdog(brokers, clock)
    brokers.ends[TP] = 1000
    for offset in range(10, 200, 10):
        clock.now += 6
        dog.fetched(TP, offset)  # behind, but moving
        assert not await dog.stalled({TP})
    assert dog.problem() is None


async def test_where_a_member_resumes_comes_from_the_group_until_it_fetches() -> None:
    brokers, clock = Brokers(), Clock()
    dog = watchdog(brokers, clock)
    brokers.ends[TP], brokers.committed = 50, 50  # committed everything before a restart
    clock.now += 40
    assert not await dog.stalled({TP})
    dog.moved(TP, 0)  # a projection rebuilding from the start (a seek)
    for _ in range(5):
        clock.now += 6
        stalled = await dog.stalled({TP})
    assert stalled


async def test_an_outage_is_reported_but_never_rebuilt_and_the_return_gets_a_window() -> None:
    brokers, clock = Brokers(), Clock()
    dog = watchdog(brokers, clock)
    dog.fetched(TP, 10)
    brokers.ends[TP], brokers.down = 20, True
    for _ in range(10):
        clock.now += 6
        assert not await dog.stalled({TP})  # a new consumer could not join either
    problem = dog.problem()
    assert problem is not None and problem.startswith("Kafka has not answered for") and "TimeoutError" in problem
    brokers.down = False
    clock.now += 6
    assert not await dog.stalled({TP})  # back, still behind: aiokafka gets its window first
    assert dog.problem() is None
    for _ in range(4):
        clock.now += 6
        assert not await dog.stalled({TP})
    clock.now += 6
    assert await dog.stalled({TP})


async def test_checks_are_spaced_and_an_empty_assignment_is_not_a_stall() -> None:
    brokers, clock = Brokers(), Clock()
    dog = watchdog(brokers, clock)
    for _ in range(10):
        clock.now += 1
        await dog.stalled({TP})
    assert brokers.asked == 2  # every 5 s, not on every empty fetch
    for _ in range(20):
        clock.now += 6
        assert not await dog.stalled(set())
    assert dog.problem() is None
