"""Time expressions in recall queries, resolved to UTC windows.

Recall's temporal arm needs to know *when* a query is about: "what did I cook
last weekend?" should only search that weekend. This module finds one time
expression in free text and resolves it to a half-open window [start, end)
relative to a reference time. It is pure (no clock, no locale, no I/O).

Conventions (each is a choice, so it is written down):

* Arithmetic is in UTC. Weeks start on Monday; a weekend is Sat 00:00-Mon 00:00.
  Morning 06-12, afternoon 12-18, evening 18-24, night 18-06.
* Numeric dates: ISO ``2023-05-08`` / ``2023/05/08`` and US month/day/year
  ``5/8/2023`` (``5/8/23`` means 2023). Day-first slashes are never read.
* Seasons are meteorological, northern hemisphere (summer = Jun-Aug); "winter
  2022" starts in December 2022.
* Without a year, "in May", "on 8 May", "on the 8th" mean the most recent one
  not after the reference; "on Monday"/"last Monday" the most recent strictly
  before today; "last May" the most recent May before the current month.
* "N units ago" is the whole calendar unit N back ("two weeks ago" is that
  Monday-Monday week). "the past N units", "in the last week" (with "the") and
  "past week" roll back from the reference; "last week" is the calendar week.
  Fuzzy counts: couple = 2-3, few = 2-5, several = 3-7. "recently" = the last
  RECENT_DAYS days. An impossible date ("31 Feb 2023") falls back to its month.
* before X = [UNBOUNDED_START, X.start), after X = [X.end, UNBOUNDED_END),
  since X = [X.start, UNBOUNDED_END), until X = [UNBOUNDED_START, X.end).

Guards against false positives ("May I ask", "march in a parade", "April
said", "I fall asleep"): a month or season name counts only with a year, after
a temporal word (in, during, throughout, last, this, next, past, or a
before/after/since/until modifier), or, for months, next to a day number. The
lower-case words "may", "march", "mar" need more than a bare number ("on", an
ordinal, a year). A bare year needs in/during/throughout/"the year" or a
modifier and must lie in 1800-2099. Weekdays count alone, but not as plurals.

Several expressions: the one that starts first wins; of those starting at the
same place, the longest ("the day before yesterday" over "before yesterday").
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable

__all__ = [
    "RECENT_DAYS", "UNBOUNDED_END", "UNBOUNDED_START", "TimeWindow",
    "parse_time_window", "strip_time_expression",
]

UNBOUNDED_START = datetime.min.replace(tzinfo=timezone.utc)
UNBOUNDED_END = datetime.max.replace(tzinfo=timezone.utc)
RECENT_DAYS = 14


@dataclass(frozen=True)
class TimeWindow:
    """A half-open UTC interval [start, end) and the query text it was read from."""

    start: datetime
    end: datetime
    expression: str


_Span = tuple[datetime, datetime]
_Resolver = Callable[[re.Match[str], datetime, str], _Span | None]


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    # Gets the match, the UTC reference and the query text before the match
    # (to see a before/after modifier); returns None when a guard rejects it.
    resolve: _Resolver


# --- vocabulary ------------------------------------------------------------

_MONTH_NAMES = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS = {**_MONTH_NAMES, **{n[:3]: i for n, i in _MONTH_NAMES.items()}, "sept": 9}
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_AMBIGUOUS_LOWER = frozenset({"may", "march", "mar"})
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_WEEKDAY_ALT = "|".join(_WEEKDAYS)
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}

_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty"
).split()
_WORD_NUMBERS = {w: i for i, w in enumerate(_NUMBER_WORDS, start=1)} | {"thirty": 30, "a": 1, "an": 1}
_FUZZY = {"couple": (2, 3), "few": (2, 5), "several": (3, 7)}
_WORD_ALT = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
_NUM = rf"\d{{1,4}}|(?:a\s+)?(?:couple(?:\s+of)?|few)|several|{_WORD_ALT}"
_UNIT = r"(?P<unit>hour|day|week|month|year)s?"
_FIXED_UNITS = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(weeks=1)}
_DAY_PARTS = {"morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30)}
_DAY_OFFSETS = {"this": 0, "today": 0, "yesterday": -1, "tomorrow": 1}
_RELATIVE = {"last": -1, "previous": -1, "past": -1, "this past": -1, "this": 0, "current": 0, "next": 1}

_MODIFIER = re.compile(
    r"\b(before|after|since|until|till|prior\s+to|earlier\s+than|later\s+than)\s+$",
    re.IGNORECASE,
)


# --- calendar arithmetic ---------------------------------------------------


def _at(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=timezone.utc)


def _day_start(t: datetime) -> datetime:
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def _days(first: datetime, count: int = 1) -> _Span:
    return first, first + timedelta(days=count)


def _month_shift(year: int, month: int, n: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + n
    return index // 12, index % 12 + 1


def _month(year: int, month: int) -> _Span:
    return _at(year, month, 1), _at(*_month_shift(year, month, 1), 1)


def _week_start(t: datetime) -> datetime:
    day = _day_start(t)
    return day - timedelta(days=day.weekday())


def _unit_start(ref: datetime, unit: str, back: int) -> datetime:
    """Start of the calendar unit `back` units before the one holding ref."""
    if unit == "hour":
        return ref.replace(minute=0, second=0, microsecond=0) - timedelta(hours=back)
    if unit == "day":
        return _day_start(ref) - timedelta(days=back)
    if unit == "week":
        return _week_start(ref) - timedelta(weeks=back)
    if unit == "month":
        return _at(*_month_shift(ref.year, ref.month, -back), 1)
    return _at(ref.year - back, 1, 1)


def _rewind(ref: datetime, unit: str, n: int) -> datetime:
    """ref moved back n units, clamping the day (31 March - 1 month = 28/29 Feb)."""
    if unit in _FIXED_UNITS:
        return ref - _FIXED_UNITS[unit] * n
    year, month = _month_shift(ref.year, ref.month, -n * (12 if unit == "year" else 1))
    return ref.replace(year=year, month=month, day=min(ref.day, calendar.monthrange(year, month)[1]))


def _season(year: int, first_month: int) -> _Span:
    return _at(year, first_month, 1), _at(*_month_shift(year, first_month, 3), 1)


def _recent_date(ref: datetime, month: int, day: int) -> _Span | None:
    """The most recent `month`/`day` on or before ref's day (29 Feb looks back to a leap year)."""
    for year in range(ref.year, ref.year - 8, -1):
        if day <= calendar.monthrange(year, month)[1] and _at(year, month, day) <= ref:
            return _days(_at(year, month, day))
    return None


def _count(text: str) -> tuple[int, int]:
    """(low, high) of a spoken count: "3" -> (3, 3), "a few" -> (2, 5)."""
    words = text.lower().split()
    key = words[1] if words[0] == "a" and len(words) > 1 else words[0]
    if key.isdigit():
        return int(key), int(key)
    if key in _FUZZY:
        return _FUZZY[key]
    return _WORD_NUMBERS[key], _WORD_NUMBERS[key]


def _after_modifier(prefix: str) -> bool:
    return _MODIFIER.search(prefix) is not None


def _apply_modifier(word: str, span: _Span) -> _Span:
    word = " ".join(word.lower().split())
    if word in ("before", "prior to", "earlier than"):
        return UNBOUNDED_START, span[0]
    if word in ("after", "later than"):
        return span[1], UNBOUNDED_END
    if word == "since":
        return span[0], UNBOUNDED_END
    return UNBOUNDED_START, span[1]  # until, till


# --- resolvers, one per kind of expression ----------------------------------


def _resolve_day_word(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    today = _day_start(ref)
    word = m["word"].lower() if m["word"] else ""
    if m["dby"]:
        return _days(today - timedelta(days=2))
    if word == "tonight":
        return today + timedelta(hours=18), today + timedelta(hours=30)
    if word:
        return _days(today + timedelta(days=_DAY_OFFSETS.get(word, 0)))
    return today - timedelta(hours=6), today + timedelta(hours=6)  # last night


def _resolve_day_part(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    day = _day_start(ref) + timedelta(days=_DAY_OFFSETS[m["day"].lower()])
    first, last = _DAY_PARTS[m["part"].lower()]
    return day + timedelta(hours=first), day + timedelta(hours=last)


def _resolve_earlier(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    return _unit_start(ref, (m["unit"] or "day").lower(), 0), ref


def _resolve_recent(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    return ref - timedelta(days=RECENT_DAYS), ref


def _resolve_ago(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    low, high = _count(m["n"])
    unit = m["unit"].lower()
    return _unit_start(ref, unit, high), _unit_start(ref, unit, low - 1)


def _resolve_rolling(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    if m["n"] is None and m["the"] is None and m["word"].lower() != "past":
        return None  # "last week" is the calendar week: _resolve_calendar
    n = _count(m["n"])[1] if m["n"] else 1
    return _rewind(ref, m["unit"].lower(), n), ref


def _resolve_calendar(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    offset = _RELATIVE[" ".join(m["rel"].lower().split())]
    unit = m["unit"].lower()
    if unit == "weekend":
        return _days(_week_start(ref) + timedelta(days=5 + 7 * offset), 2)
    return _unit_start(ref, unit, -offset), _unit_start(ref, unit, -offset - 1)


def _resolve_weekday(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    target = _WEEKDAYS[m["day"].lower()]
    rel = (m["rel"] or "").lower()
    if rel in ("this", "next"):
        return _days(_week_start(ref) + timedelta(days=target + 7 * _RELATIVE[rel]))
    today = _day_start(ref)
    return _days(today - timedelta(days=(today.weekday() - target) % 7 or 7))


def _resolve_numeric_date(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    year = int(m["year"])
    return _days(_at(year + 2000 if year < 100 else year, int(m["month"]), int(m["day"])))


def _resolve_day_month(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    month, day = _MONTHS[m["month"].lower()], int(m["day"])
    if m["year"]:
        return _days(_at(int(m["year"]), month, day))
    if m["month"] in _AMBIGUOUS_LOWER and not (m["pre"] or m["ord"] or _after_modifier(prefix)):
        return None
    return _recent_date(ref, month, day)


def _resolve_day_of_month(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    day = int(m["day"])
    for back in range(12):
        year, month = _month_shift(ref.year, ref.month, -back)
        if 1 <= day <= calendar.monthrange(year, month)[1] and _at(year, month, day) <= ref:
            return _days(_at(year, month, day))
    return None


def _resolve_month(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    month = _MONTHS[m["month"].lower()]
    if m["year"]:
        return _month(int(m["year"]), month)
    if not (m["pre"] or m["rel"] or _after_modifier(prefix)):
        return None
    offset = _RELATIVE.get((m["rel"] or "").lower())
    if offset == 1:  # the first one after this month
        return _month(ref.year + (1 if month <= ref.month else 0), month)
    if offset == -1:  # the most recent one before this month
        return _month(ref.year - (1 if month >= ref.month else 0), month)
    if offset == 0:
        return _month(ref.year, month)
    return _month(ref.year - (1 if month > ref.month else 0), month)


def _resolve_season(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    first = _SEASONS[m["season"].lower()]
    if m["year"]:
        return _season(int(m["year"]), first)
    if not (m["pre"] or m["rel"] or _after_modifier(prefix)):
        return None
    offset = _RELATIVE.get((m["rel"] or "").lower())
    newest_first = [_season(year, first) for year in range(ref.year + 1, ref.year - 3, -1)]
    if offset == -1:  # the most recent one already over
        return next(s for s in newest_first if s[1] <= ref)
    if offset == 1:
        return [s for s in newest_first if s[0] > ref][-1]
    if offset == 0:
        current = [s for s in newest_first if s[0] <= ref < s[1]]
        return current[0] if current else _season(ref.year, first)
    return next(s for s in newest_first if s[0] <= ref)


def _resolve_year(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    if not (m["pre"] or m["the"] or _after_modifier(prefix)):
        return None
    year = int(m["year"])
    return _at(year, 1, 1), _at(year + 1, 1, 1)


def _resolve_decade(m: re.Match[str], ref: datetime, prefix: str) -> _Span | None:
    decade = int(m["decade"])
    return _at(decade, 1, 1), _at(decade + 10, 1, 1)


def _rule(pattern: str, resolve: _Resolver) -> _Rule:
    return _Rule(re.compile(pattern, re.IGNORECASE), resolve)


_IN = r"(?:(?P<pre>in|during|throughout)\s+)?"
_ORD = r"(?P<ord>st|nd|rd|th)?"
_YEAR_TAIL = r"(?:,?\s+(?:of\s+)?(?P<year>\d{4})\b)?"
_RULES = (
    _rule(
        r"\b(?:(?P<dby>(?:the\s+)?day\s+before\s+yesterday)"
        r"|(?P<word>today|tonight|yesterday|tomorrow)|last\s+night)\b",
        _resolve_day_word,
    ),
    _rule(
        r"\b(?P<day>this|today|yesterday|tomorrow)\s+(?P<part>morning|afternoon|evening|night)\b",
        _resolve_day_part,
    ),
    _rule(r"\bearlier\s+(?:today|this\s+(?P<unit>week|month|year))\b", _resolve_earlier),
    _rule(r"\b(?:recently|lately|of\s+late)\b", _resolve_recent),
    _rule(rf"\b(?P<n>{_NUM})\s+{_UNIT}\s+ago\b", _resolve_ago),
    _rule(
        r"\b(?:(?:in|over|during|within|for|throughout)\s+)?(?P<the>the\s+)?"
        rf"(?P<word>past|last|previous)\s+(?:(?P<n>{_NUM})\s+)?{_UNIT}\b",
        _resolve_rolling,
    ),
    _rule(
        r"\b(?:(?:in|during|over|throughout)\s+)?(?P<rel>last|previous|this\s+past|this|current|next)\s+"
        r"(?P<unit>week|weekend|month|year)\b",
        _resolve_calendar,
    ),
    _rule(
        rf"\b(?:on\s+)?(?:(?P<rel>last|past|previous|this|next)\s+)?(?P<day>{_WEEKDAY_ALT})\b",
        _resolve_weekday,
    ),
    _rule(
        r"\b(?:on\s+)?(?P<year>\d{4})(?P<sep>[-/])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})(?![\d/-])",
        _resolve_numeric_date,
    ),
    _rule(
        r"\b(?:on\s+)?(?<![\d/])(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4}|\d{2})(?![\d/])",
        _resolve_numeric_date,
    ),
    _rule(
        rf"\b(?:(?P<pre>on)\s+)?(?:the\s+)?(?P<day>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<month>{_MONTH_ALT})\b"
        r"(?:,?\s+(?P<year>\d{4})\b)?",
        _resolve_day_month,
    ),
    _rule(
        rf"\b(?:(?P<pre>on)\s+)?(?P<month>{_MONTH_ALT})\s+(?:the\s+)?(?P<day>\d{{1,2}}){_ORD}\b"
        r"(?:,?\s+(?P<year>\d{4})\b)?",
        _resolve_day_month,
    ),
    _rule(r"\bon\s+the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\b", _resolve_day_of_month),
    # The lookahead leaves "May 8" to the day rules instead of reading "in May".
    _rule(
        rf"\b{_IN}(?:(?P<rel>last|this|next|past)\s+)?(?P<month>{_MONTH_ALT})\b"
        rf"(?:,?\s+(?:of\s+)?(?P<year>\d{{4}})\b|(?!\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\b))",
        _resolve_month,
    ),
    _rule(
        rf"\b{_IN}(?:(?P<rel>last|this|next|past)\s+|the\s+)?(?P<season>spring|summer|autumn|fall|winter)\b"
        + _YEAR_TAIL,
        _resolve_season,
    ),
    _rule(rf"\b{_IN}(?P<the>the\s+year\s+)?(?P<year>(?:1[89]|20)\d\d)\b(?![-/.]\d)", _resolve_year),
    _rule(rf"\b{_IN}the\s+(?P<decade>(?:1[89]|20)\d0)s\b", _resolve_decade),
)


# --- public API ---------------------------------------------------------------


def parse_time_window(query: str, reference: datetime) -> TimeWindow | None:
    """Find the first time expression in `query` and resolve it against `reference`.

    Returns a TimeWindow with UTC start/end (half-open) and the matched text, or
    None when the query holds no time expression this module understands.
    Raises ValueError when `reference` is naive, since "yesterday" depends on
    which day it is where the reference was taken.
    """
    if reference.tzinfo is None or reference.utcoffset() is None:
        raise ValueError("reference must be timezone-aware, e.g. datetime.now(timezone.utc)")
    ref = reference.astimezone(timezone.utc)
    best: tuple[int, int, _Span] | None = None
    for rule in _RULES:
        for match in rule.pattern.finditer(query):
            start, end = match.span()
            prefix = query[:start]
            try:
                span = rule.resolve(match, ref, prefix)
            except (ValueError, OverflowError):
                span = None  # 31 February, or 5000 years ago: not a usable window
            if span is None:
                continue
            modifier = _MODIFIER.search(prefix)
            if modifier is not None:
                start, span = modifier.start(), _apply_modifier(modifier.group(1), span)
            if best is None or (start, -end) < (best[0], -best[1]):
                best = (start, end, span)
    if best is None:
        return None
    start, end, (window_start, window_end) = best
    return TimeWindow(start=window_start, end=window_end, expression=query[start:end])


def strip_time_expression(query: str, window: TimeWindow) -> str:
    """`query` without `window.expression`, tidied for keyword search.

    Returns the query unchanged when the expression does not occur in it.
    """
    at = query.find(window.expression) if window.expression else -1
    if at < 0:
        return query
    text = query[:at] + " " + query[at + len(window.expression) :]
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([?.!,;:])", r"\1", text)
    return re.sub(r"^[\s,;:]+", "", text).strip()
