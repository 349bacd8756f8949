"""``/v1/status``'s one definition of caught up (services/hindsight_services/status.py), on
both logs: a consumer group that has not committed is behind by what it has not applied,
and caught up once it commits; a store being rebuilt holds its group back. The cluster
gateway reads its groups this way (over Kafka, without joining them); the embedded server
reports the same document for the consumers it runs."""

from __future__ import annotations

from pathlib import Path

from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.ports.log import EventLog
from hindsight_common.streams import INTERACTIONS
from hindsight_services.status import GROUPS, read_status
from tests.contract.log_contract import turn
from tests.contract.test_kafka_log import MakeLog, admin, bootstrap, dsn, make, prefix, schema  # noqa: F401
from tests.integration.conftest import App
from tests.integration.test_http_api import ingest, turn as body

async def commit_all(log: EventLog, group: str, n: int) -> None:
    """Run ``group`` over its streams until it has applied and committed ``n`` records."""
    sub = await log.subscribe(group, GROUPS[group])
    seen = 0
    for _ in range(100):
        batch = await sub.fetch(100, 0.5)
        if batch:
            await sub.commit(batch)
            seen += len(batch)
        if seen >= n:
            break
    await sub.close()
    assert seen == n


async def behind_then_caught_up(log: EventLog, tmp_path: Path, unapplied: int) -> None:
    """``unapplied``: what ``behind`` counts for three records no group has applied (3 on
    Kafka; on SQLite an upper bound, its offsets are shared by all streams and start at 1)."""
    await log.append(INTERACTIONS, [turn(f"u{i}", f"m{i}") for i in range(3)])
    before = await read_status(log, {})
    assert before["caught_up"] is False
    assert {g: c["behind"] for g, c in before["consumers"].items()} == {
        "embed": unapplied, "project": unapplied, "reflect": unapplied, "consolidate": 0}  # memories only
    assert before["consumers"]["consolidate"]["caught_up"] is True

    await commit_all(log, "embed", 3)
    after = await read_status(log, {})
    embed = after["consumers"]["embed"]
    assert (embed["behind"], embed["caught_up"]) == (0, True)
    assert embed["position"] == {k: v for k, v in after["log"].items() if k.startswith(INTERACTIONS)}
    assert after["consumers"]["project"]["behind"] == unapplied and after["caught_up"] is False

    for group in ("project", "reflect"):
        await commit_all(log, group, 3)
    assert (await read_status(log, {}))["caught_up"] is True
    # A text index rebuilt from nothing holds project back, whatever the group committed.
    empty = SqliteFtsIndex(tmp_path / "rebuilt-text.sqlite")
    try:
        rebuilding = await read_status(log, {"project": [empty]})
        assert rebuilding["consumers"]["project"] == {"position": {}, "behind": unapplied, "caught_up": False}
        assert rebuilding["caught_up"] is False
    finally:
        await empty.close()


async def test_the_sqlite_log(tmp_path: Path) -> None:
    log = SqliteLog(tmp_path / "log.sqlite")
    try:
        await behind_then_caught_up(log, tmp_path, unapplied=4)
    finally:
        await log.close()


async def test_real_kafka(make: MakeLog, tmp_path: Path) -> None:  # noqa: F811
    await behind_then_caught_up(make(partitions=2, other_partitions=1), tmp_path, unapplied=3)


async def test_the_embedded_server_reports_every_consumer(app: App) -> None:
    await ingest(app, body("I live in Lisbon"), body("My favourite colour is green"))
    await app.runtime.wait_caught_up()
    status = (await app.client.get("/v1/status")).json()
    assert status["caught_up"] is True
    assert set(status["consumers"]) == set(GROUPS)
    for group, consumer in status["consumers"].items():
        assert consumer["caught_up"] is True and consumer["behind"] == 0, group
        for key, head in status["log"].items():
            if key.rsplit("#", 1)[0] in GROUPS[group]:
                assert consumer["position"][key] >= head, (group, key)
    assert status["consumers"]["embed"]["processed"] >= 2  # its own counters beside
    assert status["consumers"]["reflect"]["dead_lettered"] == 0
    # The text index's in-memory BM25: the user was first written here, so held at once.
    memory = status["text_memory"]
    assert memory["users"] >= 1 and memory["building"] == 0 and memory["documents"] >= 2 and memory["bytes"] > 0

    vectors = status["vector_memory"]  # and its vectors, held the same way
    assert vectors["users"] >= 1 and vectors["building"] == 0 and vectors["listing"] == 0
    assert vectors["points"] >= 2 and vectors["bytes"] > 0
