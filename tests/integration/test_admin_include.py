"""Forgotten memories: hidden from everyone, shown to an admin who asks with ``include``.

A forget keeps the memory's content in its tombstone (re-typed "forgotten"); default
recall and browsing never return it, and ``include=["forgotten"]`` does, over HTTP and
gRPC, only with an API key that holds the admin scope (here with HINDSIGHT_AUTH off, the
embedded default: anonymous requests work, admin options still need that key). A rebuild
from the log gives the same tombstones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest

from hindsight_common.adapters.sqlite_credentials import SqliteCredentials
from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from hindsight_services.embedded import drop_projections
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import build_server
from hindsight_services.ingest.handler import Ingest
from tests.integration.conftest import App, running
from tests.integration.test_grpc import TIMEOUT, problems, rpc_error
from tests.integration.test_memories_api import seed

TOKEN, ADMIN_KEY = new_key("default", ["read", "write", "admin"], now())
ADMIN = {"authorization": f"Bearer {TOKEN}"}
READER_TOKEN, READER_KEY = new_key("default", ["read", "write"], now())
READER = {"authorization": f"Bearer {READER_TOKEN}"}
QUERY = {"user": "ann", "query": "What does Ann love doing outdoors?", "types": ["semantic"]}


async def with_keys(settings: Settings) -> Settings:
    """``settings`` whose data directory holds the admin key and a key without admin."""
    store = SqliteCredentials(settings.credentials_path)
    try:
        for record in (ADMIN_KEY, READER_KEY):
            if await store.find(record.key_id) is None:
                await store.add(record)
    finally:
        await store.close()
    return settings


@pytest.fixture
async def settings(tmp_path: Path) -> Settings:  # the conftest's app, with the two keys
    return await with_keys(Settings(data_dir=tmp_path / "data"))


async def forget_preference(app: App) -> dict[str, Any]:
    """Seed, forget Ann's preference memory, wait until every projection applied it."""
    await seed(app)
    before = (await app.client.post("/v1/recall", json=QUERY)).json()["items"]
    target: dict[str, Any] = next(i for i in before if i["kind"] == "preference")
    r = await app.client.post(f"/v1/memories/{target['id']}:forget", json={"user": "ann"})
    assert r.status_code == 202
    await app.runtime.wait_caught_up()
    return target


def ids(items: list[dict[str, Any]]) -> list[str]:
    return [i["id"] for i in items]


def refused(r: httpx.Response, says: str) -> None:
    assert r.status_code == 403, r.text
    error = r.json()["error"]
    assert error["code"] == "forbidden" and "include" in error["message"] and says in error["message"]
    assert [p["field"] for p in error["problems"]] == ["include"]


async def test_only_an_admin_sees_a_forgotten_memory_with_its_content(app: App) -> None:
    target = await forget_preference(app)
    # (a) nobody else ever sees it: recall, browsing, the memory itself, a type filter
    assert target["id"] not in ids((await app.client.post("/v1/recall", json=QUERY)).json()["items"])
    listed = (await app.client.get("/v1/memories", params={"user": "ann"})).json()["items"]
    assert target["id"] not in ids(listed) and listed
    assert (await app.client.get(f"/v1/memories/{target['id']}")).status_code == 404
    by_type = await app.client.get("/v1/memories", params={"user": "ann", "type": "forgotten"})
    assert by_type.status_code == 422 and by_type.json()["error"]["problems"][0]["field"] == "query.type.0"

    # (b) the admin does, typed by its state, content kept, beside the live memories
    asked = {**QUERY, "include": ["forgotten"]}
    items = (await app.client.post("/v1/recall", json=asked, headers=ADMIN)).json()["items"]
    [gone] = [i for i in items if i["id"] == target["id"]]
    assert gone["type"] == "forgotten" and gone["content"] == target["content"] and gone["kind"] == "preference"
    assert {i["type"] for i in items} == {"semantic", "forgotten"}
    page = await app.client.get("/v1/memories", params={"user": "ann", "include": "forgotten"}, headers=ADMIN)
    [browsed] = [m for m in page.json()["items"] if m["id"] == target["id"]]
    assert browsed["type"] == "forgotten" and browsed["content"] == target["content"]
    opened = await app.client.get(f"/v1/memories/{target['id']}", params={"include": "forgotten"},
                                  headers=ADMIN)
    assert opened.status_code == 200 and opened.json()["memory"]["type"] == "forgotten"
    assert opened.json()["memory"]["content"] == target["content"] and opened.json()["sources"]
    only = await app.client.post("/v1/recall", json={**QUERY, "types": [], "include": ["superseded"]},
                                 headers=ADMIN)
    assert only.status_code == 200 and "forgotten" not in {i["type"] for i in only.json()["items"]}

    # (c) without a key, or with one that lacks the admin scope: 403 naming include; a
    # key that is not valid, or another scheme: 401, as anywhere
    refused(await app.client.post("/v1/recall", json=asked), "no API key was sent")
    refused(await app.client.post("/v1/recall", json=asked, headers=READER), "lacks the 'admin' scope")
    refused(await app.client.get("/v1/memories", params={"include": "forgotten"}, headers=READER),
            "lacks the 'admin' scope")
    refused(await app.client.get(f"/v1/memories/{target['id']}", params={"include": "forgotten"}),
            "no API key was sent")
    for wrong in ("Bearer not-the-token", f"Basic {TOKEN}", f"Bearer {TOKEN[:-1]}"):
        r = await app.client.post("/v1/recall", json=asked, headers={"authorization": wrong})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    unknown = await app.client.post("/v1/recall", json={**QUERY, "include": ["deleted"]}, headers=ADMIN)
    assert unknown.status_code == 422 and unknown.json()["error"]["problems"][0]["field"] == "include.0"


async def test_admin_options_need_an_admin_key_even_with_auth_off(
    tmp_path: Path, embedder: Embedder
) -> None:
    async with running(Settings(data_dir=tmp_path / "data"), embedder) as app:  # no key in its store
        refused(await app.client.post("/v1/recall", json={**QUERY, "include": ["forgotten"]}),
                "no API key was sent")
        for headers in (ADMIN, {"authorization": "Bearer "}):  # a key it never issued; no key at all
            r = await app.client.get("/v1/memories", params={"include": "quarantined"}, headers=headers)
            assert r.status_code == 401, r.text
        assert (await app.client.post("/v1/recall", json=QUERY)).status_code == 200  # the rest works


async def test_grpc_include_needs_the_admin_scope(app: App) -> None:
    target = await forget_preference(app)
    runtime = app.runtime
    gateway = build_server(lambda: runtime.query, lambda: Ingest(runtime.log, runtime.settings),
                           runtime.settings, 0, auth=app.application.state.auth)
    await gateway.start()
    try:
        async with grpc.aio.insecure_channel(gateway.address) as channel:
            stub = pb_grpc.HindsightStub(channel)
            asked = pb.RecallRequest(user="ann", query=QUERY["query"], types=["semantic"], include=["forgotten"])
            default = await stub.Recall(pb.RecallRequest(user="ann", query=QUERY["query"]), timeout=TIMEOUT)
            assert target["id"] not in [i.id for i in default.items]

            answer = await stub.Recall(asked, metadata=tuple(ADMIN.items()), timeout=TIMEOUT)
            [gone] = [i for i in answer.items if i.id == target["id"]]
            assert gone.type == "forgotten" and gone.content == target["content"]
            page = await stub.ListMemories(pb.ListMemoriesRequest(user="ann", include=["forgotten"]),
                                           metadata=tuple(ADMIN.items()), timeout=TIMEOUT)
            assert [m.type for m in page.items if m.id == target["id"]] == ["forgotten"]
            opened = await stub.GetMemory(pb.GetMemoryRequest(memory_id=target["id"], include=["forgotten"]),
                                          metadata=tuple(ADMIN.items()), timeout=TIMEOUT)
            assert opened.memory.type == "forgotten" and opened.memory.content == target["content"]
            e = await rpc_error(stub.GetMemory(pb.GetMemoryRequest(memory_id=target["id"]), timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.NOT_FOUND
            e = await rpc_error(stub.GetMemory(pb.GetMemoryRequest(memory_id=target["id"], include=["forgotten"]),
                                               timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.PERMISSION_DENIED

            for metadata in ((), tuple(READER.items())):
                e = await rpc_error(stub.Recall(asked, metadata=metadata, timeout=TIMEOUT))
                assert e.code() == grpc.StatusCode.PERMISSION_DENIED and "include" in (e.details() or "")
                assert [p["field"] for p in problems(e)] == ["include"]
            e = await rpc_error(stub.Recall(asked, metadata=(("authorization", "Bearer nope"),), timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.UNAUTHENTICATED
            e = await rpc_error(stub.ListMemories(pb.ListMemoriesRequest(include=["forgotten"]), timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.PERMISSION_DENIED
            e = await rpc_error(stub.ListMemories(pb.ListMemoriesRequest(types=["forgotten"]), timeout=TIMEOUT))
            assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and problems(e)[0]["field"] == "types.0"
    finally:
        await gateway.stop(0)


async def test_a_rebuild_gives_the_same_forgotten_documents(
    settings: Settings, embedder: Embedder
) -> None:
    async with running(settings, embedder) as app:
        target = await forget_preference(app)
        tenant, wanted = settings.default_tenant, [target["id"]]
        [text_before] = await app.runtime.text.get(tenant, wanted)
        [vector_before] = await app.runtime.vectors.get(tenant, wanted)
        entities_before = await app.runtime.graph.entities_of(tenant, target["id"])
    assert text_before.type == "forgotten" and text_before.content == target["content"]
    assert vector_before == text_before and entities_before

    drop_projections(settings)
    async with running(settings, embedder) as app:
        await app.runtime.wait_caught_up()
        assert await app.runtime.text.get(tenant, wanted) == [text_before]
        assert await app.runtime.vectors.get(tenant, wanted) == [text_before]
        assert await app.runtime.graph.entities_of(tenant, target["id"]) == entities_before
        assert target["id"] not in ids((await app.client.post("/v1/recall", json=QUERY)).json()["items"])
        items = (await app.client.post("/v1/recall", json={**QUERY, "include": ["forgotten"]},
                                       headers=ADMIN)).json()["items"]
        assert [(i["type"], i["content"]) for i in items if i["id"] == target["id"]] == [
            ("forgotten", target["content"])]
