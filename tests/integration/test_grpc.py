"""The gRPC gateway over the embedded runtime: the same handlers, the same answers as HTTP.

The embedded app (the ``app`` fixture: create_app with real storage and the real model,
its lifespan running), the gRPC server on a free port over its handlers, a real
grpc.aio channel; the HTTP answers come from the same app through httpx.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import grpc
import pytest
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import make_log
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS, MEMORIES
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import PROBLEMS_METADATA, SERVICE_NAME, GrpcGateway, build_server
from hindsight_services.ingest.handler import Ingest
from tests.integration.conftest import App
from tests.support.auth import open_auth

TIMEOUT = 30  # seconds per call: a hung server fails the test instead of hanging it
REFERENCE = datetime(2024, 6, 1, tzinfo=UTC)  # fixes time decay, so two recalls score alike


@dataclass
class Grpc:
    stub: pb_grpc.HindsightStub
    channel: grpc.aio.Channel
    gateway: GrpcGateway
    app: App


@pytest.fixture
async def rpc(app: App) -> AsyncIterator[Grpc]:
    runtime = app.runtime
    gateway = build_server(
        lambda: runtime.query, lambda: Ingest(runtime.log, runtime.settings), runtime.settings, 0,
        auth=app.application.state.auth,
    )
    await gateway.start()
    try:
        async with grpc.aio.insecure_channel(gateway.address) as channel:
            yield Grpc(pb_grpc.HindsightStub(channel), channel, gateway, app)
    finally:
        await gateway.stop(0)


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def turn(content: str, **over: Any) -> pb.Interaction:
    fields: dict[str, Any] = {"user": "ann", "session": "s1", "speaker": "Ann", "role": "user",
                              "content": content, "occurred_at": when("2024-05-01T10:00:00+00:00")}
    fields.update(over)
    return pb.Interaction(**fields)


def as_json(msg: Message) -> Any:
    """A message as JSON shaped like the HTTP API's (unset optional fields left out)."""
    return normal(MessageToDict(msg, preserving_proto_field_name=True,
                                always_print_fields_with_no_presence=True))


TIMES = {"occurred_at", "summary_through", "last_reinforced_at"}


def normal(value: Any) -> Any:
    """Drop nulls and parse times (proto JSON writes 3, 6 or 9 fraction digits, pydantic
    6), so proto JSON and HTTP JSON compare field by field."""
    if isinstance(value, dict):
        return {k: datetime.fromisoformat(v) if k in TIMES else normal(v)
                for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


async def ingest_and_catch_up(g: Grpc, *turns: pb.Interaction) -> pb.RetainResponse:
    out: pb.RetainResponse = await g.stub.Retain(pb.RetainRequest(interactions=turns), timeout=TIMEOUT)
    await g.app.runtime.wait_caught_up()
    return out


async def reflected(g: Grpc, count: int) -> None:
    """Wait until reflection wrote ``count`` memory events and every projection has them."""
    for _ in range(400):
        if len(await g.app.runtime.log.read(MEMORIES)) >= count:
            break
        await asyncio.sleep(0.05)
    await g.app.runtime.wait_caught_up()


async def rpc_error(call: Any) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    return caught.value


def problems(e: grpc.aio.AioRpcError) -> list[dict[str, str]]:
    trailing = dict(e.trailing_metadata() or ())
    return list(json.loads(trailing[PROBLEMS_METADATA]))


async def test_retain_then_recall_answers_exactly_as_http(rpc: Grpc) -> None:
    out = await ingest_and_catch_up(
        rpc,
        turn("I adopted a greyhound called Pixel", external_id="m1",
             metadata={"channel": "chat", "n": 3},
             tool_calls=[pb.ToolCall(name="lookup", arguments={"q": "greyhound"}, ok=True)]),
        turn("The weather was grey and rainy", external_id="m2"),
        turn("Pixel loves the beach", role="assistant", speaker="Bot"),
    )
    offsets = [e.offset for e in out.events]
    assert len(offsets) == 3 and offsets == sorted(offsets) and not out.replayed
    [first, *_] = await rpc.app.runtime.log.read(INTERACTIONS)
    assert first.event is not None and first.event.metadata == {"channel": "chat", "n": 3}

    query: dict[str, Any] = {"user": "ann", "query": "What is the name of Ann's dog?", "k": 5}
    answer = await rpc.stub.Recall(pb.RecallRequest(**query, reference_time=REFERENCE), timeout=TIMEOUT)
    http = await rpc.app.client.post("/v1/recall", json={**query, "reference_time": REFERENCE.isoformat()})
    assert http.status_code == 200, http.text

    [pixel] = [i for i in answer.items if list(i.provenance.external_ids) == ["m1"]]
    assert pixel.content.startswith("I adopted a greyhound called Pixel") and pixel.ranks["vector"] == 1
    assert len(answer.items) == 3 and answer.items[0].score >= answer.items[-1].score
    assert [as_json(i) for i in answer.items] == normal(http.json()["items"])
    # Scores compare exactly (not approximately): the same engine call, the same doubles.
    assert [(i.id, i.score, dict(i.scores)) for i in answer.items] == [
        (i["id"], i["score"], i["scores"]) for i in http.json()["items"]
    ]


async def test_session_context_equals_http(rpc: Grpc) -> None:
    await ingest_and_catch_up(rpc, *[
        turn(f"turn number {n} about the trip to Lisbon", occurred_at=when(f"2024-05-01T10:0{n}:00+00:00"))
        for n in range(6)
    ])
    answer = await rpc.stub.GetSessionContext(
        pb.GetSessionContextRequest(session="s1", user="ann", budget=40), timeout=TIMEOUT
    )
    http = await rpc.app.client.get("/v1/sessions/s1/context", params={"user": "ann", "budget": 40})
    assert http.status_code == 200, http.text
    assert answer.omitted_turns and 0 < len(answer.turns) < 6 and answer.tokens <= 40
    assert as_json(answer) == normal(http.json())


async def test_reflect_list_get_forget_over_grpc(rpc: Grpc) -> None:
    retained = await ingest_and_catch_up(
        rpc, turn("I love hiking in the Alps.", external_id="t1"),
        turn("I work as a nurse in Leeds.", external_id="t2"),
    )
    reflect = await rpc.stub.Reflect(pb.ReflectRequest(user="ann", session="s1"), timeout=TIMEOUT)
    assert reflect.event.event_id and reflect.event.offset >= 0
    await reflected(rpc, 2)

    listed = await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann"), timeout=TIMEOUT)
    http = await rpc.app.client.get("/v1/memories", params={"user": "ann"})
    assert {m.kind for m in listed.items} == {"preference", "fact"}
    assert as_json(listed) == normal(http.json())
    page = await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann", limit=1), timeout=TIMEOUT)
    assert len(page.items) == 1 and page.HasField("next_offset") and page.next_offset == 1

    [pref] = (await rpc.stub.ListMemories(
        pb.ListMemoriesRequest(user="ann", kinds=["preference"]), timeout=TIMEOUT)).items
    detail = await rpc.stub.GetMemory(pb.GetMemoryRequest(memory_id=pref.id), timeout=TIMEOUT)
    [source] = detail.sources
    assert source.id == retained.events[0].event_id and source.external_id == "t1"

    query = pb.RecallRequest(user="ann", query="What does Ann love doing outdoors?", types=["semantic"])
    before = await rpc.stub.Recall(query, timeout=TIMEOUT)
    assert pref.id in [i.id for i in before.items]
    forgot = await rpc.stub.Forget(pb.ForgetRequest(memory_id=pref.id, user="ann", reason="asked to"),
                                   timeout=TIMEOUT)
    assert forgot.event.offset >= 0
    await rpc.app.runtime.wait_caught_up()
    after = await rpc.stub.Recall(query, timeout=TIMEOUT)
    assert pref.id not in [i.id for i in after.items]
    gone = await rpc_error(rpc.stub.GetMemory(pb.GetMemoryRequest(memory_id=pref.id), timeout=TIMEOUT))
    assert gone.code() == grpc.StatusCode.NOT_FOUND


async def test_close_session_reflects_the_session(rpc: Grpc) -> None:
    await ingest_and_catch_up(rpc, turn("I love hiking in the Alps."))
    closed = await rpc.stub.CloseSession(pb.CloseSessionRequest(session="s1", user="ann"), timeout=TIMEOUT)
    [*_, last] = await rpc.app.runtime.log.read(INTERACTIONS)
    assert last.event is not None and last.event.type == "SessionClosed"
    assert str(last.event.event_id) == closed.event.event_id
    await reflected(rpc, 1)
    listed = await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann", kinds=["preference"]),
                                         timeout=TIMEOUT)
    assert len(listed.items) == 1 and "hiking" in listed.items[0].content.lower()


async def test_invalid_input_is_invalid_argument_naming_the_field(rpc: Grpc) -> None:
    bad_k = await rpc_error(rpc.stub.Recall(pb.RecallRequest(query="dogs", k=0), timeout=TIMEOUT))
    assert bad_k.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "\nk: " in (bad_k.details() or "")
    assert [p["field"] for p in problems(bad_k)] == ["k"]

    batch = pb.RetainRequest(interactions=[turn("fine"), turn("   "), turn("x", user="", role="boss")])
    bad = await rpc_error(rpc.stub.Retain(batch, timeout=TIMEOUT))
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT
    fields = {p["field"] for p in problems(bad)}
    assert {"interactions.2.user", "interactions.2.role"} <= fields
    for field in fields:
        assert f"\n{field}: " in (bad.details() or "")
    blank = await rpc_error(rpc.stub.Retain(pb.RetainRequest(interactions=[turn("   ")]), timeout=TIMEOUT))
    assert [p["field"] for p in problems(blank)] == ["interactions.0.content"]
    empty = await rpc_error(rpc.stub.Retain(pb.RetainRequest(), timeout=TIMEOUT))
    assert [p["field"] for p in problems(empty)] == ["interactions"]
    assert await rpc.app.runtime.log.read(INTERACTIONS) == []  # nothing of a rejected batch

    not_uuid = await rpc_error(rpc.stub.Forget(pb.ForgetRequest(memory_id="nope", user="ann"), timeout=TIMEOUT))
    assert not_uuid.code() == grpc.StatusCode.INVALID_ARGUMENT and problems(not_uuid)[0]["field"] == "memory_id"
    both = await rpc_error(rpc.stub.Reflect(pb.ReflectRequest(user="ann", session="s", task="t"), timeout=TIMEOUT))
    assert both.code() == grpc.StatusCode.INVALID_ARGUMENT and "task: " in (both.details() or "")
    budget = await rpc_error(rpc.stub.GetSessionContext(
        pb.GetSessionContextRequest(session="s1", user="ann", budget=0), timeout=TIMEOUT))
    assert [p["field"] for p in problems(budget)] == ["budget"]
    limit = await rpc_error(rpc.stub.ListMemories(pb.ListMemoriesRequest(limit=501), timeout=TIMEOUT))
    assert [p["field"] for p in problems(limit)] == ["limit"]


async def test_invalid_batch_has_the_same_problems_as_over_http(rpc: Grpc) -> None:
    over_http = await rpc.app.client.post("/v1/interactions", json={"interactions": [
        {"user": "ann", "session": "s1", "speaker": "", "role": "boss", "content": "hi"},
    ]})
    assert over_http.status_code == 422
    over_grpc = await rpc_error(rpc.stub.Retain(pb.RetainRequest(interactions=[
        pb.Interaction(user="ann", session="s1", speaker="", role="boss", content="hi"),
    ]), timeout=TIMEOUT))
    assert problems(over_grpc) == over_http.json()["error"]["problems"]


async def test_unknown_memory_is_not_found(rpc: Grpc) -> None:
    e = await rpc_error(rpc.stub.GetMemory(
        pb.GetMemoryRequest(memory_id="00000000-0000-0000-0000-000000000000"), timeout=TIMEOUT))
    assert e.code() == grpc.StatusCode.NOT_FOUND and "00000000-0000" in (e.details() or "")


async def test_idempotency_key_replays_and_conflicts(rpc: Grpc) -> None:
    batch = pb.RetainRequest(interactions=[turn("once")], idempotency_key="batch-42")
    first = await rpc.stub.Retain(batch, timeout=TIMEOUT)
    again = await rpc.stub.Retain(batch, timeout=TIMEOUT)
    assert not first.replayed and again.replayed and list(again.events) == list(first.events)
    other = pb.RetainRequest(interactions=[turn("different")], idempotency_key="batch-42")
    conflict = await rpc_error(rpc.stub.Retain(other, timeout=TIMEOUT))
    assert conflict.code() == grpc.StatusCode.ALREADY_EXISTS
    assert len(await rpc.app.runtime.log.read(INTERACTIONS)) == 1


async def test_every_write_on_a_failed_log_is_unavailable(rpc: Grpc, tmp_path: Path) -> None:
    # As the cluster gateway's gRPC writes: the Ingest handler straight onto the log.
    settings = Settings(data_dir=tmp_path / "elsewhere")
    closed = make_log(settings)  # a real log that has been closed: every append fails
    await closed.close()
    gateway = build_server(lambda: rpc.app.runtime.query, lambda: Ingest(closed, settings), settings, 0,
                           auth=open_auth())
    await gateway.start()
    try:
        async with grpc.aio.insecure_channel(gateway.address) as channel:
            stub = pb_grpc.HindsightStub(channel)
            calls = {
                "Retain": stub.Retain(pb.RetainRequest(interactions=[turn("hi")]), timeout=TIMEOUT),
                "CloseSession": stub.CloseSession(pb.CloseSessionRequest(session="s1", user="ann"),
                                                  timeout=TIMEOUT),
                "Reflect": stub.Reflect(pb.ReflectRequest(user="ann", session="s1"), timeout=TIMEOUT),
                "Forget": stub.Forget(pb.ForgetRequest(memory_id=str(uuid4()), user="ann"), timeout=TIMEOUT),
            }
            failed = {name: await rpc_error(call) for name, call in calls.items()}
    finally:
        await gateway.stop(0)
    for name, e in failed.items():
        assert e.code() == grpc.StatusCode.UNAVAILABLE, name
        assert "log is closed; retry later" in (e.details() or ""), name


async def test_health_serving_then_not_serving_on_stop(rpc: Grpc) -> None:
    health = health_pb2_grpc.HealthStub(rpc.channel)
    for service in ("", SERVICE_NAME):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    await rpc.gateway.health.enter_graceful_shutdown()
    reply = await health.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=TIMEOUT)
    assert reply.status == health_pb2.HealthCheckResponse.NOT_SERVING


async def test_reflection_lists_and_describes_the_service(rpc: Grpc) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(rpc.channel)
    requests = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME),
    ]
    replies = [r async for r in stub.ServerReflectionInfo(iter(requests), timeout=TIMEOUT)]
    services = {s.name for s in replies[0].list_services_response.service}
    assert {SERVICE_NAME, "grpc.health.v1.Health"} <= services
    assert replies[1].file_descriptor_response.file_descriptor_proto  # the .proto, for grpcurl


async def test_binds_loopback_and_refuses_a_taken_port(tmp_path: Path) -> None:
    gateway = build_server(_unused, _unused, Settings(data_dir=tmp_path), 0, auth=open_auth())
    try:
        assert gateway.host == "127.0.0.1" and gateway.address == f"127.0.0.1:{gateway.port}"
        assert gateway.port > 0
        with pytest.raises(ConfigurationError, match="HINDSIGHT_GRPC_PORT"):  # taken: no silent sharing
            build_server(_unused, _unused, Settings(data_dir=tmp_path), gateway.port, auth=open_auth())
    finally:
        await gateway.server.stop(None)


def _unused() -> Any:
    raise AssertionError("no rpc is made")


async def test_erase_user_destroys_the_keys_and_names_a_bad_user(rpc: Grpc) -> None:
    await rpc.stub.Retain(pb.RetainRequest(interactions=[turn("I keep bees in Ghent.")]))
    erased = await rpc.stub.EraseUser(pb.EraseUserRequest(user="ann", reason="asked"))
    assert erased.keys_destroyed == 1 and erased.event.event_id and "SubjectErased" in erased.next
    await rpc.app.runtime.wait_caught_up()
    recall = await rpc.stub.Recall(pb.RecallRequest(user="ann", query="bees in Ghent"))
    assert list(recall.items) == []
    again = await rpc.stub.EraseUser(pb.EraseUserRequest(user="ann"))
    assert again.keys_destroyed == 0
    bad = await rpc_error(rpc.stub.EraseUser(pb.EraseUserRequest(user="")))
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT and "user" in str(bad.details())
