"""The KeyVault contract (ports/key_vault.py), run against every adapter."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from hindsight_common.ports.key_vault import KeyVault, WrappedKey

T0 = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def key(user: str, key_id: str, tenant: str = "acme") -> WrappedKey:
    return WrappedKey(tenant, user, key_id, f"wrapped-{key_id}".encode() + bytes([0, 255]), T0)


class KeyVaultContract(ABC):
    @abstractmethod
    def make(self) -> KeyVault: ...

    @pytest.fixture
    async def vault(self) -> AsyncIterator[KeyVault]:
        store = self.make()
        yield store
        await store.close()

    async def test_create_stores_a_key_and_keeps_the_first_one_per_user(self, vault: KeyVault) -> None:
        assert await vault.current("acme", "ann") is None
        first = await vault.create(key("ann", "k1"))
        assert first == key("ann", "k1")
        assert await vault.create(key("ann", "k2")) == first  # one live key per user
        assert await vault.current("acme", "ann") == first
        assert await vault.find("acme", "ann", "k1") == first
        assert await vault.find("acme", "ann", "k2") is None

    async def test_concurrent_creators_end_up_with_the_same_key(self, vault: KeyVault) -> None:
        made = await asyncio.gather(*(vault.create(key("ann", f"k{i}")) for i in range(8)))
        assert len({k.key_id for k in made}) == 1
        assert await vault.current("acme", "ann") == made[0]

    async def test_keys_are_scoped_by_tenant_and_user(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        await vault.create(key("ann", "k2", tenant="globex"))
        await vault.create(key("bob", "k3"))
        assert (await vault.current("globex", "ann")) == key("ann", "k2", tenant="globex")
        assert await vault.find("acme", "bob", "k1") is None  # another user's key id finds nothing
        assert await vault.find("globex", "ann", "k1") is None

    async def test_destroy_deletes_only_that_users_keys_for_good(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        await vault.create(key("ann", "k2", tenant="globex"))
        await vault.create(key("bob", "k3"))
        assert await vault.destroy("acme", "ann") == 1
        assert await vault.destroy("acme", "ann") == 0
        assert await vault.current("acme", "ann") is None
        assert await vault.find("acme", "ann", "k1") is None
        assert await vault.current("globex", "ann") == key("ann", "k2", tenant="globex")
        assert await vault.current("acme", "bob") == key("bob", "k3")
        # A new key after the erasure is a new one; the destroyed one never comes back.
        assert await vault.create(key("ann", "k4")) == key("ann", "k4")
        assert await vault.find("acme", "ann", "k1") is None

    async def test_keys_survive_a_reopen(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        again = self.make()
        try:
            assert await again.current("acme", "ann") == key("ann", "k1")
        finally:
            await again.close()

    async def test_every_key_lists_all_tenants_and_rewrap_replaces_only_the_bytes(self, vault: KeyVault) -> None:
        await vault.create(key("ann", "k1"))
        await vault.create(key("ann", "k2", tenant="globex"))
        await vault.create(key("bob", "k3"))
        assert await vault.every_key() == [key("ann", "k1"), key("bob", "k3"), key("ann", "k2", tenant="globex")]
        moved = [WrappedKey(k.tenant, k.user, k.key_id, b"rewrapped-" + k.key_id.encode(), k.created_at)
                 for k in (key("ann", "k1"), key("ann", "k2", tenant="globex"))]
        await vault.destroy("acme", "bob")
        # bob's key was destroyed before the rewrap reached it: it stays destroyed.
        gone = WrappedKey("acme", "bob", "k3", b"rewrapped-k3", T0)
        assert await vault.rewrap([*moved, gone]) == 2
        assert await vault.find("acme", "ann", "k1") == moved[0]
        assert await vault.current("globex", "ann") == moved[1]
        assert await vault.find("acme", "bob", "k3") is None
        assert await vault.rewrap([]) == 0
