"""kill -9 of every consumer service, again and again, while they work: nothing lost,
nothing applied twice, and the projections equal a fresh replay of the log.

The services run as real processes (``hindsight run``) over the real Kafka, PostgreSQL,
Elasticsearch (text and kNN vectors) and Neo4j: ingest, and the four consumers (the
gateway reads, and no read is counted here, so it is left out: it would only add a model
load to the test's time). A writer sends turns to ingest (three users, a session of three
turns each round, then ``close_session``, so reflect learns memories and
consolidate supersedes the older ones); before each kill a round of sessions is written,
and a random moment later one of embed, project, reflect and consolidate is killed with
SIGKILL while it works on it, started again, and another round is written while it is down:
ten kills in CI, twenty-four under ``make chaos``, each of a service up again since its last
one. (The rounds are tied to the kills, not to a clock: a restart costs a model load, tens
of seconds on a loaded machine, and consolidate's restart refolds every memory, so a timed
writer would make the test's data, and its time, grow with the machine's load.)

What is counted, and why it would see a duplicate (projections upsert by id, so counting
their documents cannot):

- the effect audit (``HINDSIGHT_EFFECT_AUDIT``, ``ports/effects.py``): embed and project
  note every log record each projection (vector, text, graph) applied. Every record of
  the log must be there exactly once per projection, and every event id on one record
  only: an event appended twice (by a retry or by a service re-running its batch after a
  kill) and applied twice shows as two entries;
- reflect's and consolidate's effects are what they append to the memories stream (the
  log is their append-only audit): each memory extracted by one ``MemoryExtracted``,
  each decision once, and each memory replaced by at most one decision;
- the memories reflect learned equal those of a fresh reflect, run here over the same
  interactions with a state of its own (memory ids derive from content and sources);
- ``verify``: each projection equals what a fresh replay of the log implies, item by item.

The proof that the counting catches a double application is
tests/integration/test_effect_audit.py.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import time
import uuid
from typing import Any
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from hindsight_common.consolidation.lifecycle import referenced
from hindsight_common.events import MemoriesMerged, MemorySuperseded
from hindsight_common.factory import make_effect_audit, make_log
from hindsight_common.ports.effects import Effect
from hindsight_common.ports.log import LogRecord
from hindsight_common.security.signing_keys import create_keyring_file
from hindsight_common.settings import Settings
from hindsight_services.status import read_status
from tests.e2e.conftest import free_port
from tests.e2e.test_cluster import Cluster, servers_env
from tests.support.cluster_effects import (
    assert_each_record_applied_once, fresh_reflection, log_records, memory_checks, settings_of, verified,
)

CHAOS = os.environ.get("HINDSIGHT_CHAOS") == "1"
KILLS = 24 if CHAOS else 10
CONSUMERS = ("embed", "project", "reflect", "consolidate")
SERVICES = ("ingest", *CONSUMERS)
USERS = ("ann", "bob", "cy")
DRINKS = ("tea", "coffee", "cocoa", "mate", "kefir", "lassi", "chai", "horchata", "kvass", "sake")


class Services(Cluster):
    """The processes without the gateway: writes go to ingest itself."""

    @property
    def gateway(self) -> str:
        return f"http://127.0.0.1:{self.ports['ingest']}"


@pytest.fixture
def killable(tmp_path: Path) -> Iterator[Services]:
    run = uuid.uuid4().hex[:10]
    env = {
        **servers_env(f"kill9-{run}", tmp_path, partitions=3),
        # Reflection on a closed session only: its episode is then the session's turns,
        # whatever batches a restart cut the stream into (a fresh reflect learns the same).
        "HINDSIGHT_REFLECT_EVERY_N_TURNS": "1000000",
        "HINDSIGHT_EFFECT_AUDIT": "true",
        "HINDSIGHT_POLL_TIMEOUT_S": "0.2",
        "HINDSIGHT_CONSUMER_BATCH": "16",  # more batches, more moments to die between write and commit
        "HINDSIGHT_GRPC_PORT": str(free_port()),
        "HINDSIGHT_SIGNING_KEYRING_FILE": str(tmp_path / "signing.json"),
        "HINDSIGHT_MASTER_KEY": base64.b64encode(os.urandom(32)).decode(),
    }
    env.pop("HINDSIGHT_AUTH", None)
    create_keyring_file(tmp_path / "signing.json")
    # What a failed run needs to be looked into afterwards (the log is sealed with the master key).
    (tmp_path / "env.json").write_text(json.dumps({k: v for k, v in env.items() if k.startswith("HINDSIGHT_")}))
    services = Services(env, tmp_path)
    services.create_key("writer", f"kill9-{run}", "read,write")
    services.env["KILL9_TENANT"] = f"kill9-{run}"
    try:
        for service in SERVICES:  # all at once: the model loads overlap
            services.spawn(service)
        for service in SERVICES:
            services.wait_healthy(service, timeout_s=300)
        yield services
    finally:
        services.stop_all()


def session_turns(tenant: str, user: str, round_: int) -> list[dict[str, object]]:
    """Three turns the offline reflector learns two memories from; every value is new for
    the user (a repeated one would be a reinforcement, which depends on what reflect
    already knew when the session closed)."""
    session = f"{user}-r{round_}"
    drink = f"{DRINKS[round_ % len(DRINKS)]} number {round_}"
    said = [f"I prefer {drink} in the morning.",
            f"Remember that my locker code is {user}-{round_ * 7 + 3}.",
            f"Round {round_}: we went over the Lisbon project plan with Tom."]
    return [{"tenant": tenant, "user": user, "session": session, "speaker": user.title(), "content": text,
             "occurred_at": f"2024-05-{1 + round_ % 28:02d}T10:{i:02d}:00Z", "external_id": f"{session}-{i}"}
            for i, text in enumerate(said)]


class Writer:
    """Rounds of sessions: every user's session of three turns, then its close."""

    def __init__(self, services: Services, tenant: str) -> None:
        self.services, self.tenant = services, tenant
        self.acked: list[str] = []
        self.rounds = 0

    def round(self) -> None:
        with self.services.client() as hs:
            for user in USERS:
                written = hs.retain_many(session_turns(self.tenant, user, self.rounds))
                self.acked += [e.event_id for e in written.events]
                hs.close_session(f"{user}-r{self.rounds}", user=user)
        self.rounds += 1


async def caught_up(settings: Settings) -> tuple[bool, dict[str, int]]:
    """Whether every consumer group has committed up to the log heads, and the heads."""
    log = make_log(settings)
    try:
        status = await read_status(log, {})
    finally:
        await log.close()
    return bool(status["caught_up"]), dict(status["log"])


async def effects_of(settings: Settings) -> list[Effect]:
    audit = make_effect_audit(settings)
    assert audit is not None, "HINDSIGHT_EFFECT_AUDIT is off"
    try:
        return await audit.effects()
    finally:
        await audit.close()


def settle(settings: Settings, timeout_s: float = 300) -> None:
    """Caught up, and still caught up with the same log heads a moment later (reflect's
    memories and consolidate's decisions are appended after their inputs were read)."""
    deadline = time.monotonic() + timeout_s
    before = None
    while True:
        done, heads = asyncio.run(caught_up(settings))
        if done and heads == before:
            return
        assert time.monotonic() < deadline, f"not caught up after {timeout_s:.0f} s"
        before = heads if done else None
        time.sleep(1.0)


def naming(records: Sequence[LogRecord], unequal: list[dict[str, Any]]) -> dict[str, list[str]]:
    """For each differing document of the reports, the log records whose event names it
    (where each sits and what it is): what a divergence's diagnosis starts from."""
    ids = {x.rpartition("/")[2] for u in unequal for x in u["examples"]["different"]}
    out: dict[str, list[str]] = {i: [] for i in ids}
    for r in records:
        if r.event is None:
            continue
        named = {str(getattr(r.event, "memory_id", "")), str(r.event.event_id), *referenced(r.event)} & ids
        for i in sorted(named):
            out[i].append(f"{r.stream}#{r.partition}@{r.offset} {type(r.event).__name__} {r.event.event_id}"
                          f" {referenced(r.event)}")
    return out


def test_kill_9_every_consumer_again_and_again(killable: Services) -> None:
    services, tenant = killable, killable.env["KILL9_TENANT"]
    rng = random.Random()
    seed = rng.randrange(10**6)
    rng.seed(seed)
    order = [CONSUMERS[i % len(CONSUMERS)] for i in range(KILLS)]
    rng.shuffle(order)
    writer = Writer(services, tenant)
    writer.round()
    started = time.monotonic()
    for service in order:
        services.wait_healthy(service, timeout_s=300)  # up again since its last kill
        writer.round()  # work for every consumer: turns, closes, then memories and decisions
        # A random moment of that work: mid-batch, between a write and its commit, idle.
        time.sleep(rng.uniform(0.0, 2.5))
        services.kill(service)
        services.spawn(service)
        writer.round()  # written while it is down
    for service in CONSUMERS:
        services.wait_healthy(service, timeout_s=300)
    kill_phase_s = time.monotonic() - started
    settings = settings_of(services.env)
    settle(settings)
    records = asyncio.run(log_records(settings))
    interactions = [str(r.event.event_id) for r in records if r.stream.endswith("interactions.v1") and r.event]
    counted = Counter(interactions)
    assert not set(writer.acked) - set(counted), "acknowledged turns missing from the log"
    assert [i for i, n in counted.items() if n > 1] == [], "turns appended twice"

    redelivered = assert_each_record_applied_once(records, asyncio.run(effects_of(settings)), ("vector", "text", "graph"))

    memories = [r.event for r in records if r.event is not None]
    extracted, decisions = memory_checks(memories)
    assert extracted, "reflect learned nothing"
    assert extracted == asyncio.run(fresh_reflection(settings, records)), \
        "the memories reflect learned differ from a fresh reflect's over the same turns"
    assert any(isinstance(e, MemorySuperseded | MemoriesMerged) for e in decisions), "consolidate decided nothing"

    reports = asyncio.run(verified(settings))
    unequal = [r.summary() for r in reports if not r.equal]
    assert not unequal, json.dumps({"unequal": unequal, "records": naming(records, unequal)}, indent=1)
    print(f"kill -9: {KILLS} kills (seed {seed}) over {kill_phase_s:.0f} s, {writer.rounds} rounds,"
          f" {len(writer.acked)} turns, {len(extracted)} memories, {len(decisions)} decisions,"
          f" redelivered records per projection {redelivered}")
