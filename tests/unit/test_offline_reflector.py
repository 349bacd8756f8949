"""Behaviour of the offline (rule-based) reflector and of its evaluation harness."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from importlib.resources import files
from pathlib import Path

import pytest

from hindsight_common.reflection import (
    KINDS,
    Candidate,
    Turn,
    evaluate,
    reflect_turns,
)
from hindsight_common.reflection.evaluation import HELD_OUT_V2_SET

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def turn(index: int, speaker: str, content: str, role: str = "user",
         external_id: str | None = None) -> Turn:
    return Turn(f"evt-{index}", speaker, role, content, T0 + timedelta(minutes=index),
                external_id)


def reflect(content: str, speaker: str = "user") -> list[Candidate]:
    return reflect_turns([turn(1, speaker, content)])


def keys(candidates: list[Candidate]) -> list[tuple[str, str]]:
    return [(c.kind, c.key) for c in candidates]


def only(candidates: list[Candidate]) -> Candidate:
    assert len(candidates) == 1, candidates
    return candidates[0]


# --- preferences --------------------------------------------------------------------------


def test_explicit_preference_is_third_person_and_names_the_speaker() -> None:
    found = only(reflect("I love knitting scarves, it's so relaxing.", "Ines"))
    assert found.kind == "preference"
    assert found.key == "preference.knitting_scarves"
    assert found.content == "Ines loves knitting scarves."
    assert found.confidence == pytest.approx(0.9)
    assert found.entities[0] == "Ines"


@pytest.mark.parametrize(("text", "key", "words"), [
    ("honestly I can't stand long meetings", "preference.long_meetings", "can't stand"),
    ("I don't like tomatoes.", "preference.tomatoes", "doesn't like"),
    ("I'm a big fan of jazz, especially Coltrane.", "preference.jazz", "fan of jazz"),
    ("I'm a huge Blade Runner fan.", "preference.blade_runner", "Blade Runner"),
    ("I prefer Python over Java for scripting.", "preference.programming_language", "Python"),
    ("I prefer replies in Spanish.", "preference.language", "Spanish"),
    ("Always answer in French, please.", "preference.language", "French"),
    ("My favorite color is green.", "preference.favorite_color", "green"),
])
def test_preference_wordings(text: str, key: str, words: str) -> None:
    found = only(reflect(text))
    assert (found.kind, found.key) == ("preference", key)
    assert words in found.content
    assert found.content.startswith("The user")


@pytest.mark.parametrize(("text", "content"), [
    ("I'm not a fan of horror movies.", "Zoe is not a fan of horror movies."),
    ("I do not like tomatoes", "Zoe does not like tomatoes."),
    ("I prefer tea, not coffee.", "Zoe prefers tea."),
])
def test_negated_preferences_keep_their_whole_statement(text: str, content: str) -> None:
    assert only(reflect(text, "Zoe")).content == content


def test_habits_are_weaker_preferences() -> None:
    found = only(reflect("I never eat meat."))
    assert found.key == "preference.meat"
    assert found.content == "The user never eats meat."
    assert found.confidence < 0.9


# --- personal facts, relations, possessions ---------------------------------------------


@pytest.mark.parametrize(("text", "key", "value"), [
    ("My name is Dmitri but everyone calls me Dima.", "personal.name", "Dmitri"),
    ("Call me Ishmael.", "personal.name", "Ishmael"),
    ("I live in Toronto now.", "personal.location", "Toronto"),
    ("I'm based in Austin, Texas.", "personal.location", "Austin, Texas"),
    ("I moved to Dubai two years ago.", "personal.location", "Dubai"),
    ("I'm originally from Naples.", "personal.origin", "Naples"),
    ("I work as a nurse at St. Mary's.", "personal.job", "nurse"),
    ("I'm a software engineer.", "personal.job", "software engineer"),
    ("I work for Spotify.", "personal.employer", "Spotify"),
    ("I'm majoring in economics.", "personal.study", "economics"),
    ("I'm vegetarian, so no meat please.", "personal.diet", "vegetarian"),
    ("I'm allergic to cats.", "personal.allergy", "cats"),
    ("I'm 29.", "personal.age", "29"),
    ("i work as a UX designer", "personal.job", "UX designer"),
])
def test_personal_facts(text: str, key: str, value: str) -> None:
    found = only(reflect(text))
    assert (found.kind, found.key, found.value) == ("fact", key, value)


def test_named_relative_gives_the_relation_and_the_fact_about_them() -> None:
    found = reflect("My sister Yuki just moved to Osaka.", "Kenji")
    assert keys(found) == [("fact", "relation.sister"), ("fact", "relation.sister.location")]
    assert found[0].content == "Kenji has a sister named Yuki."
    assert found[1].content == "Kenji's sister Yuki just moved to Osaka."
    assert found[1].value == "Osaka"
    assert found[1].entities == ("Kenji", "Yuki", "Osaka")
    assert found[1].confidence <= 0.75  # second-hand


def test_reported_preference_of_a_relative_is_a_fact_about_them() -> None:
    found = only(reflect("My kids love the beach.", "Priya"))
    assert (found.kind, found.key) == ("fact", "relation.children.preference.beach")
    assert found.content == "Priya's kids love the beach."


def test_he_or_she_continues_the_relative_of_the_same_sentence() -> None:
    found = reflect("My brother is a pilot and he lives in Doha.", "Aisha")
    assert keys(found) == [("fact", "relation.brother.job"),
                           ("fact", "relation.brother.location")]


@pytest.mark.parametrize(("text", "key"), [
    ("I have a golden retriever named Biscuit.", "possession.pet"),
    ("My dog Max loves the snow.", "possession.pet"),
    ("I have a Subaru Outback.", "possession.car"),
    ("I have three kids.", "relation.children"),
    ("I'm married to Sarah.", "relation.spouse"),
])
def test_possessions_and_family(text: str, key: str) -> None:
    assert keys(reflect(text)) == [("fact", key)]


# --- events and plans ---------------------------------------------------------------------


def test_dated_event_keeps_the_time_phrase_and_starts_at_the_turn() -> None:
    found = only(reflect("I joined a rowing club last week.", "Tomasz"))
    assert (found.kind, found.key) == ("event", "event.joined")
    assert found.content == "Tomasz joined a rowing club last week."
    assert found.valid_from == T0 + timedelta(minutes=1)


def test_leading_date_moves_to_the_end_of_the_statement() -> None:
    found = only(reflect("On 5 May I swam across the bay in Sydney!", "Keiko"))
    assert found.key == "event.swam"
    assert found.content == "Keiko swam across the bay in Sydney on 5 May."
    assert "Sydney" in found.entities


@pytest.mark.parametrize(("text", "key"), [
    ("I'm going to Japan in April.", "plan.trip"),
    ("I'm flying to Berlin on Friday for a conference.", "plan.trip"),
    ("I'm planning a trip to Peru.", "plan.trip"),
    ("I'm going to start therapy next month.", "plan.start"),
    ("I plan to run the Rotterdam half in October.", "plan.run"),
    ("I'm moving to Denver next month.", "plan.move"),
])
def test_plans(text: str, key: str) -> None:
    assert keys(reflect(text)) == [("event", key)]


@pytest.mark.parametrize("text", [
    "I went to the store.",  # past, but neither dated nor a life event
    "I'm going to grab lunch.",  # no date to anchor a plan
    "I'm going to bed, good night.",
    "ok, thanks. I'll try that tomorrow.",  # "that" is not self-contained
])
def test_everyday_actions_are_not_events(text: str) -> None:
    assert reflect(text) == []


# --- corrections --------------------------------------------------------------------------


def test_bare_correction_rewrites_the_previous_statement_with_both_sources() -> None:
    found = only(reflect_turns([turn(1, "user", "I live in Lyon.", external_id="m1"),
                                turn(2, "user", "No, I meant Lille.", external_id="m2")]))
    assert (found.key, found.value) == ("personal.location", "Lille")
    assert found.content == "The user lives in Lille."
    assert found.source_event_ids == ("evt-1", "evt-2")
    assert found.source_external_ids == ("m1", "m2")
    assert "correction" in found.tags


def test_correction_of_a_date_keeps_the_value() -> None:
    found = only(reflect_turns([turn(1, "user", "I'm flying to Porto on Friday."),
                                turn(2, "user", "Actually it's Saturday, not Friday.")]))
    assert (found.key, found.value) == ("plan.trip", "Porto")
    assert found.content == "The user is flying to Porto on Saturday."


def test_restated_correction_supersedes_the_same_key() -> None:
    found = reflect_turns([turn(1, "user", "I live in Lisbon and I love fado."),
                           turn(2, "user", "Actually, I live in Porto now, not Lisbon.")])
    assert [(c.key, c.value) for c in found] == [("preference.fado", "loves fado"),
                                                 ("personal.location", "Porto")]
    assert found[1].confidence >= 0.9


def test_correction_within_one_message() -> None:
    found = only(reflect("I'm vegetarian. No wait, I meant vegan.", "Aisha"))
    assert (found.key, found.content) == ("personal.diet", "Aisha is vegan.")


def test_corrections_never_touch_another_speakers_memories() -> None:
    found = reflect_turns([turn(1, "Ines", "I live in Boston."),
                           turn(2, "Ravi", "No, I meant Denver.", role="assistant")])
    assert [(c.key, c.value) for c in found] == [("personal.location", "Boston")]


def test_unresolvable_correction_changes_nothing() -> None:
    assert reflect("Actually it's Tuesday, not Monday.") == []
    found = reflect_turns([turn(1, "user", "I love jazz."),
                           turn(2, "user", "Sorry, I meant Lisbon, not Porto.")])
    assert [c.value for c in found] == ["loves jazz"]


def test_telling_the_assistant_it_was_wrong_is_an_error_plus_the_fact() -> None:
    found = reflect("You got that wrong, my flight is on Thursday.")
    assert keys(found) == [("error", "error.wrong_answer"), ("fact", "personal.flight")]
    assert found[0].content.startswith("The assistant gave the user a wrong answer")


# --- remember requests and lessons --------------------------------------------------------


def test_remember_request_keeps_the_inner_key_with_high_confidence() -> None:
    found = only(reflect("Please remember that I'm allergic to peanuts."))
    assert (found.kind, found.key, found.value) == ("fact", "personal.allergy", "peanuts")
    assert found.confidence == pytest.approx(0.95)
    assert "remember" in found.tags


def test_remember_request_without_a_rule_becomes_a_note() -> None:
    found = only(reflect("Remember that the wifi password is on the fridge."))
    assert (found.kind, found.key) == ("fact", "note.wifi_password")
    assert found.content == ("The user asked to remember that the wifi password is on the "
                             "fridge.")
    assert found.confidence == pytest.approx(0.95)


@pytest.mark.parametrize(("text", "key"), [
    ("That didn't work because the API key had expired.", "lesson.api_key"),
    ("Next time, run the migrations before deploying.", "lesson.run_migrations"),
    ("Lesson learned: never deploy on a Friday.", "lesson.deploy"),
    ("We should have used a queue there; lesson learned.", "lesson.queue"),
])
def test_lessons(text: str, key: str) -> None:
    found = only(reflect(text))
    assert (found.kind, found.key) == ("lesson", key)
    assert found.content.startswith("Lesson from the user: ")
    assert found.valid_from is None


def test_from_now_on_with_a_known_rule_is_read_as_that_rule() -> None:
    assert keys(reflect("From now on, always answer in French.")) == [
        ("preference", "preference.language")]


# --- what must produce nothing ------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Do you like jazz?",
    "how do I reset my password",
    "Does your sister still live in Rome?",
    "So you're going to Lisbon next week?",
    "I'm moving to Denver next month?",  # a statement's words, asked as a question
    "If I lived in Paris I'd eat croissants every day.",
    "I'd love to visit Iceland someday.",
    "Suppose I prefer Java, what then?",
    "I never said I liked cats.",
    "It's not that I hate jazz, it's just not my thing.",
    "She said she loves hiking.",
    "My boss thinks I like overtime.",
    "Nobody likes Mondays.",
    "I'm a bit confused by this error message.",
    "My point is that we need more tests.",
    "Remember when we talked about the budget?",
    "Actually, never mind.",
    "I love it!",
    "Thanks, that helps a lot.",
])
def test_negatives_produce_nothing(text: str) -> None:
    assert reflect(text) == []


# --- roles, dedup, provenance -------------------------------------------------------------


def test_tool_system_and_assistant_turns_are_ignored() -> None:
    turns = [turn(1, "system", "I prefer JSON.", role="system"),
             turn(2, "search", "I live in Rome.", role="tool"),
             turn(3, "assistant", "I love jazz too!", role="assistant")]
    assert reflect_turns(turns) == []
    assert reflect_turns([]) == []


def test_between_two_people_both_are_read_and_you_is_the_other_one() -> None:
    found = reflect_turns([turn(1, "Ines", "I love talking to you about birds."),
                           turn(2, "Ravi", "I really like hiking with you.", role="assistant")])
    assert [c.content for c in found] == ["Ines loves talking to Ravi about birds.",
                                          "Ravi really likes hiking with Ines."]
    assert [c.entities[0] for c in found] == ["Ines", "Ravi"]


def test_a_compliment_on_the_other_ones_work_is_not_a_taste() -> None:
    # "your photos" are only identified by the conversation: a reaction, not a preference.
    assert reflect_turns([turn(1, "Ines", "Look at these herons."),
                          turn(2, "Ravi", "I really like your photos.", role="assistant")]) == []


def test_same_statement_twice_is_one_candidate_with_merged_provenance() -> None:
    found = only(reflect_turns([turn(1, "user", "I love jazz.", external_id="m1"),
                                turn(2, "user", "btw I love jazz!", external_id="m2")]))
    assert found.source_event_ids == ("evt-1", "evt-2")
    assert found.source_external_ids == ("m1", "m2")
    assert found.valid_from == T0 + timedelta(minutes=1)


def test_same_statement_by_two_people_stays_two_candidates() -> None:
    found = reflect_turns([turn(1, "Ines", "I love jazz."),
                           turn(2, "Ravi", "I love jazz.", role="assistant")])
    assert [c.content for c in found] == ["Ines loves jazz.", "Ravi loves jazz."]


def test_candidate_rejects_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind"):
        Candidate("x", "opinion", "k.v", "v", 0.5, (), (), None, (), (), "")


def test_every_labelled_candidate_is_self_contained() -> None:
    """Every content names its subject and has no first-person words left."""
    rows = _labelled_rows()
    for index, row in enumerate(rows):
        for found in reflect_turns([turn(index, row["speaker"], row["text"])]):
            assert found.kind in KINDS
            assert found.content.endswith(".")
            assert found.entities[0].lower() in found.content.lower(), found
            assert not re.search(r"\b(?:I|my|me|I'm)\b", found.content), found
            assert found.source_event_ids == (f"evt-{index}",)


# --- evaluation ---------------------------------------------------------------------------


def _labelled_rows() -> list[dict[str, object]]:
    text = files("hindsight_common.reflection").joinpath(
        "labelled_utterances.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_labelled_set_is_large_and_has_enough_negatives() -> None:
    rows = _labelled_rows()
    negatives = [r for r in rows if r["expected"] == []]
    assert len(rows) >= 120
    assert len(negatives) / len(rows) >= 0.35


def test_labelled_set_score_does_not_regress() -> None:
    # Measured: P 1.000, R 0.973, F1 0.986 (146 of 150). A margin of ~3 points.
    score = evaluate()
    assert score.utterances == len(_labelled_rows())
    assert score.precision >= 0.97
    assert score.recall >= 0.94
    assert score.f1 >= 0.955
    assert sum(k.true_positives for k in score.per_kind) == score.true_positives
    assert sum(k.expected for k in score.per_kind) == score.expected


def test_held_out_set_score_does_not_regress() -> None:
    # Measured after the v3 widening: P 0.927, R 0.655 (before it: P 0.972, R 0.603; the
    # first blind run gave P 0.886, R 0.534). Not blind any more: a floor, not a figure.
    path = Path(str(files("hindsight_common.reflection").joinpath(
        "heldout_utterances.jsonl")))
    score = evaluate(path)
    assert score.precision >= 0.90
    assert score.recall >= 0.62
    assert len(score.missed) == score.expected - score.true_positives


def test_held_out_v2_set_is_large_has_enough_negatives_and_loads() -> None:
    # No score floor yet: its first run was blind, and rules written after it should be
    # judged on it, not fitted to a floor. This guards its size and shape only.
    path = Path(str(files("hindsight_common.reflection").joinpath(HELD_OUT_V2_SET)))
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    negatives = [r for r in rows if r["expected"] == []]
    assert len(rows) >= 150
    assert len(negatives) / len(rows) >= 0.40
    assert len({r["text"] for r in rows}) == len(rows)
    assert {item["kind"] for r in rows for item in r["expected"]} <= set(KINDS)
    score = evaluate(path)
    assert score.utterances == len(rows)
    assert score.expected == sum(len(r["expected"]) for r in rows)


def test_evaluate_counts_matches_once_and_reports_the_bad_line(tmp_path: Path) -> None:
    good = tmp_path / "set.jsonl"
    rows = [{"speaker": "Tomasz", "text": "I joined a rowing club last week.",
             "expected": [{"kind": "event", "key": "event.joined"},
                          {"kind": "event", "key": "event.joined"}]},
            {"speaker": "Tomasz", "text": "Do you like cats?", "expected": []}]
    good.write_text("\n".join(json.dumps(r) for r in rows), "utf-8")
    score = evaluate(good)
    assert (score.utterances, score.expected, score.produced, score.true_positives) == (2, 2, 1, 1)
    assert (score.precision, score.recall) == (1.0, 0.5)

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "x", "text": "y", "expected": []}\n{"text": "no speaker"}\n',
                   "utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2"):
        evaluate(bad)
