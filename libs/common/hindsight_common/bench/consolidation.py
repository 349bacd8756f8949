"""A synthetic stream of semantic memories with known truth, for ``hindsight bench
consolidate``.

Deterministic (seeded): the same N gives the same stream. About half the statements are
new facts (a person, a key, a value), 40% restate a live fact in other words (or the same
words: near-duplicates, which should be merged into it), and 10% give a new value for a
live fact (which should supersede it). Every statement is a ``MemoryExtracted`` as reflect
records it, with the expected decision beside it, so precision and recall can be scored.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import cast

from hindsight_common.bench.synthetic import PEOPLE
from hindsight_common.events import MemoryExtracted, MemoryKind, ReflectorInfo

#: key -> (kind, values, ways of saying "{s} ... {v}").
FACTS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "preference.programming_language": ("preference", ("Python", "Go", "Rust", "Kotlin", "Haskell", "Ruby"), (
        "{s} prefers {v} for scripting.", "For scripting, {s} prefers {v}.", "{s} likes {v} best for scripting.")),
    "preference.drink": ("preference", ("green tea", "espresso", "hot chocolate", "lemonade", "kombucha"), (
        "{s} prefers {v} in the morning.", "In the morning {s} prefers {v}.", "{s} prefers to drink {v} in the morning.")),
    "personal.location": ("fact", ("Lisbon", "Berlin", "Kyoto", "Toronto", "Nairobi", "Oslo", "Lima"), (
        "{s} lives in {v}.", "{s} is living in {v}.", "{s} lives in the city of {v}.")),
    "personal.cat": ("fact", ("Pimento", "Miso", "Biscuit", "Pepper", "Tofu", "Noodle"), (
        "{s}'s cat is called {v}.", "{s} has a cat called {v}.", "{s}'s cat is named {v}.")),
    "personal.job": ("fact", ("nurse", "carpenter", "pilot", "librarian", "chemist", "baker"), (
        "{s} works as a {v}.", "{s} has a job as a {v}.", "{s} works as a {v} for a living.")),
}
KEYS = tuple(FACTS)
INFO = ReflectorInfo(name="bench-synthetic", version="1")
_NS = uuid.UUID("5d0f3c6e-8a71-4b0e-9f3e-2b7c1d9e4a60")


@dataclass(frozen=True)
class Expected:
    """What consolidation should decide for one statement."""

    action: str  # "new", "merge" or "supersede"
    target: uuid.UUID | None = None  # the live memory it merges into or supersedes


@dataclass
class Stream:
    events: list[MemoryExtracted] = field(default_factory=list)
    truth: dict[uuid.UUID, Expected] = field(default_factory=dict)

    @property
    def live(self) -> int:
        """How many memories should be live at the end."""
        return sum(1 for t in self.truth.values() if t.action == "new")


def stream(n: int, seed: int = 7, tenant: str = "bench", duplicates: float = 0.4, changes: float = 0.1) -> Stream:
    """``n`` statements: ``duplicates`` of them restate a live fact, ``changes`` give a live
    fact a new value, the rest are new facts (people x keys per user; as many users as
    needed so that new facts never run out)."""
    rng = random.Random(seed)
    out = Stream()
    slots_per_user = len(PEOPLE) * len(KEYS)
    users = max(1, -(-n // slots_per_user))
    live: dict[tuple[str, str, str], tuple[uuid.UUID, str]] = {}  # (user, person, key) -> (id, value)
    slots: list[tuple[str, str, str]] = []  # the keys of ``live``, in the order they came
    free = [(f"u{u}", p, k) for u in range(users) for p in PEOPLE for k in KEYS]
    rng.shuffle(free)
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    for i in range(n):
        at = t0 + timedelta(minutes=i)
        roll = rng.random()
        if live and roll < duplicates:
            slot = rng.choice(slots)
            target, value = live[slot]
            out.events.append(_statement(tenant, slot, value, rng.randrange(3), at, i))
            out.truth[out.events[-1].memory_id] = Expected("merge", target)
        elif live and roll < duplicates + changes:
            slot = rng.choice(slots)
            target, value = live[slot]
            new = rng.choice([v for v in FACTS[slot[2]][1] if v != value])
            out.events.append(_statement(tenant, slot, new, rng.randrange(3), at, i))
            out.truth[out.events[-1].memory_id] = Expected("supersede", target)
            live[slot] = (out.events[-1].memory_id, new)
        else:
            slot = free.pop() if free else rng.choice(slots)
            value = rng.choice(FACTS[slot[2]][1])
            out.events.append(_statement(tenant, slot, value, 0, at, i))
            if slot in live:  # no free slot left: a new value after all
                out.truth[out.events[-1].memory_id] = Expected("supersede", live[slot][0])
            else:
                out.truth[out.events[-1].memory_id] = Expected("new")
                slots.append(slot)
            live[slot] = (out.events[-1].memory_id, value)
    return out


def _statement(tenant: str, slot: tuple[str, str, str], value: str, way: int, at: datetime, i: int) -> MemoryExtracted:
    user, person, key = slot
    kind, _, ways = FACTS[key]
    # As reflect records it: the value is the statement's predicate, so a paraphrase has
    # another value string and only its meaning and entities say it is the same fact.
    content = ways[way].format(s=person, v=value)
    return MemoryExtracted(
        event_id=uuid.uuid5(_NS, f"{tenant}/event/{i}"), tenant=tenant, user=user, occurred_at=at, recorded_at=at, memory_id=uuid.uuid5(_NS, f"{tenant}/{i}"), session=f"s{i // 20}",
        subject=person, content=content, kind=cast(MemoryKind, kind),
        key=key, value=content.removeprefix(person).strip(" ."), confidence=0.8, entities=(person, value), valid_from=at,
        source_event_ids=(uuid.uuid5(_NS, f"{tenant}/turn/{i}"),), source_external_ids=(f"turn-{i}",),
        reflector=INFO)


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    made: int
    expected: int


def score(made: Sequence[tuple[uuid.UUID, uuid.UUID]], expected: Sequence[tuple[uuid.UUID, uuid.UUID]]) -> Score:
    """Precision and recall of decided (memory, target) pairs against the truth; 1.0 when
    there is nothing to find or nothing was decided."""
    got, want = set(made), set(expected)
    hit = len(got & want)
    return Score(hit / len(got) if got else 1.0, hit / len(want) if want else 1.0, len(got), len(want))
