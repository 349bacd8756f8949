"""The contract every Credentials adapter keeps (subclassed in test_credentials_adapters.py)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from hindsight_common.errors import InvalidInput, NotFound
from hindsight_common.ports.credentials import Credentials
from hindsight_common.security.credentials import key_matches, new_key

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class CredentialsContract(ABC):
    @abstractmethod
    def make(self) -> Credentials:
        """A fresh, empty store; called more than once per test to reopen the same one."""

    @pytest.fixture
    async def store(self) -> AsyncIterator[Credentials]:
        s = self.make()
        yield s
        await s.close()

    async def test_a_key_is_found_by_its_id_and_matches_only_its_secret(self, store: Credentials) -> None:
        key, record = new_key("acme", "read,write", T0, name="agent")
        await store.add(record)
        found = await store.find(record.key_id)
        assert found == record
        assert found is not None and key_matches(found, key)
        assert await store.find("0123456789ab") is None

    async def test_keys_are_listed_per_tenant_oldest_first(self, store: Credentials) -> None:
        made = []
        for n, tenant in enumerate(["acme", "globex", "acme"]):
            _, record = new_key(tenant, "read", T0 + timedelta(minutes=n))
            await store.add(record)
            made.append(record)
        assert [k.key_id for k in await store.list("acme")] == [made[0].key_id, made[2].key_id]
        assert [k.key_id for k in await store.list("globex")] == [made[1].key_id]
        assert [k.key_id for k in await store.list()] == [k.key_id for k in made]
        assert await store.list("initech") == []

    async def test_a_duplicate_key_is_refused(self, store: Credentials) -> None:
        _, record = new_key("acme", "read", T0)
        await store.add(record)
        with pytest.raises(InvalidInput):
            await store.add(record)
        _, other = new_key("acme", "read", T0)
        with pytest.raises(InvalidInput):  # another id, the same secret
            await store.add(replace(other, key_hash=record.key_hash))

    async def test_revoking_stamps_the_key_once_and_only_in_its_tenant(self, store: Credentials) -> None:
        _, record = new_key("acme", "read,admin", T0)
        await store.add(record)
        with pytest.raises(NotFound):
            await store.revoke(record.key_id, T0, tenant="globex")
        assert (await store.find(record.key_id)) == record  # untouched by the refused revoke
        revoked = await store.revoke(record.key_id, T0 + timedelta(hours=1), tenant="acme")
        assert revoked.revoked_at == T0 + timedelta(hours=1)
        again = await store.revoke(record.key_id, T0 + timedelta(hours=2))
        assert again.revoked_at == T0 + timedelta(hours=1)  # the first revocation stands
        assert (await store.find(record.key_id)) == revoked
        with pytest.raises(NotFound):
            await store.revoke("0123456789ab", T0)

    async def test_keys_survive_a_reopen(self, store: Credentials) -> None:
        _, record = new_key("acme", "erase", T0)
        await store.add(record)
        reopened = self.make()
        try:
            assert await reopened.find(record.key_id) == record
        finally:
            await reopened.close()
