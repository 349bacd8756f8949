"""What reflect does: look back at episodes and record what is worth keeping.

Triggers: a session closed; every N turns of an open session; a session idle
for T; an explicit ReflectionRequested. Due sessions are reflected in batches
(several episodes per reflector call). Output is appended to the memories
stream as events, so a replay never calls the reflector again.

Memory ids are derived from their content and sources, so a redelivered batch
that reflects again produces the same ids and the projections do not change.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from hindsight_common.events import (
    Event,
    InteractionRecorded,
    MemoryExtracted,
    MemoryReinforced,
    ReflectionRequested,
    SessionClosed,
    SessionSummarized,
    utcnow,
)
from hindsight_common.events.security import MemoryQuarantined
from hindsight_common.ports.llm import MalformedReply, ProviderRejected
from hindsight_common.ports.log import EventLog, LogRecord, Position
from hindsight_common.ports.reflect_state import ReflectState, SessionRef
from hindsight_common.ports.reflector import Episode, KnownMemory, Reflection, Reflector
from hindsight_common.reflection.offline import Candidate, Turn
from hindsight_common.security.signed_items import sign_events
from hindsight_common.security.signing import Keyring
from hindsight_common.security.screening import Established, Screener
from hindsight_common.security.screening_events import lesson, screen_memory
from hindsight_common.security.screening_trust import source_of
from hindsight_services.audit_actions import quarantine_events
from hindsight_common.streams import AUDIT, MEMORIES

log = logging.getLogger(__name__)
_NS = uuid.UUID("5b0f8f4e-4a34-4c59-9a8e-6f0f5d0c2f11")


@dataclass(frozen=True)
class ReflectPolicy:
    every_n_turns: int = 20
    idle_s: float = 600.0
    batch_episodes: int = 8
    summary_after: int = 30
    keep_recent: int = 10
    max_known: int = 50


def memory_id(tenant: str, user: str, c: Candidate) -> uuid.UUID:
    subject = c.entities[0] if c.entities else ""
    sources = ",".join(sorted(c.source_event_ids))
    return uuid.uuid5(_NS, f"{tenant}/{user}/{subject}/{c.key}/{c.value.lower()}/{sources}")


def _norm(value: str) -> str:
    return " ".join(value.lower().split())


class Reflect:
    def __init__(
        self,
        log_: EventLog,
        state: ReflectState,
        reflector: Reflector,
        policy: ReflectPolicy | None = None,
        now: Callable[[], datetime] = utcnow,
        *,
        keyring: Keyring | None = None,
        screener: Screener | None = None,
    ) -> None:
        self._log = log_
        self._keyring = keyring  # signs memories and summaries; None: left unsigned
        self._state = state
        self._reflector = reflector
        self._policy = policy or ReflectPolicy()
        self._now = now
        self._screener = screener
        self._lock = asyncio.Lock()
        self._last_tick = now()
        self.reflections = 0

    async def purge(self, tenant: str, user: str) -> None:
        """An erased user's turns, summaries and known memories (``hindsight_common/erasure.py``)."""
        async with self._lock:
            await self._state.purge_user(tenant, user)

    async def handle(self, records: Sequence[LogRecord], position: Position) -> None:
        async with self._lock:
            due: dict[SessionRef, None] = {}
            touched: dict[SessionRef, None] = {}
            turns: list[tuple[SessionRef, Turn]] = []
            held: list[MemoryQuarantined] = []
            for r in records:
                e = r.event
                if isinstance(e, InteractionRecorded):
                    ref = SessionRef(e.tenant, e.user, e.session, e.agent)
                    turns.append((ref, Turn(str(e.event_id), e.speaker, e.role, e.content,
                                            e.occurred_at, e.external_id)))
                    touched[ref] = None
                elif isinstance(e, SessionClosed):
                    due[SessionRef(e.tenant, e.user, e.session, e.agent)] = None
                elif isinstance(e, MemoryQuarantined) and e.target == "interaction":
                    held.append(e)
                elif isinstance(e, ReflectionRequested):
                    if e.session is not None:
                        due[SessionRef(e.tenant, e.user, e.session)] = None
                    else:
                        for ref in await self._state.pending_sessions(e.tenant, e.user):
                            due[ref] = None
            if held:
                turns = await self._hold_back(held, turns)
            if turns:
                await self._state.add_turns(turns)
            for ref in touched:
                if len(await self._state.unreflected(ref)) >= self._policy.every_n_turns:
                    due[ref] = None
            await self._reflect(list(due))
            for ref in touched:
                await self._maybe_summarize(ref)

    async def _hold_back(
        self, held: Sequence[MemoryQuarantined], turns: list[tuple[SessionRef, Turn]]
    ) -> list[tuple[SessionRef, Turn]]:
        """Quarantined turns are never reflected on nor summarised: left out of this
        batch's turns (ingest appends a quarantine right after its turn, so they normally
        arrive together) or, had an earlier batch recorded one, marked reflected. Each
        quarantine leaves a lesson, appended before the state moves on."""
        ids = {str(q.target_id) for q in held}
        for q in held:
            await self._state.mark_reflected(SessionRef(q.tenant, q.user, q.session or ""), [str(q.target_id)])
        await self._log.append(MEMORIES, self._signed([lesson(q, (q.target_id,)) for q in held]))
        return [(ref, t) for ref, t in turns if t.event_id not in ids]

    def _screened(self, episode: Episode, events: list[Event], remembered: list[KnownMemory]) -> list[Event]:
        """``events`` with each extracted memory that screening holds back followed by its
        quarantine and a lesson, at the trust of the turns it came from; known memories
        count as established (reflect state keeps no trust, and never remembers a
        quarantined memory), so a low-trust memory contradicting one is held back."""
        if self._screener is None:
            return events
        roles = {t.event_id: t.role for t in episode.turns}
        known = [Established(m.subject, m.key, m.value, 1.0) for m in episode.known]
        out: list[Event] = []
        for e in events:
            out.append(e)
            if not isinstance(e, MemoryExtracted):
                continue
            sources = [source_of(roles.get(str(i), "")) for i in e.source_event_ids]
            q = screen_memory(self._screener, e, sources, known)
            if q is not None:
                out += [q, lesson(q, e.source_event_ids)]
                remembered[:] = [m for m in remembered if m.memory_id != str(e.memory_id)]
        return out

    async def tick(self) -> None:
        """Reflect on sessions idle for longer than the policy's ``idle_s``."""
        now = self._now()
        if (now - self._last_tick).total_seconds() < min(30.0, self._policy.idle_s / 4):
            return
        self._last_tick = now
        async with self._lock:
            idle = await self._state.idle_sessions(now - timedelta(seconds=self._policy.idle_s))
            await self._reflect(idle)

    async def _reflect(self, refs: Sequence[SessionRef]) -> None:
        episodes: list[Episode] = []
        for ref in refs:
            turns = await self._state.unreflected(ref)
            if turns:
                known = await self._state.memories(ref.tenant, ref.user, last=self._policy.max_known)
                episodes.append(Episode(ref.tenant, ref.user, ref.session, ref.agent, tuple(turns), tuple(known)))
        size = self._policy.batch_episodes
        recorded: set[tuple[str, str]] = set()  # users an episode of this call taught memories
        for i in range(0, len(episodes), size):
            chunk = episodes[i : i + size]
            try:
                reflections = await self._reflector.reflect(chunk)
            except (MalformedReply, ProviderRejected) as e:
                # Retrying the same input will not help; leave the turns unreflected
                # so a later trigger (more turns, a request) tries again.
                log.error("reflection skipped for %d episode(s): %s", len(chunk), type(e).__name__)
                continue
            for episode, reflection in zip(chunk, reflections, strict=True):
                if (episode.tenant, episode.user) in recorded:
                    # Its known memories were read before an earlier episode of this call
                    # was recorded: read them again, as a call of its own would have, so a
                    # memory's related ids (and extraction or reinforcement) do not depend
                    # on how a restart cut the stream into batches.
                    known = await self._state.memories(episode.tenant, episode.user, last=self._policy.max_known)
                    episode = replace(episode, known=tuple(known))
                await self._record(episode, reflection)
                recorded.add((episode.tenant, episode.user))

    async def _record(self, episode: Episode, reflection: Reflection) -> None:
        events: list[Event] = []
        now = self._now()
        by_slot = {(m.subject, m.key): m for m in episode.known}
        remembered: list[KnownMemory] = []
        for c in reflection.candidates:
            subject = c.entities[0] if c.entities else (episode.turns[0].speaker if episode.turns else "")
            prior = by_slot.get((subject, c.key))
            if prior is not None and _norm(prior.value) == _norm(c.value):
                events.append(MemoryReinforced(
                    tenant=episode.tenant, user=episode.user, occurred_at=now, memory_id=uuid.UUID(prior.memory_id),
                    session=episode.session, source_event_ids=tuple(uuid.UUID(i) for i in c.source_event_ids),
                    source_external_ids=c.source_external_ids, confidence=c.confidence))
                continue
            mid = memory_id(episode.tenant, episode.user, c)
            events.append(MemoryExtracted(
                tenant=episode.tenant, user=episode.user, occurred_at=now, memory_id=mid, agent=episode.agent,
                session=episode.session, subject=subject or "unknown", content=c.content, kind=c.kind,
                key=c.key, value=c.value, confidence=c.confidence, tags=c.tags, entities=c.entities,
                valid_from=c.valid_from, source_event_ids=tuple(uuid.UUID(i) for i in c.source_event_ids),
                source_external_ids=c.source_external_ids,
                related_memory_ids=(uuid.UUID(prior.memory_id),) if prior is not None else (),
                reasoning=c.reasoning[:2000], reflector=reflection.info))
            remembered.append(KnownMemory(str(mid), subject, c.key, c.value, c.content))
        for r in reflection.reinforced:
            events.append(MemoryReinforced(
                tenant=episode.tenant, user=episode.user, occurred_at=now, memory_id=uuid.UUID(r.memory_id),
                session=episode.session, source_event_ids=tuple(uuid.UUID(i) for i in r.source_event_ids),
                source_external_ids=r.source_external_ids, confidence=0.8))
        events = await asyncio.to_thread(self._screened, episode, events, remembered)  # CPU work
        if events:
            await self._log.append(MEMORIES, self._signed(events))  # durable before the state moves on
            held = [e for e in events if isinstance(e, MemoryQuarantined)]
            if held:  # audited after the quarantine is durable (a redelivery may audit it twice)
                await self._log.append(AUDIT, quarantine_events(None, held, "service", actor="(reflect)"))
        await self._state.mark_reflected(
            SessionRef(episode.tenant, episode.user, episode.session, episode.agent),
            [t.event_id for t in episode.turns], remembered,
        )
        self.reflections += 1

    async def _maybe_summarize(self, ref: SessionRef) -> None:
        p = self._policy
        turns = await self._state.session_turns(ref)
        covered = await self._state.summarized(ref)
        target = len(turns) - p.keep_recent
        if len(turns) <= p.summary_after or target - covered < p.keep_recent:
            return
        episode = Episode(ref.tenant, ref.user, ref.session, ref.agent, tuple(turns[:target]))
        try:
            summary, info = await self._reflector.summarize(episode)
        except (MalformedReply, ProviderRejected) as e:
            log.error("session summary skipped: %s", type(e).__name__)
            return
        event = SessionSummarized(
            tenant=ref.tenant, user=ref.user, occurred_at=self._now(), session=ref.session,
            summary=summary, through_occurred_at=turns[target - 1].occurred_at, turns=target, reflector=info)
        await self._log.append(MEMORIES, self._signed([event]))
        await self._state.set_summarized(ref, target)

    def _signed(self, events: list[Event]) -> list[Event]:
        return sign_events(self._keyring, events) if self._keyring is not None else events
