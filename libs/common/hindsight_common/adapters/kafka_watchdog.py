"""Notices a Kafka consumer that has stopped making progress, for ``kafka_subscription``.

aiokafka recovers from most broker trouble by itself, but not from all: after an outage a
member can keep "fetching" nothing while the partitions it owns fill up. Whenever a fetch
brings nothing, at most every ``check_every_s``, the watchdog asks the brokers (through
the log's group-less reader) for the end offsets of the partitions this member owns and
compares them with where the member stands (the next offset after what it fetched, or
the group's committed offset when it has fetched nothing yet). Caught up, or records
arriving, counts as progress. Records waiting while nothing arrives for ``stall_after_s``
is a stall: the subscription then replaces its aiokafka consumer. While the brokers
cannot be reached at all, nothing is replaced (a new consumer could not join either);
when they answer again, aiokafka gets a full window to resume on its own first.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from aiokafka import TopicPartition

from hindsight_common.errors import PersistenceError

log = logging.getLogger(__name__)

EndOffsets = Callable[[list[TopicPartition], float], Awaitable[dict[TopicPartition, int]]]
ResumeAt = Callable[[TopicPartition], Awaitable[int]]


class Watchdog:
    def __init__(
        self,
        group: str,
        end_offsets: EndOffsets,
        resume_at: ResumeAt,
        *,
        stall_after_s: float = 30.0,
        check_every_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.group = group
        self._end_offsets = end_offsets
        self._resume_at = resume_at
        self.stall_after_s = stall_after_s
        self._check_every = min(5.0, stall_after_s / 3) if check_every_s is None else check_every_s
        self._clock = clock
        self._next: dict[TopicPartition, int] = {}  # next offset to read, where known
        self._progress_at = clock()
        self._checked_at = clock()
        self._behind = False
        self._unreachable: tuple[float, str] | None = None  # since, why

    def fetched(self, tp: TopicPartition, next_offset: int) -> None:
        self._next[tp] = next_offset
        self._progress_at = self._clock()

    def moved(self, tp: TopicPartition, next_offset: int) -> None:
        """The member was told to read ``tp`` from ``next_offset`` (a seek)."""
        self._next[tp] = next_offset

    def assigned(self, tps: set[TopicPartition]) -> None:
        """A rebalance gave this member ``tps``; where it resumes the new ones is the
        group's committed offset or a seek (``moved``), learnt at the next check."""
        self._next = {tp: n for tp, n in self._next.items() if tp in tps}
        self._progress_at = self._clock()

    async def stalled(self, assignment: set[TopicPartition]) -> bool:
        """After a fetch that brought nothing: True when the member should be rebuilt."""
        now = self._clock()
        if now - self._checked_at < self._check_every:
            return False
        self._checked_at = now
        if not assignment:
            # Nothing owned: nothing to fall behind on (another replica may own it all).
            self._progress_at, self._behind = now, False
            return False
        tps = sorted(assignment, key=lambda t: (t.topic, t.partition))
        try:
            ends = await self._end_offsets(tps, min(5.0, self.stall_after_s))
        except PersistenceError as e:
            if self._unreachable is None:
                log.warning("%s: Kafka does not answer: %s", self.group, e)
                self._unreachable = (now, str(e))
            return False
        if self._unreachable is not None:
            log.info("%s: Kafka answers again after %.0f s", self.group, now - self._unreachable[0])
            self._unreachable = None
            self._progress_at = now  # aiokafka may resume by itself: give it a window
        self._behind = False
        for tp in tps:
            try:
                at = self._next[tp] if tp in self._next else await self._resume_at(tp)
            except PersistenceError:
                self._behind = True  # the group coordinator does not answer this member
                break
            if ends[tp] > at:
                self._behind = True
                break
        if not self._behind:
            self._progress_at = now
            return False
        if now - self._progress_at < self.stall_after_s:
            return False
        self._progress_at = now  # the rebuilt consumer gets a full window of its own
        return True

    def problem(self) -> str | None:
        """Why the member cannot make progress, once that has lasted ``stall_after_s``;
        None while it is progressing, caught up, or not yet known to be stuck."""
        now = self._clock()
        if self._unreachable is not None and now - self._unreachable[0] >= self.stall_after_s:
            return f"Kafka has not answered for {now - self._unreachable[0]:.0f} s: {self._unreachable[1]}"
        if self._behind and now - self._progress_at >= self.stall_after_s:
            return (f"no records fetched for {now - self._progress_at:.0f} s while its partitions"
                    " have unread records")
        return None
