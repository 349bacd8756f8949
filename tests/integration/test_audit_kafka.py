"""Paging through a tenant's audit events on the real Kafka log, across partitions: each of
the tenant's events exactly once, none of another tenant's, oldest first within a page;
also through the traced log the services wrap every adapter in, which once skipped each
Kafka partition's first record (offset 0)."""

from __future__ import annotations

from hindsight_common.events.audit import AuditRecorded
from hindsight_common.security.credentials_access import now
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.streams import AUDIT
from hindsight_common.telemetry import TracedLog
from tests.contract.test_kafka_log import MakeLog, admin, bootstrap, dsn, make, prefix, schema  # noqa: F401


def event(tenant: str, user: str, n: int) -> AuditRecorded:
    return AuditRecorded(tenant=tenant, user=user, occurred_at=now(), action="key.list", outcome="ok",
                         interface="http", target=f"t{n}")


async def test_pages_cover_every_partition_once(make: MakeLog) -> None:
    log = make(partitions=1, other_partitions=4)
    events = [event("acme" if n % 3 else "globex", f"key{n % 5}", n) for n in range(24)]
    for e in events:  # one at a time: recorded_at orders them as the log does
        await log.append(AUDIT, [e])
    assert len(await log.head(AUDIT)) > 1  # spread over partitions (keyed tenant/user)
    trail = AuditTrail(lambda: log)
    seen: list[str] = []
    after: str | None = None
    for _ in range(20):
        page = await trail.page("acme", after, limit=3)
        assert len(page.events) <= 3 and all(e.tenant == "acme" for e in page.events)
        seen += [str(e.target) for e in page.events]
        after = page.next
        if not page.more:
            break
    assert sorted(seen) == sorted(str(e.target) for e in events if e.tenant == "acme")
    assert len(seen) == len(set(seen))
    assert (await trail.page("acme", after, limit=3)).events == []  # nothing new since
    await log.append(AUDIT, [event("acme", "key1", 99)])
    assert [e.target for e in (await trail.page("acme", after, limit=3)).events] == ["t99"]


async def test_the_traced_log_pages_from_a_partitions_first_record(make: MakeLog) -> None:
    log = make(partitions=1, other_partitions=1)
    await log.append(AUDIT, [event("acme", "key1", 0)])  # offset 0 of the only partition
    traced = TracedLog(log)  # as the gateway and the embedded server hold it
    assert [r.offset for r in await traced.read(AUDIT)] == [0]
    assert [e.target for e in (await AuditTrail(lambda: traced).page("acme")).events] == ["t0"]
    await log.append(AUDIT, [event("acme", "key1", 1)])
    assert [r.offset for r in await traced.read(AUDIT, after=0)] == [1]  # an explicit cursor still counts
