"""The forgetting pass: which live memories to forget, and the guard on how many (pure).

A pass at ``reference`` time forgets each live, unpinned memory that is older than
``min_age_days`` (since it was stated: its valid-from time, else when it was recorded) and whose importance (``importance.py``: stated,
lifted by use, decayed since last use) is below ``threshold``; one whose expiry (``MemoryExpirySet``, a TTL) has passed is forgotten
whatever its importance or age (first: its importance counts as 0). Pinned memories are
never touched. A pass never forgets more than ``max_share`` of one user's live memories
(rounded down), lowest importance first, so a bad setting cannot wipe a memory bank; the
rest waits for the next pass. The decisions are ``MemoryForgotten`` events (soft: the
projections keep the content, re-typed "forgotten", and ``:restore`` brings it back until
``grace_days`` after the forget, when :func:`purges` drops it)
whose ids derive from the memory and how often it was restored, so the same pass decided
again (a redelivery, a second dry run) gives the same events, and a replay reads them
from the log instead of deciding again.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING
from uuid import UUID

from hindsight_common.consolidation.importance import ImportanceParams, importance
from hindsight_common.consolidation.state import ConsolidationState, Tracked
from hindsight_common.events import MemoryForgotten, MemoryPurged

if TYPE_CHECKING:
    from hindsight_common.settings import Settings

_NS = uuid.UUID("3c1f7d9e-58a2-4b0e-a6d4-2f9b8c7e1a05")
FORGOTTEN_BY = "consolidate"


@dataclass(frozen=True)
class ForgetPolicy:
    """The settings ``forget_*`` and ``importance_*`` (see ``settings.py``)."""

    threshold: float = 0.2
    min_age_days: float = 30.0
    max_share: float = 0.1
    importance: ImportanceParams = ImportanceParams()
    grace_days: float = 30.0

    @classmethod
    def from_settings(cls, s: Settings) -> ForgetPolicy:
        return cls(threshold=s.forget_threshold, min_age_days=s.forget_min_age_days, max_share=s.forget_max_share,
                   importance=ImportanceParams(use_weight=s.importance_use_weight,
                                               use_saturation=s.importance_use_saturation,
                                               half_life_days=s.importance_half_life_days),
                   grace_days=s.forget_grace_days)


@dataclass(frozen=True)
class Planned:
    """One memory a pass forgets, with why."""

    memory_id: UUID
    tenant: str
    user: str
    importance: float
    reason: str


def importance_at(m: Tracked, reference: datetime, params: ImportanceParams) -> float:
    idle = max(0.0, (reference - m.used_at).total_seconds() / 86400)
    return importance(m.kind, reinforced=m.reinforced, pinned=m.pinned, accesses=m.accesses,
                      idle_days=idle, params=params)


def plan(
    state: ConsolidationState, reference: datetime, policy: ForgetPolicy,
    *, tenant: str | None = None, user: str | None = None,
) -> list[Planned]:
    """What a pass at ``reference`` forgets (of one tenant / user when given), per user
    lowest importance first, at most ``max_share`` of that user's live memories."""
    by_user: dict[tuple[str, str], list[Tracked]] = {}
    for m in state.memories.values():
        if m.status != "live" or (tenant is not None and m.group[0] != tenant) or (
                user is not None and m.group[1] != user):
            continue
        by_user.setdefault((m.group[0], m.group[1]), []).append(m)
    out: list[Planned] = []
    for (t, u), live in sorted(by_user.items()):
        cap = math.floor(max(0.0, min(1.0, policy.max_share)) * len(live))
        chosen = sorted(_eligible(live, reference, policy), key=lambda p: (p.importance, str(p.memory_id)))
        out += chosen[:cap]
    return out


def _eligible(live: Iterable[Tracked], reference: datetime, policy: ForgetPolicy) -> Iterable[Planned]:
    for m in live:
        if m.pinned:
            continue
        if m.expires_at is not None and m.expires_at <= reference:
            yield Planned(m.id, m.group[0], m.group[1], 0.0, f"expired at {m.expires_at.isoformat()}")
            continue
        age = (reference - m.at).total_seconds() / 86400  # since it was stated (valid from)
        if age < policy.min_age_days:
            continue
        score = importance_at(m, reference, policy.importance)
        if score < policy.threshold:
            idle = (reference - m.used_at).total_seconds() / 86400
            yield Planned(m.id, m.group[0], m.group[1], score,
                          f"importance {score:.3f} < {policy.threshold:.3f} ({m.kind}, unused for {idle:.0f} days, "
                          f"stated {age:.0f} days ago)")


def forgotten_events(state: ConsolidationState, planned: Iterable[Planned], reference: datetime) -> list[MemoryForgotten]:
    """The ``MemoryForgotten`` events of a plan, with ids that derive from the memory and
    its restores (not from the clock)."""
    return [
        MemoryForgotten(
            event_id=uuid.uuid5(_NS, f"{p.memory_id}/{state.memories[p.memory_id].restores}"),
            tenant=p.tenant, user=p.user, occurred_at=reference, memory_id=p.memory_id,
            reason=p.reason[:500], forgotten_by=FORGOTTEN_BY)
        for p in planned
    ]


def purges(
    state: ConsolidationState, reference: datetime, policy: ForgetPolicy,
    *, tenant: str | None = None, user: str | None = None,
) -> list[MemoryPurged]:
    """``MemoryPurged`` for each memory forgotten at least ``grace_days`` before
    ``reference`` and not purged yet (however it was forgotten); ids from the memory and
    its restores, like the forgets'."""
    out: list[MemoryPurged] = []
    for m in sorted(state.memories.values(), key=lambda m: str(m.id)):
        if (m.status != "forgotten" or m.purged or m.forgotten_at is None
                or (tenant is not None and m.group[0] != tenant) or (user is not None and m.group[1] != user)):
            continue
        if (reference - m.forgotten_at).total_seconds() / 86400 >= policy.grace_days:
            out.append(MemoryPurged(
                event_id=uuid.uuid5(_NS, f"purged/{m.id}/{m.restores}"), tenant=m.group[0], user=m.group[1],
                occurred_at=reference, memory_id=m.id,
                reason=f"forgotten at {m.forgotten_at.isoformat()}, {policy.grace_days:g} days of grace passed"))
    return out
