"""The fifth round of the offline reflector: freer wordings of the same slots.

Wordings outside the earlier lists ("can't handle", "ditched X for Y", "isn't for me"), a
thing as the subject of a fact ("Lyon is where I grew up"), chat that drops the "I"
("Finished the course on Friday!"), a second predicate of the same "I" ("I love X and hate
Y"), errors said later in the sentence, and the negatives each of those must leave alone.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

import pytest
from hindsight_common.reflection import Candidate, Turn, evaluate, reflect_turns
from hindsight_common.reflection.evaluation import (
    DEV_V5_SET,
    DEV_V5B_SET,
    HELD_OUT_V5_SET,
)

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def reflect(content: str, speaker: str = "user") -> list[Candidate]:
    return reflect_turns([Turn("evt-1", speaker, "user", content, T0)])


def keys(content: str, speaker: str = "user") -> list[tuple[str, str]]:
    return [(c.kind, c.key) for c in reflect(content, speaker)]


@pytest.mark.parametrize(("text", "key"), [
    ("I can't handle crowded markets.", "preference.crowded_markets"),
    ("I can't stop listening to sea shanties.", "preference.sea_shanties"),
    ("I've always adored snowy mornings.", "preference.snowy_mornings"),
    ("I've never liked aniseed.", "preference.aniseed"),
    ("I'm not really much of a gym person.", "preference.gym_person"),
    ("I swapped my car for an e-bike last year.", "preference.e_bike"),
    ("I've cut out fizzy drinks completely.", "preference.fizzy_drinks"),
    ("Podcasts have pretty much replaced the radio for me.", "preference.podcasts"),
    ("Escape rooms honestly aren't for me.", "preference.escape_rooms"),
    ("Goat curry is my absolute favourite.", "preference.goat_curry"),
    ("Ferries beat flights for me, no contest.", "preference.ferries"),
    ("I never bother with gravy.", "preference.gravy"),
    ("I paddle along the river most evenings.", "preference.paddle"),
    ("I'd rather you didn't add hashtags.", "preference.add_hashtags"),
])
def test_freer_wordings_of_a_taste_are_read(text: str, key: str) -> None:
    assert keys(text) == [("preference", key)]


@pytest.mark.parametrize(("text", "key", "value"), [
    ("Lyon is where I grew up.", "personal.origin", "Lyon"),
    ("Hobart's my home now.", "personal.location", "Hobart"),
    ("Landscape architecture is my job.", "personal.job", "Landscape architecture"),
    ("Latex gives me a nasty rash.", "personal.allergy", "Latex"),
    ("Emeka here, nice to meet you.", "personal.name", "Emeka"),
    ("I'm employed by a shipping firm.", "personal.employer", "a shipping firm"),
    ("I came over from Manila as a teenager.", "personal.origin", "Manila as a teenager"),
    ("I moved away from Glasgow in 2019.", "personal.location", "no longer Glasgow"),
    ("I live with my cousins in Accra.", "personal.location", "Accra"),
])
def test_facts_in_other_shapes_are_read(text: str, key: str, value: str) -> None:
    found = [(c.kind, c.key, c.value) for c in reflect(text)]
    assert found[:1] == [("fact", key, value)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Finished my first half marathon on Sunday!", [("event", "event.finished")]),
    ("Not a fan of raw onion.", [("preference", "preference.raw_onion")]),
    ("We tied the knot in Goa.", [("event", "event.got_married")]),
    ("I've reserved a table for Thursday night.", [("event", "plan.book")]),
    ("I drive an old Peugeot.", [("fact", "possession.car")]),
    ("I have four sons.", [("fact", "relation.son")]),
    ("I adore rain and can't stand humidity.",
     [("preference", "preference.rain"), ("preference", "preference.humidity")]),
    ("I'm 63 and just joined a choir.", [("fact", "personal.age"), ("event", "event.joined")]),
    ("Nope, that's incorrect, it opens at nine.", [("error", "error.wrong_answer")]),
    ("Hmm, you've misunderstood the question.", [("error", "error.misunderstood")]),
    ("The route you gave me was wrong, the bridge is closed.", [("error", "error.wrong_answer")]),
    ("Please write your answers in Italian.", [("preference", "preference.language")]),
])
def test_shapes_chat_uses_are_read(text: str, expected: list[tuple[str, str]]) -> None:
    assert keys(text) == expected


@pytest.mark.parametrize("text", [
    "Excited for the concert tomorrow!", "Tired of all this traffic.", "Loved it, thank you!",
    "Need a gift idea for my brother.", "Checked the form, looks fine.",
    "Hate to interrupt, but the call starts soon.", "That isn't for me to say.",
    "This is my job for the afternoon, apparently.", "Pollen gives me a headache in spring.",
    "Madrid is where the final is played.", "Porto beat Braga in the cup.",
    "I can't stop thinking about that ending.", "The map you gave me was great.",
    "I went to the market and bought some pears.", "Not a fan of that suggestion, try another.",
    "Swapped shifts with a colleague today.", "I'm tired and cold.",
])
def test_the_new_shapes_leave_these_alone(text: str) -> None:
    assert reflect(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("The name's Ottilie, by the way.", [("fact", "personal.name")]),
    ("Home for me is Tromsø these days.", [("fact", "personal.location")]),
    ("I'm in insurance, mostly motor policies.", [("fact", "personal.field")]),
    ("I'm a hopeless night owl.", [("preference", "preference.night_owl")]),
    ("Cricket bores me senseless.", [("preference", "preference.cricket")]),
    ("It's oat milk for me now.", [("preference", "preference.oat_milk")]),
    ("I steer well clear of energy bars.", [("preference", "preference.energy_bars")]),
    ("my anniversary's on the 3rd of May", [("fact", "personal.anniversary")]),
    ("my mum's a retired midwife", [("fact", "relation.mother.job")]),
    ("My best mate Juno plays the cello.", [("fact", "relation.best_friend")]),
    ("Flapjack is easily my favourite snack.", [("preference", "preference.favorite_snack")]),
    ("Fave band has to be Blur.", [("preference", "preference.favorite_band")]),
    ("Originally from Tampere, now in Turku.", [("fact", "personal.origin")]),
    ("Been a firefighter for nine years.", [("fact", "personal.job")]),
    ("Got an allotment behind the school.", [("fact", "possession.garden")]),
    ("Heading to Crete in August.", [("event", "plan.trip")]),
    ("Nope, that's the wrong postcode.", [("error", "error.wrong_answer")]),
    ("Hmm, your totals are off.", [("error", "error.wrong_answer")]),
    ("Remember I'm pescatarian when you suggest dinners.", [("fact", "personal.diet")]),
    ("I'm 66, retired from the railways last year.",
     [("fact", "personal.age"), ("event", "event.retired")]),
])
def test_shapes_found_on_the_second_development_set_are_read(
        text: str, expected: list[tuple[str, str]]) -> None:
    assert keys(text) == expected


@pytest.mark.parametrize("text", [
    "Never mind.", "Don't worry about it.", "Can't wait!", "my phone's on 2 percent",
    "I'm in it for the fun.", "Doing fine, thanks.", "Been there, done that.", "Got it, thanks.",
    "Heading out now.", "Working on it.", "Big fan of this answer.", "Not into it, sorry.",
    "Don't know yet.", "Home is where the heart is.", "Vegan options are limited here.",
    "your point is fair", "Taking a break.", "Moving on, next question.",
])
def test_the_second_round_of_shapes_leaves_these_alone(text: str) -> None:
    assert reflect(text) == []


def _rows(name: str) -> list[dict[str, object]]:
    path = Path(str(files("hindsight_common.reflection").joinpath(name)))
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def test_the_fifth_held_out_set_is_large_labelled_and_loads() -> None:
    rows = _rows(HELD_OUT_V5_SET)
    items = [item for r in rows for item in r["expected"]]  # type: ignore[attr-defined]
    assert len(rows) >= 150 and len({r["text"] for r in rows}) == len(rows)
    assert sum(1 for r in rows if r["expected"] == []) / len(rows) >= 0.40
    assert all(i["subject"] and i["key"].count(".") >= 1 for i in items)


@pytest.mark.parametrize(("name", "precision", "recall"), [(DEV_V5_SET, 0.97, 0.95),
                                                           (DEV_V5B_SET, 0.90, 0.85)])
def test_the_round_five_development_sets_do_not_regress(name: str, precision: float,
                                                        recall: float) -> None:
    # Iterated on, so these are floors, not estimates (the README gives the measured figures).
    score = evaluate(Path(str(files("hindsight_common.reflection").joinpath(name))))
    assert score.utterances == len(_rows(name))
    assert score.precision >= precision and score.recall >= recall
