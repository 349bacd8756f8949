"""Every read and write of memories is audited, in the embedded server over HTTP: a write
(with its redactions and quarantines), a recall, a session's context, browsing, reading one
memory, a release, over HTTP and gRPC; each ``AuditRecorded`` says who, with which key, what (counts, ids,
preset, k) and how it ended, and none carries content: the secret, the query, the turns'
text are absent from the stored records. The events are queued and appended in the
background; a full queue drops and counts them and never blocks the request."""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight_common.events.audit import ANONYMOUS, AuditRecorded
from hindsight_common.settings import Settings
from hindsight_common.streams import AUDIT
from hindsight_common.telemetry import metrics
from tests.integration.conftest import App
from tests.integration.test_admin_include import ADMIN, ADMIN_KEY, with_keys
from hindsight_services.grpc_api import hindsight_pb2 as pb
from tests.integration.test_grpc import TIMEOUT, Grpc, rpc, turn as grpc_turn  # noqa: F401 - the fixture
from tests.integration.test_quarantine import ATTACK

SECRET = "ann.private.mailbox@example.org"
CONTENT = f"I moved to Porto last spring, write to me at {SECRET}"
QUERY = "where did the zebra-crossing-question person move"


@pytest.fixture
async def settings(tmp_path: Path) -> Settings:  # the conftest's app, with an admin key
    return await with_keys(Settings(data_dir=tmp_path / "data"))


async def audited(app: App) -> tuple[dict[str, list[dict[str, object]]], bytes]:
    """The audit events by action, as GET /v1/admin/audit answers them, and every stored
    audit record's bytes."""
    await app.application.state.audit.flush()
    page = await app.client.get("/v1/admin/audit", params={"limit": 1000}, headers=ADMIN)
    assert page.status_code == 200, page.text
    by_action: dict[str, list[dict[str, object]]] = {}
    for e in page.json()["events"]:
        by_action.setdefault(str(e["action"]), []).append(e)
    raw = b"".join(r.raw for r in await app.runtime.log.read(AUDIT, limit=10_000))
    return by_action, raw


async def test_reads_and_writes_are_audited_without_content(app: App) -> None:
    turns = [
        {"user": "ann", "session": "s1", "speaker": "Ann", "content": CONTENT, "occurred_at": "2024-05-01T10:00:00Z"},
        {"user": "ann", "session": "s1", "speaker": "weather", "role": "tool", "content": ATTACK,
         "occurred_at": "2024-05-01T10:01:00Z"},
    ]
    written = await app.client.post("/v1/interactions", json={"interactions": turns}, headers=ADMIN)
    assert written.status_code == 201, written.text
    ours, attack = (e["event_id"] for e in written.json()["events"])
    await app.runtime.wait_caught_up()
    recalled = await app.client.post("/v1/recall", json={"user": "ann", "query": QUERY, "k": 3}, headers=ADMIN)
    assert recalled.status_code == 200
    assert (await app.client.get("/v1/sessions/s1/context", params={"user": "ann"}, headers=ADMIN)).status_code == 200
    browsed = await app.client.get("/v1/memories", params={"user": "ann", "type": "episodic"}, headers=ADMIN)
    assert browsed.status_code == 200
    assert (await app.client.get(f"/v1/memories/{ours}", headers=ADMIN)).status_code == 200
    released = await app.client.post(f"/v1/memories/{attack}:release", json={"user": "ann"}, headers=ADMIN)
    assert released.status_code == 202, released.text
    bad = await app.client.post("/v1/recall", json={"user": "ann", "query": QUERY, "k": 0}, headers=ADMIN)
    assert bad.status_code == 422
    anonymous = await app.client.post("/v1/recall", json={"user": "ann", "query": QUERY})  # auth off
    assert anonymous.status_code == 200

    by_action, raw = await audited(app)
    key = ADMIN_KEY.key_id
    [ingest] = by_action["ingest"]
    assert (ingest["tenant"], ingest["user"], ingest["credential"], ingest["outcome"], ingest["interface"],
            ingest["target"]) == ("default", key, key, "ok", "http", "POST /v1/interactions")
    assert ingest["details"] == {"count": 2, "replayed": False, "first_event": ours, "last_event": attack,
                                 "redactions": 1, "quarantined": 1}
    [redacted] = by_action["pii.redacted"]
    assert redacted["target"] == ours and redacted["credential"] == key
    details = redacted["details"]
    assert isinstance(details, dict) and details["types"] == "email" and details["count"] == 1
    assert str(details["positions"]).startswith("email@content:")
    [held] = by_action["quarantine"]
    assert held["target"] == attack and isinstance(held["details"], dict) and held["details"]["target"] == "interaction"

    first, failed, anon = by_action["recall"]
    assert (first["outcome"], first["credential"], first["details"]) == (
        "ok", key, {"k": 3, "preset": "default", "include": "", "user": "ann",
                    "results": len(recalled.json()["items"])})
    assert (failed["outcome"], failed["reason"]) == ("failed", "InvalidInput")
    assert (anon["user"], anon["credential"], anon["outcome"]) == (ANONYMOUS, None, "ok")
    [context] = by_action["session.context"]
    assert isinstance(context["details"], dict) and context["details"]["session"] == "s1"
    assert context["details"]["results"] == 1  # the attack is held back from the context
    [browse] = by_action["memories.browse"]
    assert isinstance(browse["details"], dict) and browse["details"]["results"] == len(browsed.json()["items"])
    [read] = by_action["memory.read"]
    assert isinstance(read["details"], dict) and read["details"]["memory"] == ours
    [release] = by_action["memory.release"]
    assert (release["target"], release["outcome"]) == (f"POST /v1/memories/{{memory_id}}:release", "ok")

    for text in (SECRET, "Porto", QUERY, "zebra", "evil.example", "chat history"):
        assert text.encode() not in raw, text
    assert all(isinstance(r.event, AuditRecorded) and r.event.schema_version == 2
               for r in await app.runtime.log.read(AUDIT, limit=10_000))


async def test_a_full_queue_drops_and_counts_and_the_request_is_served(app: App) -> None:
    trail = app.application.state.audit
    trail._max_pending = 0  # nothing fits: every event is dropped
    before_metric = metrics.AUDIT_DROPPED._value.get()
    before = trail.dropped
    r = await app.client.post("/v1/recall", json={"user": "ann", "query": QUERY}, headers=ADMIN)
    assert r.status_code == 200
    assert trail.dropped == before + 1
    assert metrics.AUDIT_DROPPED._value.get() == before_metric + 1


async def test_grpc_reads_and_writes_are_audited_without_content(rpc: Grpc) -> None:
    metadata = tuple(ADMIN.items())
    out = await rpc.stub.Retain(pb.RetainRequest(interactions=[grpc_turn(CONTENT)]), metadata=metadata,
                                timeout=TIMEOUT)
    [event_id] = [e.event_id for e in out.events]
    await rpc.app.runtime.wait_caught_up()
    recalled = await rpc.stub.Recall(pb.RecallRequest(user="ann", query=QUERY, k=2), metadata=metadata,
                                     timeout=TIMEOUT)
    await rpc.stub.ListMemories(pb.ListMemoriesRequest(user="ann"), metadata=metadata, timeout=TIMEOUT)
    by_action, raw = await audited(rpc.app)
    key = ADMIN_KEY.key_id
    [ingest] = by_action["ingest"]
    assert (ingest["interface"], ingest["credential"], ingest["target"], ingest["outcome"]) == (
        "grpc", key, "hindsight.v1.Hindsight/Retain", "ok")
    assert isinstance(ingest["details"], dict) and ingest["details"]["first_event"] == event_id
    assert ingest["details"]["redactions"] == 1
    [redacted] = by_action["pii.redacted"]
    assert (redacted["interface"], redacted["target"]) == ("grpc", event_id)
    [recall] = by_action["recall"]
    assert recall["interface"] == "grpc" and recall["details"] == {
        "k": 2, "preset": "default", "include": "", "user": "ann", "results": len(recalled.items)}
    [browse] = by_action["memories.browse"]
    assert browse["interface"] == "grpc" and browse["outcome"] == "ok"
    for text in (SECRET, "Porto", QUERY):
        assert text.encode() not in raw, text
