"""The contract every AccessCounts adapter honours. Subclass it per adapter and provide
the ``make`` fixture: a function that opens an instance over the test's own storage
(empty at first). ``store`` is the first instance, ``reopen`` opens another; all are
closed after the test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from hindsight_common.errors import PersistenceError
from hindsight_common.ports.access import AccessCounts, AccessIncrement

Reopen = Callable[[], Awaitable[AccessCounts]]
M0 = "hindsight.memories.v1#0"
M1 = "hindsight.memories.v1#1"


def inc(offset: int, counts: dict[str, int], tenant: str = "t1", key: str = M0) -> AccessIncrement:
    return AccessIncrement(tenant, counts, key, offset)


class AccessContract:
    @pytest.fixture
    async def opened(self, make: Callable[[], AccessCounts]) -> AsyncIterator[list[AccessCounts]]:
        stores: list[AccessCounts] = []
        yield stores
        for st in stores:
            await st.close()

    @pytest.fixture
    def reopen(self, make: Callable[[], AccessCounts], opened: list[AccessCounts]) -> Reopen:
        async def again() -> AccessCounts:
            opened.append(make())
            return opened[-1]

        return again

    @pytest.fixture
    async def store(self, reopen: Reopen) -> AccessCounts:
        return await reopen()

    async def test_a_new_store_is_empty(self, store: AccessCounts) -> None:
        assert await store.position() == {}
        assert await store.get("t1", ["a", "b"]) == {}

    async def test_increments_add_up_and_missing_ids_are_absent(self, store: AccessCounts) -> None:
        await store.add([inc(0, {"a": 2, "b": 1}), inc(1, {"a": 1})], {M0: 1})
        await store.add([inc(3, {"a": 4, "c": 1})], {M0: 3})
        assert await store.get("t1", ["a", "b", "c", "never"]) == {"a": 7, "b": 1, "c": 1}
        assert await store.get("t1", []) == {}
        assert await store.position() == {M0: 3}

    async def test_a_redelivered_batch_counts_nothing_twice(self, store: AccessCounts) -> None:
        batch = [inc(4, {"a": 1}), inc(5, {"a": 2})]
        await store.add(batch, {M0: 5})
        await store.add(batch, {M0: 5})
        assert await store.get("t1", ["a"]) == {"a": 3}
        # A redelivery that overlaps: only the record past the stored position counts.
        await store.add([inc(5, {"a": 2}), inc(6, {"a": 10})], {M0: 6})
        assert await store.get("t1", ["a"]) == {"a": 13}

    async def test_positions_are_per_partition_and_never_move_back(self, store: AccessCounts) -> None:
        await store.add([inc(7, {"a": 1}, key=M0)], {M0: 7})
        await store.add([inc(2, {"a": 1}, key=M1)], {M1: 2})  # another partition: not a redelivery
        await store.add([], {M0: 3})
        assert await store.position() == {M0: 7, M1: 2}
        assert await store.get("t1", ["a"]) == {"a": 2}

    async def test_a_batch_without_counts_still_moves_the_position(self, store: AccessCounts) -> None:
        await store.add([], {M0: 9, M1: 4})
        assert await store.position() == {M0: 9, M1: 4}
        await store.add([inc(9, {"a": 1}), inc(10, {"b": 1})], {M0: 10})
        assert await store.get("t1", ["a", "b"]) == {"b": 1}

    async def test_tenants_are_isolated(self, store: AccessCounts) -> None:
        await store.add([inc(0, {"a": 1}, tenant="t1"), inc(1, {"a": 5}, tenant="t2")], {M0: 1})
        assert await store.get("t1", ["a"]) == {"a": 1}
        assert await store.get("t2", ["a"]) == {"a": 5}
        assert await store.get("t3", ["a"]) == {}

    async def test_counts_and_position_survive_a_reopen(self, store: AccessCounts, reopen: Reopen) -> None:
        await store.add([inc(0, {"a": 2}), inc(1, {"b": 1})], {M0: 1})
        await store.close()
        again = await reopen()
        assert await again.position() == {M0: 1}
        assert await again.get("t1", ["a", "b"]) == {"a": 2, "b": 1}
        await again.add([inc(1, {"b": 1})], {M0: 1})  # redelivery after a restart
        assert await again.get("t1", ["b"]) == {"b": 1}

    async def test_many_ids_in_one_read(self, store: AccessCounts) -> None:
        ids = [f"doc-{n}" for n in range(1200)]
        await store.add([inc(0, dict.fromkeys(ids, 1))], {M0: 0})
        got = await store.get("t1", ids)
        assert len(got) == 1200 and set(got.values()) == {1}

    async def test_deleted_counts_are_gone_and_the_position_stays(self, store: AccessCounts) -> None:
        ids = [f"doc-{n}" for n in range(600)]  # more than one chunk of parameters
        await store.add([inc(0, dict.fromkeys([*ids, "kept"], 1)), inc(1, {"doc-1": 2}, tenant="t2")], {M0: 1})
        await store.delete("t1", [*ids, "never-counted"])
        await store.delete("t1", ids)  # idempotent
        assert await store.get("t1", [*ids, "kept"]) == {"kept": 1}
        assert await store.get("t2", ["doc-1"]) == {"doc-1": 2}  # another tenant's are untouched
        assert await store.position() == {M0: 1}
        await store.delete("t1", [])

    async def test_a_closed_store_refuses_work(self, store: AccessCounts) -> None:
        await store.close()
        await store.close()  # idempotent
        with pytest.raises(PersistenceError):
            await store.get("t1", ["a"])
