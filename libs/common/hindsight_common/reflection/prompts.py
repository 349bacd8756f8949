"""Reflection prompts as pure functions, next to the reply models they ask for.

The reply is never trusted: ``parse_reply`` validates item by item, fills
defaults, and drops (with a logged reason) what cannot be used.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hindsight_common.ports.llm import ChatMessage
from hindsight_common.ports.reflector import Episode

log = logging.getLogger(__name__)

PROMPT_VERSION = "reflect-v1"

SYSTEM = """You review conversations between people and an AI agent after they happened, \
and keep only what is worth remembering for future conversations.

Keep: stable facts about a person (name, home, job, family, possessions), explicit \
preferences, plans and events with their dates, corrections of earlier statements, \
anything the user asked to remember, and lessons: mistakes the agent made and what to do \
better next time. Skip small talk, questions, hypotheticals, and anything obvious or \
one-off.

For each memory write one short, self-contained statement in the third person that names \
its subject ("Ann prefers Python for data work."), a kind (fact, preference, event, \
lesson, error), a key "domain.attribute" (e.g. preference.language, personal.location, \
relation.sister, plan.trip), the value, a confidence between 0 and 1, a few tags, the \
named entities, and the numbers of the turns it came from. If a known memory is \
confirmed, list it under "reinforced" instead of repeating it. Answer with JSON only."""


class MemoryOut(BaseModel):
    model_config = ConfigDict(extra="ignore")

    content: str = Field(min_length=3, max_length=2000)
    kind: str = "fact"
    key: str = "note.general"
    value: str = ""
    confidence: float = 0.7
    tags: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    source_turns: list[int] = Field(default_factory=list)
    reasoning: str = ""

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, v: Any) -> str:
        kind = str(v or "fact").strip().lower()
        return kind if kind in ("fact", "preference", "event", "lesson", "error") else "fact"

    @field_validator("key", mode="before")
    @classmethod
    def _key(cls, v: Any) -> str:
        key = "".join(ch if ch.isalnum() or ch in "._" else "_" for ch in str(v or "").strip().lower())
        return key if "." in key.strip(".") else f"note.{key.strip('.') or 'general'}"

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, v: Any) -> float:
        try:
            return min(1.0, max(0.0, float(v)))
        except (TypeError, ValueError):
            return 0.7

    @field_validator("tags", "entities", mode="before")
    @classmethod
    def _strings(cls, v: Any) -> list[str]:
        if isinstance(v, str):
            v = [p.strip() for p in v.split(",")]
        return [str(x) for x in v or [] if str(x).strip()][:16]

    @field_validator("source_turns", mode="before")
    @classmethod
    def _turns(cls, v: Any) -> list[int]:
        if isinstance(v, (int, str)):
            v = [v]
        out = []
        for x in v or []:
            try:
                out.append(int(x))
            except (TypeError, ValueError):
                continue
        return out

    @field_validator("value", "reasoning", mode="before")
    @classmethod
    def _text(cls, v: Any) -> str:
        return "" if v is None else str(v)


class ReinforcedOut(BaseModel):
    model_config = ConfigDict(extra="ignore")

    memory_id: str
    source_turns: list[int] = Field(default_factory=list)


class EpisodeOut(BaseModel):
    model_config = ConfigDict(extra="ignore")

    episode: int
    memories: list[Any] = Field(default_factory=list)  # items validated one by one
    reinforced: list[Any] = Field(default_factory=list)


RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "episodes": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "episode": {"type": "integer"},
                    "memories": {"type": "array", "items": MemoryOut.model_json_schema()},
                    "reinforced": {"type": "array", "items": ReinforcedOut.model_json_schema()},
                },
                "required": ["episode", "memories"],
            },
        }
    },
    "required": ["episodes"],
}


def transcript(episode: Episode, max_chars_per_turn: int = 600) -> str:
    """A compressed transcript: numbered turns with time, speaker, role and content."""
    lines = []
    for n, t in enumerate(episode.turns, start=1):
        text = " ".join(t.content.split())
        if len(text) > max_chars_per_turn:
            text = text[: max_chars_per_turn - 1] + "…"
        lines.append(f"[{n}] {t.occurred_at:%Y-%m-%d %H:%M} {t.speaker} ({t.role}): {text}")
    return "\n".join(lines)


def messages(episodes: Sequence[Episode]) -> list[ChatMessage]:
    blocks = []
    for i, e in enumerate(episodes):
        known = [
            {"memory_id": m.memory_id, "subject": m.subject, "key": m.key, "content": m.content}
            for m in e.known
        ]
        blocks.append(
            f"## Episode {i}\nKnown memories: {json.dumps(known)}\nTranscript:\n{transcript(e)}"
        )
    user = (
        "Reflect on each episode below. Reply as "
        '{"episodes": [{"episode": <number>, "memories": [...], "reinforced": [...]}]}.\n\n'
        + "\n\n".join(blocks)
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]


def parse_reply(data: Any, count: int) -> list[tuple[list[MemoryOut], list[ReinforcedOut]]]:
    """Per episode: the memories and reinforcements that validated. Never raises."""
    out: list[tuple[list[MemoryOut], list[ReinforcedOut]]] = [([], []) for _ in range(count)]
    if isinstance(data, list):  # a bare list of memories, for a single episode
        data = {"episodes": [{"episode": 0, "memories": data}]}
    if not isinstance(data, dict):
        log.warning("reflection reply dropped: not a JSON object")
        return out
    episodes = data.get("episodes")
    if episodes is None and "memories" in data:  # one episode, flattened
        episodes = [{"episode": 0, **data}]
    for raw in episodes if isinstance(episodes, list) else []:
        try:
            ep = EpisodeOut.model_validate(raw)
        except ValidationError:
            log.warning("reflection reply: an episode entry without a valid number was dropped")
            continue
        if not 0 <= ep.episode < count:
            log.warning("reflection reply: episode %s out of range, dropped", ep.episode)
            continue
        memories, reinforced = out[ep.episode]
        for item in ep.memories:
            try:
                memories.append(MemoryOut.model_validate(item))
            except ValidationError as e:
                log.warning("reflection reply: memory dropped: %s", e.errors()[0]["msg"])
        for item in ep.reinforced:
            try:
                reinforced.append(ReinforcedOut.model_validate(item))
            except ValidationError as e:
                log.warning("reflection reply: reinforcement dropped: %s", e.errors()[0]["msg"])
    return out


SUMMARY_SYSTEM = (
    "Summarise the conversation below in at most 120 words for the agent's working memory: "
    "who took part, what was decided or learned, and what is still open. "
    'Answer with JSON: {"summary": "..."}'
)
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
}
