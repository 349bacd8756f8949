"""The widened offline reflector: comparisons, hedges, habits, plans, changes of mind,
facts about other people, and the sets it is measured on."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from importlib.resources import files
from pathlib import Path

import pytest

from hindsight_common.reflection import KINDS, Candidate, Turn, evaluate, reflect_turns
from hindsight_common.reflection.evaluation import DEV_V3_SET, HELD_OUT_V3_SET, HELD_OUT_V4_SET

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def reflect(content: str, speaker: str = "user") -> list[Candidate]:
    return reflect_turns([Turn("evt-1", speaker, "user", content, T0)])


def keys(content: str, speaker: str = "user") -> list[tuple[str, str]]:
    return [(c.kind, c.key) for c in reflect(content, speaker)]


def only(content: str, speaker: str = "user") -> Candidate:
    found = reflect(content, speaker)
    assert len(found) == 1, found
    return found[0]


def test_the_users_example_keeps_the_comparison_and_the_request_to_remember() -> None:
    kotlin = only("I much prefer Kotlin over Java for backend work, please keep that in mind.")
    assert (kotlin.kind, kotlin.key) == ("preference", "preference.programming_language")
    assert kotlin.value.startswith("prefers Kotlin over Java") and "remember" in kotlin.tags
    assert kotlin.confidence == 0.95 and kotlin.entities[0] == "user"
    cat = only("Also remember that my cat is called Pimento.")
    assert (cat.kind, cat.key, cat.value) == ("fact", "possession.pet", "cat named Pimento")
    assert cat.content == "The user has a cat named Pimento."


@pytest.mark.parametrize(("text", "key"), [
    ("I like Lisbon far more than Madrid.", "preference.lisbon"),
    ("For scripting I prefer Ruby over Perl.", "preference.programming_language"),
    ("TypeScript works better for me than Flow.", "preference.programming_language"),
    ("I'd take Python over JavaScript any day.", "preference.programming_language"),
    ("Spreadsheets over slide decks, every time.", "preference.spreadsheets"),
    ("Give me a thriller over a romance any day.", "preference.thriller"),
    ("I kind of like rainy days.", "preference.rainy_days"),
    ("I'm not keen on seafood stews.", "preference.seafood_stews"),
    ("I'm much more into podcasts than audiobooks.", "preference.podcasts"),
    ("Cold showers are my thing.", "preference.cold_showers"),
    ("Rock climbing isn't my thing.", "preference.rock_climbing"),
    ("I'm not really a morning person.", "preference.morning_person"),
    ("I find opera boring.", "preference.opera"),
])
def test_comparative_hedged_and_fronted_preferences(text: str, key: str) -> None:
    assert keys(text) == [("preference", key)]


def test_a_dislike_of_a_language_is_not_the_language_slot() -> None:
    # A later "I prefer Go" supersedes a preferred language; hating Java says nothing of it.
    assert keys("I can't stand Java.") == [("preference", "preference.java")]
    assert keys("I love Go.") == [("preference", "preference.programming_language")]
    assert keys("I love to go hiking.") == [("preference", "preference.hiking")]


@pytest.mark.parametrize(("text", "key"), [
    ("I go to yoga three times a week.", "preference.yoga"),
    ("Most weekends I hike with friends.", "preference.hike"),
    ("I tend to go to bed early.", "preference.bed"),
    ("I hardly ever eat red meat.", "preference.red_meat"),
    ("Every Sunday I call my grandmother.", "preference.call_grandmother"),
])
def test_habits_marked_by_how_often(text: str, key: str) -> None:
    habit = only(text)
    assert (habit.kind, habit.key) == ("preference", key)
    assert "stated habit" in habit.reasoning


@pytest.mark.parametrize("text", [
    "I forget my password every week.", "I always forget my keys.", "I never got your email.",
    "Traffic is awful every morning.", "He goes running every morning.",
    "The kids play outside most afternoons.", "I'm at the office every day this week.",
])
def test_happenings_and_other_peoples_routines_are_not_habits(text: str) -> None:
    assert reflect(text) == []


@pytest.mark.parametrize(("text", "key"), [
    ("We're flying to Lima in July.", "plan.trip"),
    ("In August we're going camping in Brittany.", "plan.trip"),
    ("I've booked a table at Nopi for Friday.", "plan.book"),
    ("I've booked a flight to Accra for December.", "plan.trip"),
    ("I'm taking a week off in March to visit my aunt.", "plan.trip"),
    ("Next Thursday I'm giving a talk at a meetup.", "plan.give"),
    ("We're renting a villa in Crete in June.", "plan.trip"),
])
def test_plans(text: str, key: str) -> None:
    assert keys(text) == [("event", key)]


def test_we_shares_plans_and_events_but_not_tastes() -> None:
    trip = only("We're flying to Lima in July.", "Clara")
    assert trip.content == "Clara (with others) is flying to Lima in July."
    assert trip.entities[0] == "Clara" and "we" in trip.tags
    bought = only("My wife and I bought a flat last year.")
    assert bought.key == "event.bought" and bought.content.startswith("The user and the user's wife")
    assert reflect("We love karaoke.") == [] and reflect("We're out of milk.") == []


@pytest.mark.parametrize(("text", "key", "value"), [
    ("I switched to oat milk last month.", "preference.oat_milk", "switched to oat milk"),
    ("I've moved on from Windows to Linux.", "preference.linux", "switched to Linux"),
    ("I gave up smoking two years ago.", "preference.smoking", "gave up smoking"),
    ("I've stopped drinking coffee.", "preference.coffee", "stopped drinking coffee"),
    ("I no longer drink energy drinks.", "preference.energy_drinks",
     "no longer drinks energy drinks"),
    ("I'm not a vegetarian anymore.", "personal.diet", "no longer vegetarian"),
    ("I don't live in Madrid any more.", "personal.location", "no longer Madrid"),
    ("I used to prefer Java, but now I like Go.", "preference.programming_language", "likes Go"),
])
def test_changes_of_mind_land_on_the_slot_they_change(text: str, key: str, value: str) -> None:
    changed = only(text)
    assert (changed.key, changed.value) == (key, value)


def test_an_ended_value_gives_way_to_the_new_one_in_the_same_sentence() -> None:
    moved = only("I no longer live in Paris, I moved to Nantes.")
    assert (moved.key, moved.value) == ("personal.location", "Nantes")


@pytest.mark.parametrize(("text", "expected"), [
    ("My twin brother lives in Doha.", [("fact", "relation.brother.location")]),
    ("My mother-in-law is vegan.", [("fact", "relation.mother_in_law.diet")]),
    ("My niece Olga studies medicine.", [("fact", "relation.niece"), ("fact", "relation.niece.study")]),
    ("My son Zaid is eight.", [("fact", "relation.son"), ("fact", "relation.son.age")]),
    ("My rabbit is called Clover.", [("fact", "possession.pet")]),
    ("My goldfish's name is Bubbles.", [("fact", "possession.pet")]),
    ("I ride a motorbike to work.", [("fact", "possession.bike")]),
    ("I'm an anaesthetist.", [("fact", "personal.job")]),
])
def test_people_pets_and_things(text: str, expected: list[tuple[str, str]]) -> None:
    assert keys(text) == expected
    assert all(c.entities[0] == "user" for c in reflect(text))


@pytest.mark.parametrize("text", [
    "Python beats Java in benchmarks, according to the article.", "I'd choose the first option.",
    "I find that really annoying.", "My train is delayed again.", "I gave up trying to fix it.",
    "I'd rather not talk about it.", "I'm not a robot.", "I'm an optimist.", "Game over, you win.",
    "I gave it a try yesterday.", "I might give up coffee.", "If I switched to Linux, would my games work?",
])
def test_what_the_widened_rules_still_leave_alone(text: str) -> None:
    assert reflect(text) == []


def _rows(name: str) -> list[dict[str, object]]:
    path = Path(str(files("hindsight_common.reflection").joinpath(name)))
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("name", [DEV_V3_SET, HELD_OUT_V3_SET, HELD_OUT_V4_SET])
def test_the_v3_and_v4_sets_are_large_labelled_with_subjects_and_load(name: str) -> None:
    rows = _rows(name)
    items = [item for r in rows for item in r["expected"]]  # type: ignore[attr-defined]
    assert len(rows) >= 150 and len({r["text"] for r in rows}) == len(rows)
    assert sum(1 for r in rows if r["expected"] == []) / len(rows) >= 0.39
    assert {i["kind"] for i in items} <= set(KINDS)
    assert all(i["subject"] and i["key"].count(".") >= 1 for i in items)
    assert all(r["speaker"] and r["text"] for r in rows)


def test_dev_set_score_does_not_regress() -> None:
    # Measured: P 0.995, R 0.986 (204 of 207). Iterated on, so this is a floor, not a figure.
    # (The v3 held-out set gets no floor: no rule may be changed because of it.)
    rows = _rows(DEV_V3_SET)
    score = evaluate(Path(str(files("hindsight_common.reflection").joinpath(DEV_V3_SET))))
    assert (score.utterances, score.expected) == (len(rows), sum(len(r["expected"]) for r in rows))  # type: ignore[arg-type]
    assert score.precision >= 0.97 and score.recall >= 0.95


def test_a_labelled_subject_must_match(tmp_path: Path) -> None:
    rows = [{"speaker": "Tomasz", "text": "I joined a rowing club last week.",
             "expected": [{"kind": "event", "key": "event.joined", "subject": "Someone else"}]},
            {"speaker": "Tomasz", "text": "I adopted a cat in May.",
             "expected": [{"kind": "event", "key": "event.adopted", "subject": "tomasz"}]}]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), "utf-8")
    score = evaluate(path)
    assert (score.produced, score.true_positives) == (2, 1)
    assert score.missed == (("I joined a rowing club last week.", "event", "event.joined"),)


def test_a_change_of_language_lands_on_the_same_subject_and_key_as_the_old_one() -> None:
    # Consolidation supersedes on (subject, key): the new value must share both.
    old = only("I much prefer Kotlin over Java for backend work.")
    new = only("I've switched to Go for backend work.")
    assert (old.entities[0], old.key) == (new.entities[0], new.key) == (
        "user", "preference.programming_language")
    assert old.value != new.value
