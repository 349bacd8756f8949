"""Unit tests for the recall temporal-expression parser.

Every case uses one fixed reference, Thursday 2023-06-15 12:00 UTC, and asserts
the exact window, so any change in resolution shows up as a failure.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from hindsight_common.recall.temporal import (
    RECENT_DAYS,
    UNBOUNDED_END,
    UNBOUNDED_START,
    TimeWindow,
    parse_time_window,
    strip_time_expression,
)

REF = datetime(2023, 6, 15, 12, 0, tzinfo=timezone.utc)  # a Thursday


def utc(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=timezone.utc)


def day(year: int, month: int, d: int) -> tuple[datetime, datetime]:
    start = utc(year, month, d)
    return start, start + timedelta(days=1)


MAY_8 = day(2023, 5, 8)

# (query, expected start, expected end)
WINDOW_CASES: list[tuple[str, datetime, datetime]] = [
    # named days and parts of the day
    ("what did I do yesterday", *day(2023, 6, 14)),
    ("what's on my list today?", *day(2023, 6, 15)),
    ("plans for tomorrow", *day(2023, 6, 16)),
    ("the day before yesterday", *day(2023, 6, 13)),
    ("what are we doing tonight", utc(2023, 6, 15, 18), utc(2023, 6, 16, 6)),
    ("what did we eat last night", utc(2023, 6, 14, 18), utc(2023, 6, 15, 6)),
    ("the call this morning", utc(2023, 6, 15, 6), utc(2023, 6, 15, 12)),
    ("the meeting this afternoon", utc(2023, 6, 15, 12), utc(2023, 6, 15, 18)),
    ("yesterday evening's dinner", utc(2023, 6, 14, 18), utc(2023, 6, 15)),
    ("yesterday morning", utc(2023, 6, 14, 6), utc(2023, 6, 14, 12)),
    # calendar weeks, months, years, weekends
    ("what happened last week", utc(2023, 6, 5), utc(2023, 6, 12)),
    ("this week", utc(2023, 6, 12), utc(2023, 6, 19)),
    ("next week", utc(2023, 6, 19), utc(2023, 6, 26)),
    ("last month", utc(2023, 5, 1), utc(2023, 6, 1)),
    ("this month", utc(2023, 6, 1), utc(2023, 7, 1)),
    ("last year", utc(2022, 1, 1), utc(2023, 1, 1)),
    ("this year", utc(2023, 1, 1), utc(2024, 1, 1)),
    ("last weekend", utc(2023, 6, 10), utc(2023, 6, 12)),
    ("this past weekend", utc(2023, 6, 10), utc(2023, 6, 12)),
    ("this weekend", utc(2023, 6, 17), utc(2023, 6, 19)),
    # N units ago: the whole calendar unit
    ("3 days ago", *day(2023, 6, 12)),
    ("three days ago", *day(2023, 6, 12)),
    ("two weeks ago", utc(2023, 5, 29), utc(2023, 6, 5)),
    ("a week ago", utc(2023, 6, 5), utc(2023, 6, 12)),
    ("2 months ago", utc(2023, 4, 1), utc(2023, 5, 1)),
    ("a year ago", utc(2022, 1, 1), utc(2023, 1, 1)),
    ("five years ago", utc(2018, 1, 1), utc(2019, 1, 1)),
    ("2 hours ago", utc(2023, 6, 15, 10), utc(2023, 6, 15, 11)),
    ("an hour ago", utc(2023, 6, 15, 11), utc(2023, 6, 15, 12)),
    ("a few days ago", utc(2023, 6, 10), utc(2023, 6, 14)),
    ("a couple of weeks ago", utc(2023, 5, 22), utc(2023, 6, 5)),
    ("a couple days ago", utc(2023, 6, 12), utc(2023, 6, 14)),
    ("several days ago", utc(2023, 6, 8), utc(2023, 6, 13)),
    # rolling windows ending at the reference
    ("anything recently?", REF - timedelta(days=RECENT_DAYS), REF),
    ("what have I read lately", utc(2023, 6, 1, 12), REF),
    ("the past 7 days", utc(2023, 6, 8, 12), REF),
    ("in the last 2 weeks", utc(2023, 6, 1, 12), REF),
    ("over the past three months", utc(2023, 3, 15, 12), REF),
    ("in the last week", utc(2023, 6, 8, 12), REF),
    ("during the previous week", utc(2023, 6, 8, 12), REF),
    ("the past few days", utc(2023, 6, 10, 12), REF),
    ("past year", utc(2022, 6, 15, 12), REF),
    ("in the past 24 hours", utc(2023, 6, 14, 12), REF),
    ("last 3 days", utc(2023, 6, 12, 12), REF),
    ("within the past month", utc(2023, 5, 15, 12), REF),
    ("earlier this month", utc(2023, 6, 1), REF),
    ("earlier this week", utc(2023, 6, 12), REF),
    ("earlier this year", utc(2023, 1, 1), REF),
    ("earlier today", utc(2023, 6, 15), REF),
    # absolute dates
    ("on 8 May 2023", *MAY_8),
    ("May 8, 2023", *MAY_8),
    ("the 8th of May 2023", *MAY_8),
    ("2023-05-08", *MAY_8),
    ("logged at 2023-05-08T10:00:00Z", *MAY_8),
    ("2023/05/08", *MAY_8),
    ("5/8/2023", *MAY_8),
    ("5/8/23", *MAY_8),
    ("on May 8th", *MAY_8),
    ("on may 8", *MAY_8),
    ("on 20 June", *day(2022, 6, 20)),
    ("on 15 June", *day(2023, 6, 15)),
    ("Dec 25", *day(2022, 12, 25)),
    ("on Feb 29", *day(2020, 2, 29)),
    ("on the 3rd", *day(2023, 6, 3)),
    ("on the 20th", *day(2023, 5, 20)),
    ("on the 31st", *day(2023, 5, 31)),
    # months
    ("in May 2023", utc(2023, 5, 1), utc(2023, 6, 1)),
    ("May 2023", utc(2023, 5, 1), utc(2023, 6, 1)),
    ("in may 2023", utc(2023, 5, 1), utc(2023, 6, 1)),
    ("June of 2022", utc(2022, 6, 1), utc(2022, 7, 1)),
    ("in May", utc(2023, 5, 1), utc(2023, 6, 1)),
    ("in June", utc(2023, 6, 1), utc(2023, 7, 1)),
    ("in July", utc(2022, 7, 1), utc(2022, 8, 1)),
    ("during december", utc(2022, 12, 1), utc(2023, 1, 1)),
    ("last May", utc(2023, 5, 1), utc(2023, 6, 1)),
    ("last June", utc(2022, 6, 1), utc(2022, 7, 1)),
    ("next May", utc(2024, 5, 1), utc(2024, 6, 1)),
    ("on 31 Feb 2023", utc(2023, 2, 1), utc(2023, 3, 1)),  # impossible day: its month
    # years and decades
    ("in 2022", utc(2022, 1, 1), utc(2023, 1, 1)),
    ("during 2021", utc(2021, 1, 1), utc(2022, 1, 1)),
    ("the year 2020", utc(2020, 1, 1), utc(2021, 1, 1)),
    ("in the 1990s", utc(1990, 1, 1), utc(2000, 1, 1)),
    # weekdays
    ("on Monday", *day(2023, 6, 12)),
    ("last Friday", *day(2023, 6, 9)),
    ("on Thursday", *day(2023, 6, 8)),
    ("last Thursday", *day(2023, 6, 8)),
    ("this Friday", *day(2023, 6, 16)),
    ("next Tuesday", *day(2023, 6, 20)),
    ("what did I eat Wednesday", *day(2023, 6, 14)),
    # seasons
    ("last summer", utc(2022, 6, 1), utc(2022, 9, 1)),
    ("in the summer of 2022", utc(2022, 6, 1), utc(2022, 9, 1)),
    ("this spring", utc(2023, 3, 1), utc(2023, 6, 1)),
    ("last winter", utc(2022, 12, 1), utc(2023, 3, 1)),
    ("in the fall of 2021", utc(2021, 9, 1), utc(2021, 12, 1)),
    ("in autumn", utc(2022, 9, 1), utc(2022, 12, 1)),
    ("winter 2020", utc(2020, 12, 1), utc(2021, 3, 1)),
    ("next winter", utc(2023, 12, 1), utc(2024, 3, 1)),
]

BEFORE_AFTER_CASES: list[tuple[str, datetime, datetime]] = [
    ("before June 2023", UNBOUNDED_START, utc(2023, 6, 1)),
    ("after 2021", utc(2022, 1, 1), UNBOUNDED_END),
    ("since last month", utc(2023, 5, 1), UNBOUNDED_END),
    ("until yesterday", UNBOUNDED_START, utc(2023, 6, 15)),
    ("prior to March 2020", UNBOUNDED_START, utc(2020, 3, 1)),
    ("after May", utc(2023, 6, 1), UNBOUNDED_END),
    ("before the summer of 2022", UNBOUNDED_START, utc(2022, 6, 1)),
    ("since Monday", utc(2023, 6, 12), UNBOUNDED_END),
    ("since 2020", utc(2020, 1, 1), UNBOUNDED_END),
    ("after the day before yesterday", utc(2023, 6, 14), UNBOUNDED_END),
    ("anything before 8 May 2023?", UNBOUNDED_START, utc(2023, 5, 8)),
    ("till last week", UNBOUNDED_START, utc(2023, 6, 12)),
]

NEGATIVE_CASES = [
    "May I ask what you think about pasta?",
    "I may go to the store",
    "They will march in a parade",
    "April told me about her cat",
    "I have 2000 photos on my laptop",
    "The last time we spoke about Python",
    "Remind me of the past tense of 'go'",
    "I fall asleep easily",
    "Call me at 555-1234",
    "What is 3/4 of 12?",
    "June said the spring in her step was gone",
    "I march 5 miles",
    "Mondays are the worst",
    "What is my favourite colour?",
    "We discussed version 2.0 and chapter 11",
    "",
]


@pytest.mark.parametrize(("query", "start", "end"), WINDOW_CASES)
def test_window(query: str, start: datetime, end: datetime) -> None:
    window = parse_time_window(query, REF)
    assert window is not None, query
    assert (window.start, window.end) == (start, end)
    assert window.start.utcoffset() == timedelta(0) and window.end.utcoffset() == timedelta(0)


@pytest.mark.parametrize(("query", "start", "end"), BEFORE_AFTER_CASES)
def test_before_after(query: str, start: datetime, end: datetime) -> None:
    window = parse_time_window(query, REF)
    assert window is not None, query
    assert (window.start, window.end) == (start, end)


@pytest.mark.parametrize("query", NEGATIVE_CASES)
def test_no_time_expression(query: str) -> None:
    assert parse_time_window(query, REF) is None


@pytest.mark.parametrize(
    ("query", "expression"),
    [
        ("What did we discuss last week about the budget?", "last week"),
        ("the day before yesterday", "the day before yesterday"),
        ("photos from the trip in the summer of 2022 to Rome", "in the summer of 2022"),
        ("Meetings in 2021 and in 2022", "in 2021"),  # the first one wins
        ("since last month", "since last month"),
        ("May I ask what happened on 8 May 2023?", "on 8 May 2023"),
        ("I may go in May", "in May"),
        ("in May 8, 2023", "May 8, 2023"),  # the day is more specific than "in May"
    ],
)
def test_expression_is_the_matched_text(query: str, expression: str) -> None:
    window = parse_time_window(query, REF)
    assert window is not None
    assert window.expression == expression


def test_window_is_a_frozen_dataclass() -> None:
    window = TimeWindow(start=REF, end=REF, expression="x")
    with pytest.raises(AttributeError):
        window.start = REF + timedelta(days=1)  # type: ignore[misc]


def test_reference_in_another_zone_is_converted_to_utc() -> None:
    evening_in_chicago = datetime(2023, 6, 15, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    window = parse_time_window("today", evening_in_chicago)
    assert window is not None
    assert (window.start, window.end) == day(2023, 6, 16)


def test_naive_reference_is_rejected() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_time_window("yesterday", datetime(2023, 6, 15, 12))


def test_last_weekend_on_a_sunday_is_the_one_before() -> None:
    sunday = utc(2023, 6, 18, 12)
    window = parse_time_window("last weekend", sunday)
    assert window is not None
    assert (window.start, window.end) == (utc(2023, 6, 10), utc(2023, 6, 12))


def test_last_winter_just_after_it_ended() -> None:
    window = parse_time_window("last winter", utc(2024, 3, 2))
    assert window is not None
    assert (window.start, window.end) == (utc(2023, 12, 1), utc(2024, 3, 1))


def test_month_rolling_back_clamps_the_day() -> None:
    window = parse_time_window("the past month", utc(2023, 3, 31, 9))
    assert window is not None
    assert window.start == utc(2023, 2, 28, 9)


def test_absurd_count_is_ignored_not_raised() -> None:
    assert parse_time_window("9999 years ago", REF) is None


@pytest.mark.parametrize(
    ("query", "stripped"),
    [
        ("What did I eat last week?", "What did I eat?"),
        ("On 8 May 2023, what did I cook?", "what did I cook?"),
        ("photos from the trip in the summer of 2022 to Rome", "photos from the trip to Rome"),
        ("any meetings before June 2023", "any meetings"),
        ("notes from 3 days ago about taxes", "notes from about taxes"),
    ],
)
def test_strip_time_expression(query: str, stripped: str) -> None:
    window = parse_time_window(query, REF)
    assert window is not None
    assert strip_time_expression(query, window) == stripped


def test_strip_leaves_query_alone_when_expression_absent() -> None:
    window = TimeWindow(start=REF, end=REF, expression="last week")
    assert strip_time_expression("nothing temporal here", window) == "nothing temporal here"
