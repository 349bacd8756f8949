"""Consolidation in cluster mode: the six service processes over real Kafka, PostgreSQL,
Elasticsearch and Neo4j. A changed preference is superseded across a kill -9 of
consolidate (its fold is rebuilt from Kafka on restart): recall and browsing return only
the new value, the history both, an admin's include=superseded the old one; a pin and an
on-demand forgetting pass through the gateway."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

from hindsight_client import Hindsight
from tests.e2e.test_cluster import TENANT, Cluster, cluster  # noqa: F401 (the fixture)

QUESTION = "Which language does Dan prefer for scripting?"


def say(hs: Hindsight, session: str, content: str, day: int) -> None:
    hs.retain(content, user="dan", session=session, speaker="Dan",
              occurred_at=datetime(2024, 5, day, 10, 0, tzinfo=UTC), external_id=f"{session}-1")
    hs.close_session(session, user="dan")


def semantic(hs: Hindsight, n: int, timeout_s: float = 180) -> list[str]:
    """The ids of Dan's semantic memories, live or superseded, once there are ``n``."""
    deadline = time.monotonic() + timeout_s
    while True:
        hs.wait_until_caught_up(timeout=timeout_s, interval=0.25)
        found = [m.id for m in hs.list_memories(user="dan", include=["superseded"], limit=50).items]
        if len(found) >= n:
            return found
        assert time.monotonic() < deadline, f"expected {n} memories, found {found}"
        time.sleep(0.25)


def test_a_changed_preference_is_superseded_across_a_restart(cluster: Cluster) -> None:  # noqa: F811
    tenant = f"{TENANT}-consolidate-{uuid.uuid4().hex[:6]}"
    cluster.create_key("consolidate-writer", tenant, "read,write")
    cluster.create_key("consolidate-admin", tenant, "read,write,admin")
    with cluster.client("consolidate-writer") as hs, cluster.client("consolidate-admin") as admin:
        say(hs, "s1", "I prefer Python for scripting.", 1)
        [python] = semantic(admin, 1)
        cluster.kill("consolidate")  # kill -9: its fold lives only in memory
        cluster.start("consolidate")
        say(hs, "s2", "Actually, I now prefer Go for scripting.", 20)
        semantic(admin, 2)
        deadline = time.monotonic() + 180
        while not (live := [i.id for i in hs.recall(QUESTION, user="dan", types="semantic").items]) or python in live:
            assert time.monotonic() < deadline, f"the old value is still live: {live}"
            time.sleep(0.25)
            hs.wait_until_caught_up(timeout=180, interval=0.25)
        [go] = live
        assert [m.id for m in hs.list_memories(user="dan").items] == [go]
        chain = hs.memory_history(go)
        assert chain.live == go
        assert [(v.id, v.type) for v in chain.versions] == [(python, "superseded"), (go, "semantic")]
        old = admin.recall(QUESTION, user="dan", types="semantic", include="superseded").items
        assert {(i.id, i.type, i.superseded_by) for i in old} == {(python, "superseded", go), (go, "semantic", None)}

        # Pinning and an on-demand pass go through the gateway to ingest, which reads Kafka.
        hs.pin(go, user="dan", reason="keep")
        deadline = time.monotonic() + 180
        while not hs.get_memory(go).memory.pinned:
            assert time.monotonic() < deadline, "the pin never reached the projections"
            time.sleep(0.25)
        dry = hs.consolidate(user="dan", dry_run=True)
        assert dry.dry_run and dry.live == 1 and dry.forgotten == ()
