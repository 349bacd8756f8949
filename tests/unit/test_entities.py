"""Unit tests for the graph's entity extractor and entity keys.

Each case states the exact tuple expected, in order, so a change in what is found,
how it is spelt or in which order shows up as a failure.
"""

from __future__ import annotations

import pytest

from hindsight_common.text.entities import (
    MAX_ENTITIES,
    document_entities,
    entity_key,
    entity_keys,
    extract_entities,
    merge_entities,
)

FOUND = [
    # Names mid-sentence, one and several words.
    ("I adopted a greyhound called Pixel last week", ("Pixel",)),
    ("We flew from New York to San Francisco with United Airlines.",
     ("New York", "San Francisco", "United Airlines")),
    ("Ann and Bob met José in Zürich.", ("Ann", "Bob", "José", "Zürich")),
    # Connectors inside names; "and" between two people is not one.
    ("I work at the Bank of America and love Marks & Spencer.", ("Bank of America", "Marks & Spencer")),
    ("I love The Lord Of The Rings.", ("Lord Of The Rings",)),
    # Possessives are names even at the start of a sentence, without the 's.
    ("What is the name of Ann's dog?", ("Ann",)),
    ("James' car is red; O'Brien and Jean-Luc Picard agree.", ("James", "O'Brien", "Jean-Luc Picard")),
    # A sentence-initial word vouched for by the same word mid-sentence.
    ("Caroline went to the park. Later I called Caroline.", ("Caroline",)),
    # Vocative, and a common opener dropped from the front of a span.
    ("Melanie, that's great!", ("Melanie",)),
    ("Thanks Caroline, see you on Monday in May.", ("Caroline",)),
    ("Visit New York next summer!", ("New York",)),
    ("New York is huge.", ("New York",)),
    ("Mary Smith went home.", ("Mary Smith",)),
    ("Adopting Pixel was the best decision.", ("Pixel",)),
    # Honorifics dropped; initials and abbreviations do not end a sentence.
    ("Dr. Smith said that J. K. Rowling wrote it.", ("Smith", "J. K. Rowling")),
    ("Last Friday we visited St. Louis.", ("St. Louis",)),
    # Leading articles dropped.
    ("The Beatles played at Shea Stadium.", ("Beatles", "Shea Stadium")),
    # Acronyms and camel-case products.
    ("NASA launched it. I moved to the US in 2019.", ("NASA", "US")),
    ("I bought an iPhone and sold stuff on eBay.", ("iPhone", "eBay")),
    # Handles; e-mail addresses and URLs are not.
    ("Follow @pixel_the_dog on Instagram! Mail ann@Example.com or see https://Github.com/Foo",
     ("@pixel_the_dog", "Instagram")),
    # Quoted titles, not quoted speech.
    ('I just read "The Name of the Wind" and she said "I will come tomorrow".', ("The Name of the Wind",)),
    ("I loved ‘Dune’ and “Project Hail Mary”.", ("Dune", "Project Hail Mary")),
    ("I loved 'Dune' a lot.", ("Dune",)),
    # Mid-sentence names that look like words.
    ("ok lol btw I met Will at Starbucks on Friday", ("Will", "Starbucks")),
    ("Congratulations! How is Pixel settling in?", ("Pixel",)),
    ("Caroline: I went to the LGBTQ support group yesterday.", ("LGBTQ",)),
]

NOTHING = [
    "",
    "   \n ",
    "i went home and ate some pasta.",
    "Caroline went to the park.",  # a lone first word is not clearly a name
    "Yesterday I went out. It's fine. Let's go. I'm happy. Honestly, I don't know.",
    "WOW THAT IS SO GREAT",  # shouting carries no capitals' information
    'He said "Yes" and "Great".',
    "Hi there! Hope you're well.",
    "See you on Monday, or maybe in March or December.",
    "Tired, I went to bed. Sure, that works. Running, I fell.",
    "OK, I will. OMG lol.",
    "Write to ann@example.com or visit https://www.Example.org/Path today.",
]


@pytest.mark.parametrize(("text", "expected"), FOUND)
def test_finds_the_entities_in_order(text: str, expected: tuple[str, ...]) -> None:
    assert extract_entities(text) == expected


@pytest.mark.parametrize("text", NOTHING)
def test_finds_nothing_where_there_is_no_name(text: str) -> None:
    assert extract_entities(text) == ()


def test_is_deterministic_and_deduplicates_by_key() -> None:
    text = "Pixel met PIXEL's friend. Then pixel's owner Ann called Ann."
    first = extract_entities(text)
    assert first == extract_entities(text)
    assert [entity_key(e) for e in first] == ["pixel", "ann"]


def test_bounded_number_of_entities() -> None:
    text = " ".join(f"I met Person{chr(65 + i % 26)}{i} today." for i in range(200))
    assert len(extract_entities(text)) == MAX_ENTITIES


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("  New   York ", "new york"),
        ("J.K. Rowling", "jk rowling"),
        ("O’Brien", "o'brien"),
        ("ZÜRICH", "zürich"),
        ("Straße", "strasse"),
        ("@Pixel_The_Dog", "@pixel_the_dog"),
        ('"Dune"', "dune"),
        ("ＮＡＳＡ", "nasa"),  # full-width letters fold to ASCII
    ],
)
def test_entity_keys_are_normalised(name: str, key: str) -> None:
    assert entity_key(name) == key


def test_entity_keys_drop_empties_and_duplicates() -> None:
    assert entity_keys(["Ann", " ann ", "", "...", "Bob"]) == ("ann", "bob")


def test_given_entities_come_first_and_win_the_spelling() -> None:
    assert merge_entities(["ann", "Green Paws"], ["Ann", "Leeds"]) == ("ann", "Green Paws", "Leeds")
    got = document_entities("I adopted Pixel from Green Paws in Leeds", ["Ann", "pixel"])
    assert got == ("Ann", "pixel", "Green Paws", "Leeds")
