"""Reads and writes audited on the real Kafka log: a cluster gateway that writes through its
in-process ingest (no HINDSIGHT_INGEST_URL) over Kafka and PostgreSQL audits a write, its
redaction and a recall on ``hindsight.audit.v1`` in the background, and none of the
content, the secret or the query reaches the stored records."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import Any

import httpx

from hindsight_common.events.audit import AuditRecorded
from hindsight_common.factory import make_credentials
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from hindsight_common.streams import AUDIT
from hindsight_services.process import create_service_app
from tests.contract.test_kafka_log import MakeLog, admin, bootstrap, dsn, make, prefix, schema  # noqa: F401
from tests.integration.test_audit_actions import QUERY, SECRET
from tests.servers import server_url


async def test_the_gateway_audits_writes_and_recalls_on_kafka(
    bootstrap: str, prefix: str, make: MakeLog, tmp_path: Path  # noqa: F811
) -> None:
    settings = Settings(
        data_dir=tmp_path / "data", log_backend="kafka", kafka_bootstrap=bootstrap, kafka_topic_prefix=prefix,
        kafka_partitions=1, postgres_dsn=server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        text_backend="sqlite_fts", graph_backend="sqlite", grpc_port=0, reranker="none",
        signing_keys={"audit": base64.b64encode(b"audit-kafka-test-key-32-bytes-ok").decode()},
        signing_key_id="audit", master_key=base64.b64encode(b"audit-kafka-test-master-key-32by").decode())
    token, record = new_key("default", ["read", "write", "admin"], now())
    store = make_credentials(settings)  # the cluster's key store, in PostgreSQL
    try:
        await store.add(record)
    finally:
        await store.close()
    headers = {"authorization": f"Bearer {token}"}
    app = create_service_app("query", settings)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test",
                                     timeout=30) as client:
            turn = {"user": "ann", "session": "s1", "speaker": "Ann", "content": f"Mail me at {SECRET}",
                    "occurred_at": "2024-05-01T10:00:00Z"}
            written = await client.post("/v1/interactions", json={"interactions": [turn]}, headers=headers)
            assert written.status_code == 201, written.text
            recalled = await client.post("/v1/recall", json={"user": "ann", "query": QUERY, "k": 4}, headers=headers)
            assert recalled.status_code == 200, recalled.text
            actions: dict[str, dict[str, Any]] = {}
            for _ in range(100):  # appended in the background: a batch may still be on its way
                await app.state.audit.flush()
                page = await client.get("/v1/admin/audit", params={"limit": 100}, headers=headers)
                assert page.status_code == 200, page.text
                actions = {e["action"]: e for e in page.json()["events"]}
                if {"ingest", "recall", "pii.redacted"} <= set(actions):
                    break
                await asyncio.sleep(0.1)
    log = make()  # another reader of the same topics: the bytes as stored
    partitions = sorted(int(k.rsplit("#", 1)[1]) for k in await log.head(AUDIT))
    raw, stored = b"", []
    for p in partitions:
        for r in await log.read(AUDIT, partition=p):
            raw += r.raw
            assert isinstance(r.event, AuditRecorded), r.error
            stored.append(str(r.event.event_id))
    # The gateway's own page read the topic from its first record (later records, such as
    # the audit of that last page request, may have come after it).
    paged = [e["event_id"] for e in page.json()["events"]]
    assert stored[0] in paged and set(paged) <= set(stored), (stored, paged)
    redacted = actions["pii.redacted"]
    [event_id] = [e["event_id"] for e in written.json()["events"]]
    assert actions["ingest"]["outcome"] == "ok" and actions["ingest"]["details"]["first_event"] == event_id
    assert actions["ingest"]["credential"] == record.key_id and actions["recall"]["user"] == record.key_id
    assert redacted["target"] == event_id and redacted["details"]["types"] == "email"
    assert redacted["credential"] == record.key_id
    recall = actions["recall"]
    assert recall["details"]["k"] == 4 and recall["details"]["results"] == len(recalled.json()["items"])
    assert (recall["tenant"], recall["interface"], recall["target"]) == ("default", "http", "POST /v1/recall")
    assert raw and SECRET.encode() not in raw and QUERY.encode() not in raw
    assert AuditRecorded.model_fields["schema_version"].default == 2
