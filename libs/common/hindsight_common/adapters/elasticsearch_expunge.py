"""Making an Elasticsearch deletion physical, for erasure.

A deleted document stays on disk: Lucene only marks it deleted in its segment, and
Elasticsearch keeps even that marked copy (a *soft delete*) while a shard history
retention lease may still need the operation (peer recovery, cross-cluster
replication). A force merge before the leases have moved past the deletion keeps the
deleted documents in the merged segment, and the segments of the last commit stay on
disk until the next flush. So, after the deletes of an erasure:

1. read each shard copy's highest sequence number (the deletes are at or below it);
2. wait until every retention lease retains only operations above it (Elasticsearch
   renews its own peer-recovery leases every 30 seconds or so);
3. force merge with ``only_expunge_deletes`` and the index's
   ``index.merge.policy.expunge_deletes_allowed`` at 0, so every segment holding a
   deleted document is rewritten (the default, 10%, skips a segment where the erased
   user's documents are a small part);
4. flush (forced), so the new commit no longer references the old segments, which are deleted,
   and the translog generations holding the documents' source are trimmed.

A lease that does not move within ``wait_s`` (a stale cross-cluster follower, say) is a
ProjectionError naming it: the consumer retries the erasure rather than acknowledging a
deletion that is still on disk.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from elasticsearch import ApiError, AsyncElasticsearch, TransportError

from hindsight_common.errors import ProjectionError

T = TypeVar("T")


class AliasedIndex(Protocol):
    """What this module uses of ``elasticsearch_base.AliasedIndex``."""

    alias: str
    client: AsyncElasticsearch

    async def call(self, what: str, make: Callable[[], Awaitable[T]]) -> T: ...

WAIT_S = 120.0
POLL_S = 2.0
MERGE_TIMEOUT_S = 600.0


async def deleted_documents(es: AliasedIndex) -> int:
    """How many deleted documents the index behind the alias still holds."""
    stats = await _stats(es, "docs")
    return sum(int(i["primaries"]["docs"]["deleted"]) for i in stats["indices"].values())


async def expunge(es: AliasedIndex, *, wait_s: float = WAIT_S, poll_s: float = POLL_S) -> None:
    """Steps 1-4 of the module docstring on the index behind ``es``'s alias, repeated
    until no segment holds a deleted document: the merge policy learns of a lease's
    move a little after the shard stats show it, so a merge right then may still keep
    them."""
    highest = _highest_seq_nos(await _stats(es, "docs"))
    await es.call("allow expunging every delete", lambda: es.client.indices.put_settings(
        index=es.alias, settings={"index.merge.policy.expunge_deletes_allowed": 0}))
    deadline = time.monotonic() + wait_s
    while True:
        holding = _leases_holding(await _stats(es, "docs"), highest)
        if not holding:
            try:
                async with asyncio.timeout(MERGE_TIMEOUT_S):
                    await es.client.options(request_timeout=MERGE_TIMEOUT_S).indices.forcemerge(
                        index=es.alias, only_expunge_deletes=True)
            except (ApiError, TransportError, TimeoutError) as e:
                raise ProjectionError(f"Elasticsearch expunge deletes on {es.alias} failed: {e}") from e
            # Forced: a merge leaves no uncommitted operation, so a plain flush would do nothing.
            await es.call("flush", lambda: es.client.indices.flush(
                index=es.alias, force=True, wait_if_ongoing=True))
            if not await _deleted_in_segments(es):
                return
        if time.monotonic() >= deadline:
            raise ProjectionError(
                f"Elasticsearch {es.alias}: deleted documents are still on disk after {wait_s:.0f} s "
                f"(retention leases keeping their history: {sorted(holding) or 'none'}); the erasure "
                "is retried (remove a stale lease, e.g. a cross-cluster follower's, if this persists)")
        await asyncio.sleep(poll_s)


async def _deleted_in_segments(es: AliasedIndex) -> int:
    response = await es.call("read segments", lambda: es.client.indices.segments(index=es.alias))
    return sum(int(segment["deleted_docs"]) for index in response.body["indices"].values()
               for copies in index["shards"].values() for copy in copies
               for segment in copy["segments"].values())


async def _stats(es: AliasedIndex, metric: str) -> Any:
    response = await es.call("read shard stats", lambda: es.client.indices.stats(
        index=es.alias, metric=metric, level="shards"))
    return response.body


def _copies(stats: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{name}[{shard}]", copy) for name, index in stats["indices"].items()
            for shard, copies in index.get("shards", {}).items() for copy in copies]


def _highest_seq_nos(stats: Any) -> dict[str, int]:
    highest: dict[str, int] = {}
    for shard, copy in _copies(stats):
        highest[shard] = max(highest.get(shard, -1), int(copy["seq_no"]["max_seq_no"]))
    return highest


def _leases_holding(stats: Any, highest: dict[str, int]) -> set[str]:
    """The leases, on any copy, that still retain an operation at or below ``highest``."""
    return {str(lease["id"]) for shard, copy in _copies(stats)
            for lease in copy.get("retention_leases", {}).get("leases", [])
            if int(lease["retaining_seq_no"]) <= highest.get(shard, -1)}
