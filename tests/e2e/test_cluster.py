"""Cluster mode end to end: six separate service processes over real Kafka,
PostgreSQL, Elasticsearch (text and kNN vectors) and Neo4j.

Ingest through the gateway with the Python SDK, wait until visible, recall; then
kill -9 the embed and project services mid-stream, restart them, and count every
projection: zero lost, zero duplicated. A forgotten memory stays hidden except from
an admin. `hindsight run` requires API keys: the test creates them with `hindsight keys
create` (in PostgreSQL) and every call carries one; the tenant-isolation property of
tests/integration/test_tenant_isolation.py is checked against the processes too. (No Qdrant server can run here, so the vector projection is
Elasticsearch's kNN; the Qdrant adapter has its own suite.)
"""

from __future__ import annotations

import base64
import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings as hypothesis_settings

from hindsight_client import Forbidden, Hindsight, HindsightError, InvalidRequest
from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.adapters.postgres_credentials import PostgresCredentials
from hindsight_common.factory import make_graph_store, make_text_index, make_vector_index
from hindsight_common.security.signing_keys import create_keyring_file
from hindsight_common.settings import Settings
from tests.e2e.conftest import free_port
from tests.integration.test_tenant_isolation import Memory, add_keys, check_isolation, worlds
from tests.servers import server_url

SERVICES = ("ingest", "embed", "project", "reflect", "consolidate", "query")
# Per run: reflect's state (turns per session, known memories) lives in PostgreSQL and
# outlives a run; a fixed tenant would pile up turns until sessions get summaries.
TENANT = f"cluster-e2e-{uuid.uuid4().hex[:8]}"
ADMIN_TENANT = f"{TENANT}-admin"


class Cluster:
    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.ports = {s: free_port() for s in SERVICES}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.keys: dict[str, str] = {}

    def create_key(self, name: str, tenant: str, scopes: str) -> None:
        made = subprocess.run([sys.executable, "-m", "hindsight_services.cli", "keys", "create",
                               "--tenant", tenant, "--scopes", scopes], env=self.env,
                              capture_output=True, text=True, timeout=60, check=True)
        self.keys[name] = made.stdout.strip()

    @property
    def gateway(self) -> str:
        return f"http://127.0.0.1:{self.ports['query']}"

    def start(self, service: str, timeout_s: float = 180) -> None:
        self.spawn(service)
        self.wait_healthy(service, timeout_s)

    def spawn(self, service: str) -> None:
        """Start ``service``'s process without waiting for it."""
        env = {**self.env, "HINDSIGHT_PORT": str(self.ports[service])}
        if service == "query":
            env["HINDSIGHT_INGEST_URL"] = f"http://127.0.0.1:{self.ports['ingest']}"
        with open(self.logs / f"{service}.log", "ab") as out:
            self.procs[service] = subprocess.Popen(
                [sys.executable, "-m", "hindsight_services.cli", "run", service],
                stdout=out, stderr=subprocess.STDOUT, env=env)

    def wait_healthy(self, service: str, timeout_s: float = 180) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.procs[service].poll() is not None:
                raise RuntimeError(f"{service} exited:\n{(self.logs / f'{service}.log').read_text()[-4000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.ports[service]}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"{service} not healthy:\n{(self.logs / f'{service}.log').read_text()[-4000:]}")

    def kill(self, service: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs.pop(service)
        proc.send_signal(sig)
        proc.wait(timeout=60)

    def stop_all(self) -> None:
        for service in list(self.procs):
            self.kill(service, signal.SIGTERM)

    def client(self, key: str = "writer") -> Hindsight:
        """The Python SDK on the gateway (the query service), with one of ``keys``."""
        return Hindsight(self.gateway, api_key=self.keys[key], timeout=60)

    def wait_caught_up(self, timeout_s: float = 180) -> None:
        with self.client() as hs:
            hs.wait_until_caught_up(timeout=timeout_s, interval=0.25)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    run = uuid.uuid4().hex[:10]
    env = {
        **servers_env(f"e2e-{run}", tmp_path, partitions=3),
        "HINDSIGHT_REFLECT_EVERY_N_TURNS": "1000000",  # keep this test's projections episodic only
        "HINDSIGHT_POLL_TIMEOUT_S": "0.2",
        "HINDSIGHT_GRPC_PORT": str(free_port()),
        "HINDSIGHT_SIGNING_KEYRING_FILE": str(tmp_path / "signing.json"),  # required in a cluster
        "HINDSIGHT_MASTER_KEY": base64.b64encode(os.urandom(32)).decode(),  # required in a cluster
    }
    env.pop("HINDSIGHT_AUTH", None)  # `hindsight run`'s own default: required
    create_keyring_file(tmp_path / "signing.json")
    c = Cluster(env, tmp_path)
    c.create_key("writer", TENANT, "read,write")
    c.create_key("member", ADMIN_TENANT, "read,write")
    c.create_key("admin", ADMIN_TENANT, "read,write,admin")
    try:
        for service in SERVICES:
            c.start(service)
        yield c
    finally:
        c.stop_all()


def servers_env(run: str, tmp_path: Path, partitions: int) -> dict[str, str]:
    """The environment of cluster processes on the shared servers, with topics, indexes
    and a graph namespace of their own (``run``, e.g. ``e2e-<hex>``)."""
    name = run.replace("-", "_")
    return {
        **os.environ,
        "HINDSIGHT_LOG_BACKEND": "kafka",
        "HINDSIGHT_KAFKA_BOOTSTRAP": server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka"),
        "HINDSIGHT_KAFKA_TOPIC_PREFIX": f"{run}.",
        "HINDSIGHT_KAFKA_PARTITIONS": str(partitions),
        "HINDSIGHT_POSTGRES_DSN": server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"),
        "HINDSIGHT_TEXT_BACKEND": "elasticsearch",
        "HINDSIGHT_VECTOR_BACKEND": "elasticsearch",
        "HINDSIGHT_ELASTICSEARCH_URL": server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch"),
        "HINDSIGHT_ELASTICSEARCH_INDEX": f"{name}_text",
        "HINDSIGHT_ELASTICSEARCH_VECTOR_INDEX": f"{name}_vectors",
        "HINDSIGHT_GRAPH_BACKEND": "neo4j",
        "HINDSIGHT_NEO4J_URI": server_url("HINDSIGHT_NEO4J_URI", "Neo4j"),
        "HINDSIGHT_NEO4J_NAMESPACE": name,
        "HINDSIGHT_DATA_DIR": str(tmp_path / "data"),
    }


def turns(start: int, n: int) -> list[dict[str, Any]]:
    return [{"tenant": TENANT, "user": f"u{i % 4}", "session": f"s{i % 7}", "speaker": "Ann",
             "content": f"Log entry {i}: Ann discussed the Lisbon project with Tom.",
             "occurred_at": "2024-05-01T10:00:00Z", "external_id": f"x{i}"} for i in range(start, start + n)]


async def projection_ids(env: dict[str, str], tenant: str = TENANT) -> dict[str, list[str]]:
    settings = Settings(**{k[len("HINDSIGHT_"):].lower(): v for k, v in env.items()
                           if k.startswith("HINDSIGHT_") and k not in ("HINDSIGHT_INFRA_DIR", "HINDSIGHT_CACHE_DIR")})
    out = {}
    for name, projection in (("vector", make_vector_index(settings, 384)), ("text", make_text_index(settings)),
                             ("graph", make_graph_store(settings))):
        try:
            # ids, count, ids again: while the projection is still writing, the two reads of
            # ids differ and we read again; once they agree, count must agree with them.
            for _ in range(50):
                ids = await projection.ids(tenant)
                n = await projection.count(tenant)
                if await projection.ids(tenant) == ids:
                    assert n == len(ids), f"{name}: count disagrees with ids"
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"{name}: still changing after 50 readings")
            out[name] = ids
        finally:
            await projection.close()
    return out


def forgotten_only_for_admins(cluster: Cluster) -> None:
    """Reflect a session, forget its memory: hidden by default, shown to the admin. In a
    tenant of its own, apart from the projections counted below."""
    with cluster.client("member") as hs, cluster.client("admin") as admin:
        hs.retain("I love sailing on the lake.", user="fay", session="s1", speaker="Fay")
        hs.close_session("s1", user="fay")
        deadline = time.monotonic() + 120
        while not (memories := hs.list_memories(user="fay", kinds="preference").items):
            assert time.monotonic() < deadline, "reflection wrote no memory"
            time.sleep(0.25)
        [memory] = memories
        hs.forget(memory.id, user="fay")
        hs.wait_until_caught_up(timeout=180)
        question = "What does Fay love doing?"
        assert memory.id not in [i.id for i in hs.recall(question, user="fay").items]
        assert memory.id not in [m.id for m in hs.list_memories(user="fay").items]
        with pytest.raises(Forbidden) as refused:
            hs.recall(question, user="fay", include="forgotten")
        assert refused.value.status == 403 and [p.field for p in refused.value.problems] == ["include"]
        found = admin.recall(question, user="fay", types="semantic", include="forgotten").items
        assert [(i.type, i.content) for i in found if i.id == memory.id] == [("forgotten", memory.content)]


def tenants_stay_apart(cluster: Cluster) -> None:
    """The tenant-isolation property of tests/integration/test_tenant_isolation.py, against
    the six processes: keys straight in the PostgreSQL store the services read, tenants of
    each example unique to it (reflect's state outlives an example)."""

    async def run(world: list[Memory]) -> None:
        store = PostgresCredentials(PostgresState(cluster.env["HINDSIGHT_POSTGRES_DSN"]))
        try:
            keys = await add_keys(store, {m.tenant for m in world})
        finally:
            await store.close()
        async with httpx.AsyncClient(base_url=cluster.gateway, timeout=60) as client:
            await check_isolation(client, keys, world, lambda: asyncio.to_thread(cluster.wait_caught_up))

    @hypothesis_settings(max_examples=3, deadline=None)
    @given(world=worlds())
    def isolated(world: list[Memory]) -> None:
        run_id = uuid.uuid4().hex[:6]
        asyncio.run(run([replace(m, tenant=f"iso-{run_id}-{m.tenant}") for m in world]))

    isolated()


def test_six_processes_ingest_recall_and_survive_kill_9(cluster: Cluster) -> None:
    for service in ("query", "ingest"):  # no key, no answer, at the gateway and behind it
        r = httpx.post(f"http://127.0.0.1:{cluster.ports[service]}/v1/interactions", json={"interactions": turns(0, 1)})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized", service
    with Hindsight(cluster.gateway, api_key=cluster.keys["member"], timeout=60) as other:
        with pytest.raises(Forbidden):  # a key of another tenant
            other.retain_many(turns(0, 1))
    with cluster.client() as hs:
        acked = [e.event_id for e in hs.retain_many(turns(0, 20)).events]
        assert len(acked) == 20
        hs.wait_until_caught_up(timeout=180)
        items = hs.recall("Lisbon project", user="u1", k=5).items
        assert items and all(i.user == "u1" and "Lisbon" in i.content for i in items)
        with pytest.raises(InvalidRequest) as bad:
            hs.retain_many([{"tenant": TENANT, "user": "u", "session": "s"}])
        assert bad.value.status == 422 and bad.value.problems
    forgotten_only_for_admins(cluster)
    tenants_stay_apart(cluster)

    # A writer keeps going while embed and project are killed and restarted.
    errors: list[str] = []

    def writer() -> None:
        with cluster.client() as hs:
            for batch in range(30):
                try:
                    written = hs.retain_many(turns(100 + batch * 10, 10))
                except HindsightError as e:
                    errors.append(str(e))
                    return
                acked.extend(e.event_id for e in written.events)
                time.sleep(0.1)

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.8)
    cluster.kill("embed")
    cluster.kill("project")
    time.sleep(0.5)
    cluster.start("embed")
    cluster.start("project")
    thread.join(timeout=300)
    assert not errors and len(acked) == 20 + 300
    cluster.wait_caught_up()

    ids = asyncio.run(projection_ids(cluster.env))
    for name, got in ids.items():
        missing = set(acked) - set(got)
        extra = [i for i in got if i not in set(acked)]
        assert not missing, f"{name}: {len(missing)} acknowledged interactions lost"
        assert not extra and len(got) == len(set(got)) == len(acked), (
            f"{name}: {len(extra)} unknown documents (e.g. {extra[:3]}), {len(got) - len(set(got))} duplicated")
