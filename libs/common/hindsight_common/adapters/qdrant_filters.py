"""Qdrant filters of the cluster vector projection (``qdrant.py``): a recall scope, and
one user's points (erasure)."""

from __future__ import annotations

from qdrant_client import models

from hindsight_common.ports.projection import Scope


def scope_filter(scope: Scope) -> models.Filter:
    """The Qdrant filter for a scope; the tenant condition is always present.

    Same conditions as the embedded adapter's: since is inclusive, until exclusive.
    """
    must: list[models.Condition] = [
        models.FieldCondition(key="tenant", match=models.MatchValue(value=scope.tenant))
    ]
    for name in ("user", "session", "agent"):
        value = getattr(scope, name)
        if value is not None:
            must.append(models.FieldCondition(key=name, match=models.MatchValue(value=value)))
    if scope.types:
        must.append(models.FieldCondition(key="type", match=models.MatchAny(any=list(scope.types))))
    if scope.speakers:
        must.append(models.FieldCondition(key="speaker", match=models.MatchAny(any=list(scope.speakers))))
    if scope.since is not None or scope.until is not None:
        must.append(
            models.FieldCondition(
                key="ts",
                range=models.Range(
                    gte=scope.since.timestamp() if scope.since else None,
                    lt=scope.until.timestamp() if scope.until else None,
                ),
            )
        )
    return models.Filter(must=must)


def user_filter(tenant: str, user: str) -> models.Filter:
    """Every point of one user of one tenant (an erasure's purge)."""
    return models.Filter(must=[
        models.FieldCondition(key="tenant", match=models.MatchValue(value=tenant)),
        models.FieldCondition(key="user", match=models.MatchValue(value=user)),
    ])
