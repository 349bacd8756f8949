"""What query does with a recall request: scope it, run recall, shape the answer."""

from __future__ import annotations

from hindsight_common.api import Provenance, RecallIn, RecallItemOut, RecallOut
from hindsight_common.errors import InvalidInput, Problem
from hindsight_common.ports.projection import Scope
from hindsight_common.recall.engine import RecallEngine, RecallItem, RecallRequest
from hindsight_common.settings import Settings


def to_request(body: RecallIn, settings: Settings) -> RecallRequest:
    if body.k > settings.recall_max_k:
        raise InvalidInput(
            "k too large", [Problem("k", f"at most {settings.recall_max_k}, got {body.k}")]
        )
    if not body.query.strip():
        raise InvalidInput("empty query", [Problem("query", "must not be blank")])
    scope = Scope(
        tenant=body.tenant or settings.default_tenant,
        user=body.user,
        session=body.session,
        agent=body.agent,
        types=tuple(body.types or ()),
        since=body.since,
        until=body.until,
    )
    return RecallRequest(scope=scope, query=body.query, k=body.k)


def to_item(item: RecallItem) -> RecallItemOut:
    d = item.document
    return RecallItemOut(
        id=d.id,
        type=d.type,
        content=d.content,
        speaker=d.speaker,
        role=d.role,
        session=d.session,
        user=d.user,
        occurred_at=d.occurred_at,
        score=item.score,
        scores={path: ps.score for path, ps in item.paths.items()},
        ranks={path: ps.rank for path, ps in item.paths.items()},
        provenance=Provenance(event_ids=list(d.event_ids), external_ids=list(d.external_ids)),
    )


class Query:
    def __init__(self, engine: RecallEngine, settings: Settings) -> None:
        self._engine = engine
        self._settings = settings

    async def recall(self, body: RecallIn) -> RecallOut:
        items = await self._engine.recall(to_request(body, self._settings))
        return RecallOut(items=[to_item(i) for i in items])
