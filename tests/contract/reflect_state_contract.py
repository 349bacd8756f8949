"""The contract every ReflectState adapter honours. Subclass it per adapter and provide
the ``state`` fixture (a fresh, empty store) and the ``reopen`` fixture (a new
instance over the same storage)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest

from hindsight_common.errors import PersistenceError
from hindsight_common.ports.reflect_state import ReflectState, SessionRef
from hindsight_common.ports.reflector import KnownMemory
from hindsight_common.reflection.offline import Turn

Reopen = Callable[[], Awaitable[ReflectState]]
ANN = SessionRef("t1", "ann", "s1", "agent-a")
T0 = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def turn(n: int, content: str | None = None, at: datetime | None = None) -> Turn:
    return Turn(
        event_id=f"e{n}", speaker="Ann", role="user", content=content or f"message {n}",
        occurred_at=at or T0 + timedelta(minutes=n), external_id=f"x{n}",
    )


def memory(n: int) -> KnownMemory:
    return KnownMemory(f"m{n}", "Ann", f"preference.k{n}", f"v{n}", f"Ann likes v{n}")


class ReflectStateContract:
    async def test_turns_read_back_oldest_first_and_are_idempotent(self, state: ReflectState) -> None:
        await state.add_turns([(ANN, turn(2)), (ANN, turn(1))])
        await state.add_turns([(ANN, turn(1, "a redelivery changes nothing")), (ANN, turn(3))])
        turns = await state.session_turns(ANN)
        assert turns == [turn(1), turn(2), turn(3)]
        assert await state.unreflected(ANN) == turns

    async def test_purge_user_forgets_everything_of_that_user_only(self, state: ReflectState) -> None:
        bob, other_tenant = SessionRef("t1", "bob", "s1"), SessionRef("t2", "ann", "s1")
        await state.add_turns([(ANN, turn(1)), (bob, turn(2)), (other_tenant, turn(3))])
        await state.set_summarized(ANN, 1)
        await state.remember("t1", "ann", [memory(1)])
        await state.remember("t1", "bob", [memory(2)])
        assert await state.purge_user("t1", "ann") == 3
        assert await state.purge_user("t1", "ann") == 0
        assert await state.session_turns(ANN) == [] and await state.pending_sessions("t1", "ann") == []
        assert await state.summarized(ANN) == 0 and await state.memories("t1", "ann") == []
        assert await state.session_turns(bob) == [turn(2)] and await state.memories("t1", "bob") == [memory(2)]
        assert await state.session_turns(other_tenant) == [turn(3)]

    async def test_turns_at_the_same_time_keep_their_arrival_order(self, state: ReflectState) -> None:
        await state.add_turns([(ANN, turn(n, at=T0)) for n in (5, 3, 4)])
        assert [t.event_id for t in await state.session_turns(ANN)] == ["e5", "e3", "e4"]

    async def test_mark_reflected_leaves_the_rest_pending(self, state: ReflectState) -> None:
        other = SessionRef("t1", "ann", "s2")
        await state.add_turns([(ANN, turn(1)), (ANN, turn(2)), (other, turn(3))])
        assert {s.session for s in await state.pending_sessions("t1", "ann")} == {"s1", "s2"}
        await state.mark_reflected(ANN, ["e1"])
        assert await state.unreflected(ANN) == [turn(2)]
        assert await state.session_turns(ANN) == [turn(1), turn(2)]
        await state.mark_reflected(ANN, ["e2"])
        assert await state.unreflected(ANN) == []
        assert await state.pending_sessions("t1", "ann") == [SessionRef("t1", "ann", "s2", None)]

    async def test_mark_reflected_remembers_what_was_learned_all_or_nothing(self, state: ReflectState) -> None:
        await state.add_turns([(ANN, turn(1)), (ANN, turn(2))])
        unwritable = KnownMemory("m9", "Ann", "k", "v", object())  # type: ignore[arg-type]  # not text: refused
        with pytest.raises((PersistenceError, AttributeError, TypeError)):
            await state.mark_reflected(ANN, ["e1"], [memory(1), unwritable])
        assert await state.unreflected(ANN) == [turn(1), turn(2)] and await state.memories("t1", "ann") == []
        await state.mark_reflected(ANN, ["e1"], [memory(1), memory(2)])
        await state.mark_reflected(ANN, ["e1"], [memory(1)])  # a re-run: idempotent
        assert await state.unreflected(ANN) == [turn(2)]
        assert await state.memories("t1", "ann") == [memory(1), memory(2)]

    async def test_pending_sessions_are_scoped_by_tenant_and_user(self, state: ReflectState) -> None:
        await state.add_turns([
            (ANN, turn(1)),
            (SessionRef("t2", "ann", "s1"), turn(2)),
            (SessionRef("t1", "bob", "s1"), turn(3)),
        ])
        assert await state.pending_sessions("t1", "ann") == [ANN]
        assert await state.session_turns(SessionRef("t2", "ann", "s1")) == [turn(2)]
        assert await state.pending_sessions("t3", "ann") == []

    async def test_idle_sessions_are_those_with_pending_turns_recorded_before(self, state: ReflectState) -> None:
        done = SessionRef("t1", "ann", "done")
        await state.add_turns([(ANN, turn(1)), (done, turn(2))])
        await state.mark_reflected(done, ["e2"])
        now = datetime.now(UTC)
        assert await state.idle_sessions(now - timedelta(hours=1)) == []
        assert await state.idle_sessions(now + timedelta(hours=1)) == [ANN]

    async def test_summary_coverage(self, state: ReflectState) -> None:
        assert await state.summarized(ANN) == 0
        await state.set_summarized(ANN, 10)
        await state.set_summarized(ANN, 25)
        assert await state.summarized(ANN) == 25
        assert await state.summarized(SessionRef("t2", "ann", "s1")) == 0

    async def test_memories_are_idempotent_ordered_and_scoped(self, state: ReflectState) -> None:
        await state.remember("t1", "ann", [memory(2), memory(1)])
        await state.remember("t1", "ann", [memory(1), memory(3)])
        assert await state.memories("t1", "ann") == [memory(2), memory(1), memory(3)]
        # The newest few, still oldest first (what reflect reads for each episode).
        assert await state.memories("t1", "ann", last=2) == [memory(1), memory(3)]
        assert await state.memories("t1", "ann", last=5) == [memory(2), memory(1), memory(3)]
        assert await state.memories("t1", "bob") == []
        assert await state.memories("t2", "ann") == []

    async def test_state_survives_reopen(self, state: ReflectState, reopen: Reopen) -> None:
        await state.add_turns([(ANN, turn(1)), (ANN, turn(2))])
        await state.mark_reflected(ANN, ["e1"])
        await state.set_summarized(ANN, 1)
        await state.remember("t1", "ann", [memory(1)])
        await state.close()
        again = await reopen()
        assert await again.unreflected(ANN) == [turn(2)]
        assert await again.summarized(ANN) == 1
        assert await again.memories("t1", "ann") == [memory(1)]

    async def test_close_is_idempotent_and_use_after_close_fails(self, state: ReflectState) -> None:
        await state.close()
        await state.close()
        with pytest.raises(PersistenceError):
            await state.session_turns(ANN)
