"""Synthetic but realistic conversation turns for load and latency benchmarks.

Deterministic (seeded): the same N gives the same data. Sentences combine
people, activities, places, objects and times the way chat turns do, so that
keyword and vector searches face realistic overlap rather than unique tokens.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

PEOPLE = ["Ann", "Bob", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jo", "Kofi", "Lena",
          "Mia", "Nico", "Omar", "Priya", "Quinn", "Rosa", "Sam", "Tariq"]
ACTIVITIES = ["went hiking", "started a pottery class", "ran a half marathon", "adopted a rescue dog",
              "planted tomatoes", "learned to play the cello", "visited the museum", "cooked a curry",
              "fixed the old bicycle", "read a novel about space", "booked a trip", "painted the kitchen",
              "joined a book club", "watched a jazz concert", "went kayaking", "baked sourdough bread"]
PLACES = ["Lisbon", "the lake", "Berlin", "the park", "Kyoto", "the coast", "Toronto", "the mountains",
          "Nairobi", "the old town", "Oslo", "the farmers market", "Lima", "the library"]
FEELINGS = ["It was amazing.", "I was exhausted afterwards.", "Honestly it was harder than expected.",
            "My friends loved it.", "I want to do it again soon.", "It rained the whole time.",
            "I took lots of photos.", "It reminded me of my childhood."]
PREFERENCES = ["I prefer tea over coffee.", "I love spicy food.", "I hate crowded trains.",
               "I always read before bed.", "I never eat mushrooms.", "I prefer working in the morning.",
               "I like quiet cafes.", "I enjoy long walks in the rain."]
QUESTIONS = ["What did {p} do in {pl}?", "Who adopted a dog?", "When did {p} go kayaking?",
             "What does {p} prefer to drink?", "Which city did {p} visit?", "What did {p} bake?",
             "Did {p} join a club?", "What instrument is {p} learning?", "Where did {p} go last month?"]


@dataclass(frozen=True)
class SyntheticTurn:
    user: str
    session: str
    speaker: str
    content: str
    occurred_at: datetime


def turns(n: int, users: int = 50, seed: int = 7) -> Iterator[SyntheticTurn]:
    rng = random.Random(seed)
    start = datetime(2023, 1, 1, tzinfo=UTC)
    for i in range(n):
        user = f"user-{i % users}"
        person = PEOPLE[(i // users) % len(PEOPLE)] if rng.random() < 0.3 else PEOPLE[i % len(PEOPLE)]
        roll = rng.random()
        if roll < 0.6:
            text = f"Last week I {rng.choice(ACTIVITIES)} in {rng.choice(PLACES)}. {rng.choice(FEELINGS)}"
        elif roll < 0.8:
            text = rng.choice(PREFERENCES)
        else:
            text = f"{rng.choice(PEOPLE)} told me they {rng.choice(ACTIVITIES)} near {rng.choice(PLACES)}."
        yield SyntheticTurn(user, f"{user}-s{i // (users * 20)}", person, text,
                            start + timedelta(minutes=7 * i))


def questions(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(QUESTIONS).format(p=rng.choice(PEOPLE), pl=rng.choice(PLACES)) for _ in range(count)]
