"""PII redaction over gRPC: Retain goes through the same ingest handler as HTTP, so it
redacts alike and a tenant's reject is INVALID_ARGUMENT naming the field, not the value."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from hindsight_common.events import InteractionRecorded
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.grpc_api import hindsight_pb2 as pb
from hindsight_services.grpc_api import hindsight_pb2_grpc as pb_grpc
from hindsight_services.grpc_api.server import PROBLEMS_METADATA, build_server
from hindsight_services.ingest.handler import Ingest
from tests.support.auth import open_auth
from tests.integration.conftest import App, running

TIMEOUT = 30
CARD = "4111 1111 1111 1111"


@pytest.fixture
async def stub(tmp_path: Path, embedder: Embedder, reranker: Reranker) -> AsyncIterator[tuple[pb_grpc.HindsightStub, App]]:
    settings = Settings(data_dir=tmp_path / "data", pii_policy={"bank": {"card": "reject"}})
    async with running(settings, embedder, reranker) as app:
        runtime = app.runtime
        gateway = build_server(lambda: runtime.query, lambda: Ingest(runtime.log, runtime.settings), runtime.settings, 0,
                               auth=open_auth())
        await gateway.start()
        try:
            async with grpc.aio.insecure_channel(gateway.address) as channel:
                yield pb_grpc.HindsightStub(channel), app
        finally:
            await gateway.stop(0)


def turn(content: str, **over: str) -> pb.Interaction:
    return pb.Interaction(user="ann", session="s1", speaker="Ann", role="user", content=content, **over)


async def test_retain_redacts_and_a_rejecting_tenant_gets_invalid_argument(
    stub: tuple[pb_grpc.HindsightStub, App],
) -> None:
    client, app = stub
    await client.Retain(pb.RetainRequest(interactions=[turn(f"card {CARD}, mail ann@example.org")]), timeout=TIMEOUT)
    [record] = await app.runtime.log.read(INTERACTIONS)
    assert isinstance(record.event, InteractionRecorded)
    assert record.event.content == "card [CARD], mail [EMAIL]"
    assert [r.type for r in record.event.redactions] == ["card", "email"]

    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await client.Retain(pb.RetainRequest(interactions=[turn(f"card {CARD}", tenant="bank")]), timeout=TIMEOUT)
    error = caught.value
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    [problem] = json.loads(dict(error.trailing_metadata() or ())[PROBLEMS_METADATA])
    assert problem["field"] == "interactions.0.content" and "payment card number at characters 5-24" in problem["message"]
    assert "4111" not in (error.details() or "") and "4111" not in json.dumps(problem)
    assert len(await app.runtime.log.read(INTERACTIONS)) == 1  # the rejected batch added nothing
