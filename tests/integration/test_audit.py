"""The audit trail of credentials on the real log: admin actions on keys (HTTP and the
command line) and refused requests (HTTP and gRPC: no or a bad key, a missing scope,
another tenant, an admin option) become ``AuditRecorded`` events on
``hindsight.audit.v1`` that say who, with which key, what, when and how it ended, and
never carry a secret."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import grpc
import pytest

from hindsight_common.events.audit import AuditRecorded, OPERATOR, UNKNOWN_TENANT
from hindsight_common.factory import make_log
from hindsight_common.security.credentials import key_id_of, new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.settings import Settings
from hindsight_common.streams import AUDIT
from hindsight_services.cli import main
from hindsight_services.grpc_api import hindsight_pb2 as pb
from tests.integration.conftest import App
from tests.integration.test_grpc import Grpc, rpc  # noqa: F401 - the fixture


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", auth="required", rate_limit_per_s=0)


async def audit_events(app: App, flush: bool = True) -> list[tuple[AuditRecorded, bytes]]:
    """The audit stream's events and their stored bytes; ``flush``: the queued ones too."""
    if flush:
        await app.application.state.audit.flush()
    out = []
    for r in await app.runtime.log.read(AUDIT):
        assert isinstance(r.event, AuditRecorded), r.error
        out.append((r.event, r.raw))
    return out


async def admin_key(app: App) -> tuple[str, str]:
    key, record = new_key("acme", ["read", "admin"], now())
    await app.application.state.auth.store.add(record)
    return key, record.key_id


async def test_admin_key_actions_are_audited_before_they_are_answered(app: App) -> None:
    key, admin_id = await admin_key(app)
    headers = {"authorization": f"Bearer {key}"}
    made = await app.client.post("/v1/admin/keys", json={"scopes": ["read"]}, headers=headers)
    new_id = made.json()["key_id"]
    # no flush: record() appended before the answer
    [(created, raw)] = [(e, raw) for e, raw in await audit_events(app, flush=False) if e.action == "key.create"]
    assert (created.tenant, created.user, created.credential, created.target, created.outcome,
            created.interface) == ("acme", admin_id, admin_id, new_id, "ok", "http")
    assert made.json()["key"].encode() not in raw and key.encode() not in raw
    await app.client.get("/v1/admin/keys", headers=headers)
    await app.client.post(f"/v1/admin/keys/{new_id}:revoke", headers=headers)
    await app.client.post("/v1/admin/keys/0123456789ab:revoke", headers=headers)
    actions = [(e.action, e.outcome, e.target) for e, _ in await audit_events(app, flush=False)]
    assert actions == [("key.create", "ok", new_id), ("key.list", "ok", None), ("key.revoke", "ok", new_id),
                       ("key.revoke", "failed", "0123456789ab")]


async def test_refused_requests_are_audited_with_the_key_and_the_reason(app: App, rpc: Grpc) -> None:
    key, key_id = await admin_key(app)
    secret, revoked = new_key("acme", ["read"], now())
    await app.application.state.auth.store.add(revoked)
    await app.application.state.auth.store.revoke(revoked.key_id, now())
    await app.client.get("/v1/status")
    await app.client.get("/v1/status", headers={"authorization": f"Bearer {secret}"})
    admin = {"authorization": f"Bearer {key}"}
    await app.client.post("/v1/interactions", json={"interactions": []}, headers=admin)
    assert (await app.client.get("/v1/memories", params={"tenant": "globex"}, headers=admin)).status_code == 403
    reader_key, reader = new_key("acme", ["read"], now())
    await app.application.state.auth.store.add(reader)
    r = await app.client.get("/v1/memories", params={"include": "forgotten"},
                             headers={"authorization": f"Bearer {reader_key}"})
    assert r.status_code == 403
    with pytest.raises(grpc.aio.AioRpcError):
        await rpc.stub.ListMemories(pb.ListMemoriesRequest(), timeout=30)
    with pytest.raises(grpc.aio.AioRpcError):
        await rpc.stub.ListMemories(pb.ListMemoriesRequest(tenant="globex"), metadata=tuple(admin.items()),
                                    timeout=30)
    events = [e for e, _ in await audit_events(app)]
    seen = [(e.action, e.tenant, e.credential, e.interface, e.target, e.reason) for e in events]
    list_rpc = "hindsight.v1.Hindsight/ListMemories"
    assert seen == [
        ("auth.failed", UNKNOWN_TENANT, None, "http", "GET /v1/status", "no credential"),
        ("auth.failed", "acme", revoked.key_id, "http", "GET /v1/status", "revoked key"),
        ("auth.forbidden", "acme", key_id, "http", "POST /v1/interactions", "missing scope 'write'"),
        ("auth.forbidden", "acme", key_id, "http", "GET /v1/memories", "must be 'acme' (the key's tenant) or left out"),
        ("auth.forbidden", "acme", reader.key_id, "http", "GET /v1/memories",
         f"admin only: needs an API key with the admin scope (API key {reader.key_id} lacks the 'admin' scope)"),
        ("auth.failed", UNKNOWN_TENANT, None, "grpc", list_rpc, "no credential"),
        ("auth.forbidden", "acme", key_id, "grpc", list_rpc, "must be 'acme' (the key's tenant) or left out"),
    ]
    assert all(e.outcome == "denied" for e in events)
    assert not any(secret.encode() in raw for _, raw in await audit_events(app))


async def test_a_flood_of_refusals_is_bounded_and_counted(tmp_path: Path) -> None:
    log = make_log(Settings(data_dir=tmp_path))
    trail = AuditTrail(lambda: log, max_pending=3)
    try:
        for n in range(5):
            trail.note(AuditRecorded(tenant=UNKNOWN_TENANT, user=UNKNOWN_TENANT, occurred_at=now(),
                                     action="auth.failed", outcome="denied", interface="http", target=f"r{n}"))
        assert trail.dropped == 2
        trail.start()
        await trail.stop()  # flushes
        targets = [r.event.target for r in await log.read(AUDIT) if isinstance(r.event, AuditRecorded)]
        assert targets == ["r0", "r1", "r2"]
    finally:
        await log.close()


def test_the_command_line_audits_what_it_creates_and_revokes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "--data-dir", str(tmp_path), "create", "--tenant", "acme", "--scopes", "read"]) == 0
    key = capsys.readouterr().out.strip()
    key_id = key_id_of(key)
    assert main(["keys", "--data-dir", str(tmp_path), "revoke", str(key_id)]) == 0

    async def read() -> list[tuple[AuditRecorded, bytes]]:
        log = make_log(Settings(data_dir=tmp_path))
        try:
            return [(r.event, r.raw) for r in await log.read(AUDIT) if isinstance(r.event, AuditRecorded)]
        finally:
            await log.close()

    events = asyncio.run(read())
    assert [(e.action, e.tenant, e.user, e.interface, e.target) for e, _ in events] == [
        ("key.create", "acme", OPERATOR, "cli", key_id), ("key.revoke", "acme", OPERATOR, "cli", key_id)]
    assert not any(key.encode() in raw for _, raw in events)

    assert main(["audit", "--data-dir", str(tmp_path), "--tenant", "acme", "--limit", "1"]) == 0
    out = capsys.readouterr()
    assert [json.loads(line)["action"] for line in out.out.splitlines()] == ["key.create"]
    assert "more after it" in out.err
    cursor = out.err.split("--after ")[1].strip()
    assert main(["audit", "--data-dir", str(tmp_path), "--tenant", "acme", "--after", cursor]) == 0
    assert [json.loads(line)["action"] for line in capsys.readouterr().out.splitlines()] == ["key.revoke"]


async def test_an_admin_pages_through_its_tenants_audit_and_only_its_own(app: App) -> None:
    key, _ = await admin_key(app)
    globex_key, globex = new_key("globex", ["read", "admin"], now())
    await app.application.state.auth.store.add(globex)
    headers = {"authorization": f"Bearer {key}"}
    for _ in range(3):  # acme: three key.list; globex: two
        await app.client.get("/v1/admin/keys", headers=headers)
    for _ in range(2):
        await app.client.get("/v1/admin/keys", headers={"authorization": f"Bearer {globex_key}"})
    seen, after = [], None
    for _ in range(10):
        params = {"limit": 2, **({"after": after} if after else {})}
        page = (await app.client.get("/v1/admin/audit", params=params, headers=headers)).json()
        assert len(page["events"]) <= 2
        seen += page["events"]
        after = page["next"]
        if not page["more"]:
            break
    assert all(e["tenant"] == "acme" for e in seen)
    actions = [e["action"] for e in seen]
    assert actions[:3] == ["key.list"] * 3 and set(actions[3:]) == {"audit.read"}
    assert len({e["event_id"] for e in seen}) == len(seen)  # each once
    bad = await app.client.get("/v1/admin/audit", params={"after": "x"}, headers=headers)
    assert bad.status_code == 422 and bad.json()["error"]["problems"][0]["field"] == "after"
