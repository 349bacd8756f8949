"""PinMemory, UnpinMemory, RestoreMemory, ExpireMemory and Consolidate over gRPC (the
embedded runtime, a real channel; fixtures and helpers of test_grpc)."""

from __future__ import annotations

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from hindsight_services.grpc_api import hindsight_pb2 as pb
from tests.integration.test_grpc import TIMEOUT, Grpc, ingest_and_catch_up, problems, reflected, rpc, rpc_error, turn

__all__ = ["rpc"]  # the fixture, used by name


async def test_pin_unpin_restore_over_grpc(rpc: Grpc) -> None:
    await ingest_and_catch_up(rpc, turn("I love hiking in the Alps."))
    await rpc.stub.Reflect(pb.ReflectRequest(user="ann", session="s1"), timeout=TIMEOUT)
    await reflected(rpc, 1)
    [memory] = (await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann"), timeout=TIMEOUT)).items
    assert not memory.pinned

    def action(memory_id: str = memory.id) -> pb.MemoryActionRequest:
        return pb.MemoryActionRequest(memory_id=memory_id, user="ann", reason="test")

    async def current() -> pb.Memory:
        await rpc.app.runtime.wait_caught_up()
        return (await rpc.stub.GetMemory(pb.GetMemoryRequest(memory_id=memory.id), timeout=TIMEOUT)).memory

    pinned = await rpc.stub.PinMemory(action(), timeout=TIMEOUT)
    assert pinned.event.event_id and (await current()).pinned and (await current()).importance == 1.0
    http = (await rpc.app.client.get(f"/v1/memories/{memory.id}")).json()["memory"]
    assert http["pinned"] is True
    await rpc.stub.UnpinMemory(action(), timeout=TIMEOUT)
    assert not (await current()).pinned

    await rpc.stub.Forget(pb.ForgetRequest(memory_id=memory.id, user="ann"), timeout=TIMEOUT)
    await rpc.app.runtime.wait_caught_up()
    assert (await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann"), timeout=TIMEOUT)).items == []
    restored = await rpc.stub.RestoreMemory(action(), timeout=TIMEOUT)
    assert restored.event.offset > pinned.event.offset
    assert (await current()).content == memory.content

    bad = await rpc_error(rpc.stub.PinMemory(action("nope"), timeout=TIMEOUT))
    assert bad.code() == grpc.StatusCode.INVALID_ARGUMENT and problems(bad)[0]["field"] == "memory_id"
    no_user = await rpc_error(rpc.stub.RestoreMemory(pb.MemoryActionRequest(memory_id=memory.id), timeout=TIMEOUT))
    assert no_user.code() == grpc.StatusCode.INVALID_ARGUMENT and problems(no_user)[0]["field"] == "user"


async def test_expire_and_consolidate_over_grpc(rpc: Grpc) -> None:
    await ingest_and_catch_up(rpc, turn("I love hiking in the Alps."))
    await rpc.stub.Reflect(pb.ReflectRequest(user="ann", session="s1"), timeout=TIMEOUT)
    await reflected(rpc, 1)
    [memory] = (await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann"), timeout=TIMEOUT)).items
    past = Timestamp(seconds=1717200000)  # 2024-06-01
    expired = await rpc.stub.ExpireMemory(pb.ExpireMemoryRequest(memory_id=memory.id, user="ann", expires_at=past),
                                          timeout=TIMEOUT)
    assert expired.event.event_id
    await rpc.app.runtime.wait_caught_up()
    got = (await rpc.stub.GetMemory(pb.GetMemoryRequest(memory_id=memory.id), timeout=TIMEOUT)).memory
    assert got.expires_at.seconds == past.seconds
    # One live memory: the guard (a tenth of it, rounded down) lets the pass forget none.
    dry = await rpc.stub.Consolidate(pb.ConsolidateRequest(user="ann", dry_run=True), timeout=TIMEOUT)
    assert dry.dry_run and dry.live == 1 and list(dry.forgotten) == [] and list(dry.events) == []
    http = (await rpc.app.client.post("/v1/consolidate", json={"user": "ann", "dry_run": True})).json()
    assert http["live"] == dry.live and http["forgotten"] == []
    await rpc.stub.ExpireMemory(pb.ExpireMemoryRequest(memory_id=memory.id, user="ann", ttl_s=3600), timeout=TIMEOUT)
    await rpc.app.runtime.wait_caught_up()
    got = (await rpc.stub.GetMemory(pb.GetMemoryRequest(memory_id=memory.id), timeout=TIMEOUT)).memory
    assert got.expires_at.seconds > past.seconds

    both = await rpc_error(rpc.stub.ExpireMemory(
        pb.ExpireMemoryRequest(memory_id=memory.id, user="ann", expires_at=past, ttl_s=5), timeout=TIMEOUT))
    assert both.code() == grpc.StatusCode.INVALID_ARGUMENT and problems(both)[0]["field"] == "ttl_s"
    no_user = await rpc_error(rpc.stub.Consolidate(pb.ConsolidateRequest(), timeout=TIMEOUT))
    assert no_user.code() == grpc.StatusCode.INVALID_ARGUMENT and problems(no_user)[0]["field"] == "user"
