"""Access counts in PostgreSQL (cluster mode): the same port as ``sqlite_access``.

Tables ``access_counts`` and ``access_positions`` (migration 3 in ``postgres``). Several
consolidate replicas may write at once (each owns some partitions, and a rebalance
can hand a partition over while its old owner finishes a batch): ``add`` locks the
position rows of the keys it touches, so two writers of the same partition take turns
and the second one sees what the first applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.ports.access import AccessCounts, AccessIncrement, applicable
from hindsight_common.ports.log import Position


class PostgresAccessCounts(AccessCounts):
    """Access counts over a :class:`PostgresState` (which it owns and closes).

    ``namespace`` (the Kafka topic prefix) is part of every stored position key: an offset
    means something only on its own topic, and deployments with different prefixes may
    share one database. Without it, a cluster on fresh topics resumed consolidate from
    another cluster's offsets (Kafka answered "offset out of range")."""

    def __init__(self, state: PostgresState, namespace: str = "") -> None:
        self._state = state
        self._namespace = namespace

    async def position(self) -> dict[str, int]:
        async with self._state.connection() as conn:
            rows = await conn.fetch("SELECT pkey, log_offset FROM access_positions WHERE starts_with(pkey, $1)",
                                    self._namespace)
        cut = len(self._namespace)
        return {str(r[0])[cut:]: int(r[1]) for r in rows}

    async def add(self, increments: Sequence[AccessIncrement], position: Position) -> None:
        position = {self._namespace + k: v for k, v in position.items()}
        increments = [replace(i, position_key=self._namespace + i.position_key) for i in increments]
        keys = sorted(set(position) | {i.position_key for i in increments})
        if not keys:
            return
        async with self._state.connection() as conn, conn.transaction():
            # Rows first (so there is something to lock), in key order (no deadlock).
            await conn.executemany(
                "INSERT INTO access_positions (pkey, log_offset) VALUES ($1, -1)"
                " ON CONFLICT (pkey) DO NOTHING",
                [(k,) for k in keys],
            )
            rows = await conn.fetch(
                "SELECT pkey, log_offset FROM access_positions WHERE pkey = ANY($1::text[])"
                " ORDER BY pkey FOR UPDATE",
                keys,
            )
            totals = applicable(increments, {str(r[0]): int(r[1]) for r in rows})
            if totals:
                await conn.executemany(
                    "INSERT INTO access_counts (tenant, doc_id, count) VALUES ($1, $2, $3)"
                    " ON CONFLICT (tenant, doc_id) DO UPDATE"
                    " SET count = access_counts.count + EXCLUDED.count",
                    [(tenant, doc_id, n) for (tenant, doc_id), n in totals.items()],
                )
            await conn.executemany(
                "UPDATE access_positions SET log_offset = GREATEST(log_offset, $2) WHERE pkey = $1",
                list(position.items()),
            )

    async def get(self, tenant: str, ids: Sequence[str]) -> dict[str, int]:
        if not ids:
            return {}
        async with self._state.connection() as conn:
            rows = await conn.fetch(
                "SELECT doc_id, count FROM access_counts WHERE tenant = $1 AND doc_id = ANY($2::text[])",
                tenant, list(set(ids)),
            )
        return {str(r[0]): int(r[1]) for r in rows}

    async def delete(self, tenant: str, ids: Sequence[str]) -> None:
        if not ids:
            return
        async with self._state.connection() as conn:
            await conn.execute("DELETE FROM access_counts WHERE tenant = $1 AND doc_id = ANY($2::text[])",
                               tenant, list(set(ids)))

    async def close(self) -> None:
        await self._state.close()
