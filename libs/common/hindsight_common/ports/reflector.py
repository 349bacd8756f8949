"""The reflector port: episodes in, candidate memories out.

Adapters: the offline rules (``reflection.offline_reflector``, the default) and
an LLM over the ``LLM`` port (``reflection.llm_reflector``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from hindsight_common.events import ReflectorInfo
from hindsight_common.reflection.offline import Candidate, Turn


@dataclass(frozen=True)
class KnownMemory:
    """A memory the user already has, shown to the reflector so it can reinforce
    instead of duplicating, and notice contradictions."""

    memory_id: str
    subject: str
    key: str
    value: str
    content: str


@dataclass(frozen=True)
class Episode:
    """What to look back at: some turns of one session, plus related memories."""

    tenant: str
    user: str
    session: str
    agent: str | None
    turns: tuple[Turn, ...]
    known: tuple[KnownMemory, ...] = ()


@dataclass(frozen=True)
class Reinforcement:
    memory_id: str
    source_event_ids: tuple[str, ...]
    source_external_ids: tuple[str, ...]


@dataclass(frozen=True)
class Reflection:
    """The reflector's answer for one episode."""

    candidates: tuple[Candidate, ...]
    reinforced: tuple[Reinforcement, ...]
    info: ReflectorInfo


class Reflector(ABC):
    @property
    @abstractmethod
    def name(self) -> str:
        """'offline-rules' or 'llm'."""

    @abstractmethod
    async def reflect(self, episodes: Sequence[Episode]) -> list[Reflection]:
        """One reflection per episode, in order. Several episodes may share one
        model call. Raises ProviderError when a model provider failed for good."""

    @abstractmethod
    async def summarize(self, episode: Episode) -> tuple[str, ReflectorInfo]:
        """A short rolling summary of the episode's turns. Raises ProviderError."""
