"""The offline reflector behind the Reflector port: rules, no model, deterministic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hindsight_common.events import ReflectorInfo
from hindsight_common.ports.reflector import Episode, Reflection, Reflector
from hindsight_common.reflection.offline import reflect_turns
from hindsight_common.text.terms import keyword_terms

OFFLINE_INFO = ReflectorInfo(name="offline-rules", version="1")


class OfflineReflector(Reflector):
    @property
    def name(self) -> str:
        return "offline-rules"

    async def reflect(self, episodes: Sequence[Episode]) -> list[Reflection]:
        return [Reflection(tuple(reflect_turns(e.turns)), (), OFFLINE_INFO) for e in episodes]

    async def summarize(self, episode: Episode) -> tuple[str, ReflectorInfo]:
        return extractive_summary(episode), OFFLINE_INFO


def extractive_summary(episode: Episode, max_memories: int = 12, max_topics: int = 10) -> str:
    """Who talked, when, the memories the rules found, and the most frequent topics.

    Extractive on purpose: without a model, quoting what was learned is more
    faithful than paraphrasing.
    """
    turns = episode.turns
    speakers = list(dict.fromkeys(t.speaker for t in turns))
    start, end = turns[0].occurred_at, turns[-1].occurred_at
    parts = [
        f"Summary of {len(turns)} earlier turns between {', '.join(speakers)} "
        f"({start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M} UTC)."
    ]
    memories = [c.content for c in reflect_turns(turns)][:max_memories]
    if memories:
        parts.append("Learned: " + " ".join(memories))
    counts = Counter(w for t in turns if t.role not in ("tool", "system") for w in keyword_terms(t.content, 64))
    topics = [w for w, n in counts.most_common(max_topics) if n > 1]
    if topics:
        parts.append("Topics: " + ", ".join(topics) + ".")
    return " ".join(parts)
