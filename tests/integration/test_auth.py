"""Credentials on every interface, with HINDSIGHT_AUTH=required: every HTTP route, gRPC
method and MCP tool is walked without a key (401), with another tenant's key (403), with a
key that lacks the scope (403) and with the right key (neither). The routes, methods and
tools are enumerated from the app, the service descriptor and the MCP server, so a new one
that nobody added to the tables below fails the walk instead of escaping it."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import grpc
import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Route

from hindsight_client import AsyncHindsight
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.security.credentials import SCOPES, new_key
from hindsight_common.security.credentials_access import Authenticator, now
from hindsight_common.settings import Settings
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import SERVICE_NAME, build_server
from hindsight_services.ingest.handler import Ingest
from hindsight_services.mcp.handler import Gateway
from hindsight_services.mcp.server import TOOLS, McpSettings
from hindsight_services.mcp.server import build_server as build_mcp
from tests.integration.conftest import App, running
from tests.integration.test_grpc import Grpc, rpc  # noqa: F401 - the fixture

TENANT, OTHER = "acme", "globex"
TIMEOUT = 60

# Open without a key: health, the UI's static shell, the API description.
# /metrics is open like /healthz: Prometheus scrapes it without a key, and no metric carries
# a tenant, a user or content (hindsight_common/telemetry/metrics.py defines every label).
OPEN_ROUTES = {("GET", "/healthz"), ("GET", "/"), ("GET", "/ui"), ("GET", "/ui/"), ("GET", "/ui/{name}"),
               ("GET", "/openapi.json"), ("GET", "/docs"), ("GET", "/docs/oauth2-redirect"), ("GET", "/redoc"),
               ("GET", "/metrics")}
MEMORY = "00000000-0000-4000-8000-000000000001"
TURN = {"user": "ann", "session": "s1", "speaker": "Ann", "content": "I live in Lisbon and keep bees."}


@dataclass(frozen=True)
class Sample:
    """A valid request to one route: the scope it needs, and whether it names a tenant."""

    scope: str
    path: str
    json: dict[str, Any] | None = None
    params: dict[str, str] | None = None
    names_tenant: bool = True
    method: str | None = None  # default: POST with a body or for :revoke, else GET


def samples(revocable: str) -> dict[tuple[str, str], Sample]:
    t = {"tenant": TENANT}
    return {
        ("POST", "/v1/interactions"): Sample("write", "/v1/interactions", {"interactions": [{**TURN, **t}]}),
        ("POST", "/v1/sessions/{session}:close"): Sample("write", "/v1/sessions/s1:close", {"user": "ann", **t}),
        ("POST", "/v1/reflect"): Sample("write", "/v1/reflect", {"user": "ann", "session": "s1", **t}),
        ("POST", "/v1/memories/{memory_id}:forget"): Sample(
            "write", "/v1/memories/m1:forget", {"user": "ann", **t}),
        # Behind the write routes' key check; the release itself then needs the admin scope.
        ("POST", "/v1/memories/{memory_id}:release"): Sample(
            "admin", "/v1/memories/m1:release", {"user": "ann", **t}),
        ("POST", "/v1/recall"): Sample("read", "/v1/recall", {"query": "where does ann live", "user": "ann", **t}),
        ("GET", "/v1/sessions/{session}/context"): Sample(
            "read", "/v1/sessions/s1/context", params={"user": "ann", **t}),
        ("GET", "/v1/memories"): Sample("read", "/v1/memories", params={"user": "ann", **t}),
        ("GET", "/v1/memories/{memory_id}"): Sample("read", "/v1/memories/m1", params=t),
        ("GET", "/v1/memories/{memory_id}/history"): Sample("read", "/v1/memories/m1/history", params=t),
        ("GET", "/v1/status"): Sample("read", "/v1/status", names_tenant=False),
        ("GET", "/v1/admin/keys"): Sample("admin", "/v1/admin/keys", names_tenant=False),
        ("POST", "/v1/admin/keys"): Sample("admin", "/v1/admin/keys", {"scopes": ["read"], **t}),
        ("POST", "/v1/admin/keys/{key_id}:revoke"): Sample(
            "admin", f"/v1/admin/keys/{revocable}:revoke", names_tenant=False),
        ("GET", "/v1/admin/audit"): Sample("admin", "/v1/admin/audit", params={"limit": "5"}, names_tenant=False),
        ("DELETE", "/v1/users/{user}"): Sample("erase", "/v1/users/ann", params=t, method="DELETE"),
        **{("POST", f"/v1/memories/{{memory_id}}:{action}"): Sample(
            "write", f"/v1/memories/{MEMORY}:{action}", {"user": "ann", **t})
           for action in ("pin", "unpin", "restore", "expire")},
        ("POST", "/v1/consolidate"): Sample("write", "/v1/consolidate", {"user": "ann", "dry_run": True, **t}),
        # The embedded server's rebuild: admin; a projection it does not know is refused
        # after the key check (400), so the walk starts no rebuild.
        ("POST", "/v1/admin/rebuild"): Sample("admin", "/v1/admin/rebuild", {"projection": "none"},
                                              names_tenant=False),
        ("GET", "/v1/admin/rebuild"): Sample("admin", "/v1/admin/rebuild", names_tenant=False),
    }


@dataclass
class Keys:
    full: str  # every scope, tenant acme
    other_tenant: str  # every scope, tenant globex
    lacking: dict[str, str]  # scope -> an acme key with every scope but that one
    revocable_id: str  # an acme key for the revoke route to revoke

    def bearer(self, key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {key}"}


async def make_keys(auth: Authenticator) -> Keys:
    async def key(tenant: str, scopes: list[str]) -> str:
        secret, record = new_key(tenant, scopes, now())
        await auth.store.add(record)
        return secret

    _, revocable = new_key(TENANT, ["read"], now())
    await auth.store.add(revocable)
    return Keys(
        full=await key(TENANT, list(SCOPES)),
        other_tenant=await key(OTHER, list(SCOPES)),
        lacking={s: await key(TENANT, [o for o in SCOPES if o != s]) for s in SCOPES},
        revocable_id=revocable.key_id,
    )


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", auth="required", rate_limit_per_s=0)


@pytest.fixture
async def secured(app: App) -> tuple[App, Keys]:
    return app, await make_keys(app.application.state.auth)


def walk(routes: Sequence[BaseRoute], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) of every route, into included routers too."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from walk(included.routes, prefix + route.include_context.prefix)  # type: ignore[attr-defined]
            continue
        assert isinstance(route, (APIRoute, Route)), f"unexpected route type {route!r}"
        for method in route.methods or ():
            if method != "HEAD":
                yield method, prefix + getattr(route, "path_format", route.path)


def guarded_routes(app: App) -> set[tuple[str, str]]:
    return set(walk(app.application.routes)) - OPEN_ROUTES


def error(r: httpx.Response) -> str:
    body = r.json()
    assert set(body["error"]) == {"code", "message", "problems"}, body
    return str(body["error"]["message"])


async def send(app: App, s: Sample, headers: dict[str, str] | None = None) -> httpx.Response:
    method = s.method or ("POST" if s.json is not None or s.path.endswith(":revoke") else "GET")
    return await app.client.request(method, s.path, json=s.json, params=s.params, headers=headers or {})


async def test_every_http_route_needs_a_key_of_its_tenant_with_its_scope(secured: tuple[App, Keys]) -> None:
    app, keys = secured
    table = samples(keys.revocable_id)
    assert guarded_routes(app) == set(table), "a route is missing from this walk (or was removed)"
    for (method, path), s in table.items():
        where = f"{method} {path}"
        r = await send(app, s)
        assert r.status_code == 401, where
        assert "API key" in error(r) and r.headers["www-authenticate"].startswith("Bearer"), where
        for bad in ("Bearer not-a-key", "Basic abc", f"Bearer {keys.full[:-2]}xx"):
            assert (await send(app, s, {"authorization": bad})).status_code == 401, (where, bad)
        r = await send(app, s, keys.bearer(keys.lacking[s.scope]))
        assert r.status_code == 403, where
        assert f"'{s.scope}' scope" in error(r), where
        if s.names_tenant:
            r = await send(app, s, keys.bearer(keys.other_tenant))
            assert r.status_code == 403, where
            assert f"'{OTHER}'" in error(r) and f"'{TENANT}'" in error(r), where
    for (method, path), s in table.items():
        r = await send(app, s, keys.bearer(keys.full))
        assert r.status_code not in (401, 403), (method, path, r.text)
    for method, path in OPEN_ROUTES - {("GET", "/ui/{name}"), ("GET", "/docs/oauth2-redirect")}:
        r = await app.client.request(method, path)
        assert r.status_code in (200, 307), (method, path)


async def test_the_tenant_comes_from_the_key(secured: tuple[App, Keys]) -> None:
    app, keys = secured
    r = await app.client.post("/v1/interactions", json={"interactions": [TURN]}, headers=keys.bearer(keys.full))
    assert r.status_code == 201, r.text
    await app.runtime.wait_caught_up()
    ask = {"query": "where does ann live", "user": "ann"}
    mine = await app.client.post("/v1/recall", json=ask, headers=keys.bearer(keys.full))
    assert any("Lisbon" in i["content"] for i in mine.json()["items"])
    theirs = await app.client.post("/v1/recall", json=ask, headers=keys.bearer(keys.other_tenant))
    assert theirs.status_code == 200 and theirs.json()["items"] == []
    # one interaction of a batch naming another tenant refuses the whole batch
    batch = {"interactions": [TURN, {**TURN, "tenant": OTHER}]}
    r = await app.client.post("/v1/interactions", json=batch, headers=keys.bearer(keys.full))
    assert r.status_code == 403 and r.json()["error"]["problems"][0]["field"] == "interactions.1.tenant"


async def test_a_revoked_key_is_refused_and_admins_manage_only_their_tenant(secured: tuple[App, Keys]) -> None:
    app, keys = secured
    admin = keys.bearer(keys.full)
    made = await app.client.post("/v1/admin/keys", json={"scopes": ["read"], "name": "bot"}, headers=admin)
    assert made.status_code == 201 and made.json()["tenant"] == TENANT
    new = made.json()["key"]
    assert (await app.client.get("/v1/status", headers=keys.bearer(new))).status_code == 200
    listed = (await app.client.get("/v1/admin/keys", headers=admin)).json()["keys"]
    assert made.json()["key_id"] in [k["key_id"] for k in listed]
    assert all(k["tenant"] == TENANT for k in listed) and new not in str(listed)
    # another tenant's admin neither sees nor revokes it
    other = keys.bearer(keys.other_tenant)
    assert made.json()["key_id"] not in str((await app.client.get("/v1/admin/keys", headers=other)).json())
    r = await app.client.post(f"/v1/admin/keys/{made.json()['key_id']}:revoke", headers=other)
    assert r.status_code == 404
    r = await app.client.post(f"/v1/admin/keys/{made.json()['key_id']}:revoke", headers=admin)
    assert r.status_code == 200 and r.json()["revoked_at"]
    r = await app.client.get("/v1/status", headers=keys.bearer(new))
    assert r.status_code == 401 and "revoked" in error(r)
    bad = await app.client.post("/v1/admin/keys", json={"scopes": ["root"]}, headers=admin)
    assert bad.status_code == 422


async def test_a_key_over_its_rate_limit_is_told_when_to_retry(
    tmp_path: Path, embedder: Embedder, reranker: Reranker
) -> None:
    settings = Settings(data_dir=tmp_path / "data", auth="required", rate_limit_per_s=0.2, rate_limit_burst=2)
    async with running(settings, embedder, reranker) as app:
        keys = await make_keys(app.application.state.auth)
        headers = keys.bearer(keys.full)
        assert [(await app.client.get("/v1/status", headers=headers)).status_code for _ in range(2)] == [200, 200]
        r = await app.client.get("/v1/status", headers=headers)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(r.headers["retry-after"]) <= 5
        # another key has its own bucket
        assert (await app.client.get("/v1/status", headers=keys.bearer(keys.other_tenant))).status_code == 200
        gateway = build_server(lambda: app.runtime.query, lambda: Ingest(app.runtime.log, settings), settings, 0,
                               auth=app.application.state.auth)
        await gateway.start()
        try:
            async with grpc.aio.insecure_channel(gateway.address) as channel:
                stub = pb_grpc.HindsightStub(channel)
                with pytest.raises(grpc.aio.AioRpcError) as limited:
                    await stub.ListMemories(pb.ListMemoriesRequest(user="ann"),
                                            metadata=tuple(headers.items()), timeout=TIMEOUT)
                assert limited.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert dict(limited.value.trailing_metadata() or ())["retry-after"]
        finally:
            await gateway.stop(0)


def grpc_samples() -> dict[str, tuple[str, Any]]:
    """Each rpc: the scope it needs and a request that names tenant acme."""
    turn = pb.Interaction(tenant=TENANT, user="ann", session="s1", speaker="Ann", content="I keep bees.")
    return {
        "Recall": ("read", pb.RecallRequest(tenant=TENANT, user="ann", query="bees")),
        "GetSessionContext": ("read", pb.GetSessionContextRequest(tenant=TENANT, session="s1", user="ann")),
        "Retain": ("write", pb.RetainRequest(interactions=[turn])),
        "CloseSession": ("write", pb.CloseSessionRequest(tenant=TENANT, session="s1", user="ann")),
        "Reflect": ("write", pb.ReflectRequest(tenant=TENANT, user="ann", session="s1")),
        "Forget": ("write", pb.ForgetRequest(tenant=TENANT, memory_id="m1", user="ann")),
        "ListMemories": ("read", pb.ListMemoriesRequest(tenant=TENANT, user="ann")),
        "GetMemory": ("read", pb.GetMemoryRequest(tenant=TENANT, memory_id="m1")),
        "GetMemoryHistory": ("read", pb.GetMemoryRequest(tenant=TENANT, memory_id="m1")),
        "EraseUser": ("erase", pb.EraseUserRequest(tenant=TENANT, user="ann")),
        **{name: ("write", pb.MemoryActionRequest(tenant=TENANT, memory_id=MEMORY, user="ann"))
           for name in ("PinMemory", "UnpinMemory", "RestoreMemory")},
        "ExpireMemory": ("write", pb.ExpireMemoryRequest(tenant=TENANT, memory_id=MEMORY, user="ann", ttl_s=60)),
        "Consolidate": ("write", pb.ConsolidateRequest(tenant=TENANT, user="ann", dry_run=True)),
    }


async def test_every_grpc_method_needs_a_key_of_its_tenant_with_its_scope(
    secured: tuple[App, Keys], rpc: Grpc
) -> None:
    _, keys = secured
    table = grpc_samples()
    methods = pb.DESCRIPTOR.services_by_name["Hindsight"].methods
    assert {m.name for m in methods} == set(table), "an rpc is missing from this walk"
    stub = rpc.stub

    async def call(name: str, key: str | None) -> grpc.StatusCode:
        metadata = (("authorization", f"Bearer {key}"),) if key else ()
        try:
            await getattr(stub, name)(table[name][1], metadata=metadata, timeout=TIMEOUT)
        except grpc.aio.AioRpcError as e:
            if e.code() in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
                assert str(e.details()), name
            return e.code()
        return grpc.StatusCode.OK

    for name, (scope, _) in table.items():
        assert await call(name, None) == grpc.StatusCode.UNAUTHENTICATED, name
        assert await call(name, "not-a-key") == grpc.StatusCode.UNAUTHENTICATED, name
        assert await call(name, keys.lacking[scope]) == grpc.StatusCode.PERMISSION_DENIED, name
        assert await call(name, keys.other_tenant) == grpc.StatusCode.PERMISSION_DENIED, name
        assert await call(name, keys.full) not in (
            grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED), name
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.Recall(table["Recall"][1], metadata=(("authorization", f"Bearer {keys.lacking['read']}"),),
                          timeout=TIMEOUT)
    assert "'read' scope" in str(refused.value.details()) and SERVICE_NAME in str(refused.value.details())


def mcp_samples() -> dict[str, dict[str, Any]]:
    return {
        "retain": {"content": "I keep bees.", "session": "s1"},
        "recall": {"query": "bees"},
        "reflect": {"session": "s1"},
        "forget": {"memory_id": "m1"},
        "session_context": {"session": "s1"},
        "list_memories": {},
        "memory_history": {"memory_id": "m1"},
        "pin_memory": {"memory_id": MEMORY},
        "unpin_memory": {"memory_id": MEMORY},
        "restore_memory": {"memory_id": MEMORY},
        "expire_memory": {"memory_id": MEMORY, "ttl_s": 60},
        "consolidate": {"dry_run": True},
    }


async def test_every_mcp_tool_needs_a_key_of_its_tenant_with_its_scope(secured: tuple[App, Keys]) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    app, keys = secured
    server = build_mcp(McpSettings(url="http://test"))
    names = {t.name for t in await server.list_tools()}
    table = mcp_samples()
    assert names == set(table) == {fn.__name__ for fn, _, _ in TOOLS}, "a tool is missing from this walk"
    tools = {fn.__name__: fn for fn, _, _ in TOOLS}
    scope_of = {"retain": "write", "reflect": "write", "forget": "write", "pin_memory": "write",
                "unpin_memory": "write", "restore_memory": "write", "expire_memory": "write", "consolidate": "write"}
    transport = httpx.ASGITransport(app=app.application)

    async def call(name: str, key: str | None, tenant: str | None = TENANT) -> str:
        async with AsyncHindsight("http://test", tenant=tenant, api_key=key, transport=transport) as client:
            ctx = SimpleNamespace(request_context=SimpleNamespace(lifespan_context=Gateway(client, "ann")))
            try:
                await tools[name](ctx, **table[name])
            except ToolError as e:
                return str(e)
        return "ok"

    for name in table:
        scope = scope_of.get(name, "read")
        assert "HTTP 401" in await call(name, None), name
        lacking = await call(name, keys.lacking[scope])
        assert "HTTP 403" in lacking and f"'{scope}' scope" in lacking, name
        assert "HTTP 403" in await call(name, keys.other_tenant), name
        right = await call(name, keys.full)
        assert "HTTP 401" not in right and "HTTP 403" not in right, (name, right)
        unnamed = await call(name, keys.full, tenant=None)  # the key's tenant is used
        assert "HTTP 401" not in unnamed and "HTTP 403" not in unnamed, (name, unnamed)


async def test_an_open_gateway_says_so_loudly_at_start(
    tmp_path: Path, embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    for auth, loud in (("off", True), ("required", False)):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="hindsight_services.auth"):
            async with running(Settings(data_dir=tmp_path / auth, auth=auth), embedder):
                pass
        warned = [r for r in caplog.records if "HINDSIGHT_AUTH=off" in r.getMessage()]
        assert bool(warned) == loud and all(r.levelno == logging.WARNING for r in warned)


def test_the_mcp_server_takes_its_key_from_the_environment_and_never_shows_it() -> None:
    settings = McpSettings(**{**McpSettings().__dict__, "api_key": "hsk_0123456789ab_" + "s" * 43})
    assert "s" * 43 not in repr(settings)
    from hindsight_services.mcp.server import settings_from_env

    assert settings_from_env({"HINDSIGHT_API_KEY": "hsk_x"}).api_key == "hsk_x"
    assert settings_from_env({}).api_key is None
