"""Tenant isolation under credentials, property-based (hypothesis), in embedded mode with
HINDSIGHT_AUTH=required: random tenants, users and memories, each tenant writing with its
own key and naming no tenant. No recall, browse or session context made with one tenant's
key ever returns another tenant's data (nor, with a user filter, another user's), whatever
it asks for; naming another tenant is refused; and each tenant does find its own data, so
the property is not met by returning nothing. ``tests/e2e/test_cluster.py`` checks the same
property against the six cluster processes (``check_isolation``)."""

from __future__ import annotations

import asyncio
import string
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from hindsight_common.ports.credentials import Credentials
from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from tests.integration.conftest import running

WORDS = ["orchid", "kayak", "violin", "glacier", "saffron", "lantern", "harbor", "meadow", "falcon", "quartz"]


@dataclass(frozen=True)
class Memory:
    tenant: str
    user: str
    marker: str  # a made-up word only this (tenant, user) ever says

    @property
    def content(self) -> str:
        return f"My {self.marker} reminds me of the old {WORDS[len(self.marker) % len(WORDS)]} by the sea."


names = st.text(alphabet=string.ascii_lowercase, min_size=3, max_size=8)


@st.composite
def worlds(draw: Any) -> list[Memory]:
    tenants = draw(st.lists(names, min_size=2, max_size=3, unique=True))
    users = draw(st.lists(names, min_size=1, max_size=2, unique=True))
    memories = []
    for t in tenants:
        for u in draw(st.lists(st.sampled_from(users), min_size=1, max_size=2, unique=True)):
            # Its number (fixed width) makes a marker point at one owner only.
            memories.append(Memory(t, u, f"zx{len(memories):03d}{draw(names)}"))
    return memories


def owner_of(content: str, world: list[Memory]) -> Memory | None:
    return next((m for m in world if m.marker in content), None)


async def check_isolation(client: httpx.AsyncClient, keys: dict[str, dict[str, str]], world: list[Memory],
                          wait: Callable[[], Awaitable[None]]) -> None:
    """Write ``world`` (each memory with its tenant's key, naming no tenant), ``wait`` until
    it is visible, then ask with every key for every memory and check the property."""
    for m in world:
        turn = {"user": m.user, "session": f"s-{m.user}", "speaker": m.user, "content": m.content}
        r = await client.post("/v1/interactions", json={"interactions": [turn]}, headers=keys[m.tenant])
        assert r.status_code == 201, r.text
    await wait()
    for tenant, headers in keys.items():
        others = [t for t in keys if t != tenant]
        for asked in world:  # every tenant's marker, asked with this tenant's key
            body = {"query": f"my {asked.marker}", "k": 20, "types": ["episodic"]}
            items = (await client.post("/v1/recall", json=body, headers=headers)).json()["items"]
            owners = {owner_of(i["content"], world) for i in items}
            assert all(o is not None and o.tenant == tenant for o in owners), (tenant, asked, owners)
            if asked.tenant == tenant:
                assert asked in owners, (tenant, asked)  # its own memory is found
            by_user = await client.post("/v1/recall", json={**body, "user": asked.user}, headers=headers)
            assert all(i["user"] == asked.user for i in by_user.json()["items"])
            refused = await client.post("/v1/recall", json={**body, "tenant": others[0]}, headers=headers)
            assert refused.status_code == 403
        page = await client.get("/v1/memories", params={"type": "episodic", "limit": 500}, headers=headers)
        listed = {owner_of(i["content"], world) for i in page.json()["items"]}
        assert listed == {m for m in world if m.tenant == tenant}
        for m in world:  # a session of every user: only this tenant's turns, never another's
            context = await client.get(f"/v1/sessions/s-{m.user}/context", params={"user": m.user},
                                       headers=headers)
            seen = {owner_of(t["content"], world) for t in context.json()["turns"]}
            assert seen == {o for o in world if o.tenant == tenant and o.user == m.user}


async def add_keys(store: Credentials, tenants: set[str]) -> dict[str, dict[str, str]]:
    """A read-write key per tenant, as the headers that send it."""
    keys = {}
    for tenant in sorted(tenants):
        key, record = new_key(tenant, ["read", "write"], now())
        await store.add(record)
        keys[tenant] = {"authorization": f"Bearer {key}"}
    return keys


async def check_world(world: list[Memory], data_dir: Path, embedder: Embedder) -> None:
    settings = Settings(data_dir=data_dir, auth="required", rate_limit_per_s=0, reranker="none",
                        access_flush_s=0)
    async with running(settings, embedder) as app:
        keys = await add_keys(app.application.state.auth.store, {m.tenant for m in world})
        await check_isolation(app.client, keys, world, app.runtime.wait_caught_up)


@hypothesis_settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(world=worlds())
def test_no_key_ever_sees_another_tenants_data(world: list[Memory], tmp_path_factory: Any, embedder: Embedder) -> None:
    asyncio.run(check_world(world, tmp_path_factory.mktemp("isolation") / "data", embedder))
