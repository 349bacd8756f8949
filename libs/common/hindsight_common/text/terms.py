"""Keyword terms of a natural-language query, for BM25 paths.

Conversational questions are mostly function words ("what did she do ...");
OR-ing those into a BM25 query only adds noise, so they are dropped.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w']+", re.UNICODE)

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each few for from further had hadn't has hasn't have
    haven't having he he'd he'll he's her here here's hers herself him himself his how how's i
    i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
    myself no nor not of off on once only or other ought our ours ourselves out over own same
    shan't she she'd she'll she's should shouldn't so some such than that that's the their
    theirs them themselves then there there's these they they'd they'll they're they've this
    those through to too under until up very was wasn't we we'd we'll we're we've were weren't
    what what's when when's where where's which while who who's whom why why's with won't
    would wouldn't you you'd you'll you're you've your yours yourself yourselves
    s t will just did does kind
    """.split()
)


def keyword_terms(query: str, max_terms: int = 32) -> list[str]:
    """Lower-cased content words of ``query``, in order, without duplicates."""
    seen: dict[str, None] = {}
    for raw in _WORD.findall(query.lower()):
        word = raw.strip("'")
        if word.endswith("'s"):
            word = word[:-2]
        if len(word) < 2 and not word.isdigit():
            continue
        if word in STOPWORDS:
            continue
        seen.setdefault(word, None)
    return list(seen)[:max_terms]
