"""Reflection through a chat model (the LLM port), several episodes per call."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from hindsight_common.events import ReflectorInfo
from hindsight_common.ports.llm import LLM, ChatMessage, LLMReply
from hindsight_common.ports.reflector import (
    Episode,
    Reflection,
    Reflector,
    Reinforcement,
)
from hindsight_common.reflection import prompts
from hindsight_common.reflection.offline import Candidate
from hindsight_common.reflection.offline_reflector import extractive_summary

log = logging.getLogger(__name__)


class LLMReflector(Reflector):
    def __init__(self, llm: LLM, max_output_tokens: int = 2048) -> None:
        self._llm = llm
        self._max_out = max_output_tokens

    @property
    def name(self) -> str:
        return "llm"

    def _info(self, reply: LLMReply, share: int) -> ReflectorInfo:
        # One call served ``share`` episodes: each event carries its share of the cost.
        u = reply.usage
        return ReflectorInfo(
            name="llm",
            version=prompts.PROMPT_VERSION,
            model=reply.model or self._llm.model_name,
            prompt_tokens=u.prompt_tokens // share,
            completion_tokens=u.completion_tokens // share,
            cost_usd=u.cost_usd / share,
        )

    async def reflect(self, episodes: Sequence[Episode]) -> list[Reflection]:
        if not episodes:
            return []
        reply = await self._llm.complete_json(
            prompts.messages(episodes),
            schema=prompts.RESPONSE_SCHEMA,
            schema_name="reflection",
            max_output_tokens=self._max_out,
        )
        info = self._info(reply, len(episodes))
        parsed = prompts.parse_reply(reply.data, len(episodes))
        return [
            _to_reflection(episode, memories, reinforced, info)
            for episode, (memories, reinforced) in zip(episodes, parsed, strict=True)
        ]

    async def summarize(self, episode: Episode) -> tuple[str, ReflectorInfo]:
        reply = await self._llm.complete_json(
            [ChatMessage("system", prompts.SUMMARY_SYSTEM),
             ChatMessage("user", prompts.transcript(episode))],
            schema=prompts.SUMMARY_SCHEMA,
            schema_name="summary",
            max_output_tokens=400,
        )
        data = reply.data
        summary = str(data.get("summary", "")).strip() if isinstance(data, dict) else ""
        if not summary:
            log.warning("summary reply had no summary; using the extractive one")
            summary = extractive_summary(episode)
        return summary[:8000], self._info(reply, 1)


def _sources(episode: Episode, numbers: Sequence[int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    turns = [episode.turns[n - 1] for n in numbers if 1 <= n <= len(episode.turns)]
    if not turns:
        # The model named no valid turn: the whole episode is the provenance.
        turns = list(episode.turns)
    ids = tuple(dict.fromkeys(t.event_id for t in turns))
    ext = tuple(dict.fromkeys(t.external_id for t in turns if t.external_id))
    return ids, ext


def _to_reflection(
    episode: Episode,
    memories: Sequence[prompts.MemoryOut],
    reinforced: Sequence[prompts.ReinforcedOut],
    info: ReflectorInfo,
) -> Reflection:
    known = {m.memory_id for m in episode.known}
    candidates = []
    for m in memories:
        ids, ext = _sources(episode, m.source_turns)
        first = next(t for t in episode.turns if t.event_id == ids[0])
        candidates.append(
            Candidate(
                content=m.content.strip(),
                kind=m.kind,
                key=m.key,
                value=m.value.strip(),
                confidence=m.confidence,
                tags=tuple(m.tags),
                entities=tuple(m.entities),
                valid_from=first.occurred_at,
                source_event_ids=ids,
                source_external_ids=ext,
                reasoning=m.reasoning[:2000],
            )
        )
    reinforcements = []
    for r in reinforced:
        if r.memory_id not in known:
            log.warning("reflection reply reinforced an unknown memory; dropped")
            continue
        ids, ext = _sources(episode, r.source_turns)
        reinforcements.append(Reinforcement(r.memory_id, ids, ext))
    return Reflection(tuple(candidates), tuple(reinforcements), info)
