"""Each candidate path's depth counts turns: memories ranked above a path's turns add keys
without pushing those turns out of the list fusion sees (real SQLite FTS5 index)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType

import pytest

from hindsight_common.adapters.sqlite_fts import SqliteFtsIndex
from hindsight_common.ports.projection import Document, Found, Scope
from hindsight_common.recall.engine import RecallEngine, RecallRequest, _first_turns
from hindsight_common.recall.presets import Preset, ablations

T0 = datetime(2023, 5, 1, tzinfo=UTC)
BM25_ONLY = Preset("bm25-3", MappingProxyType({"bm25": 1.0}), candidates=3, depth_counts_turns=True)


def _doc(n: int, kind: str, content: str) -> Document:
    return Document(id=f"d{n}", tenant="t1", user="ann", session="s1", type=kind, speaker="Ann",
                    role="user" if kind == "episodic" else "memory", content=content, occurred_at=T0)


def test_a_path_keeps_its_first_n_turns_and_the_memories_ranked_among_them() -> None:
    kinds = ["semantic", "episodic", "semantic", "semantic", "episodic", "episodic", "summary", "episodic"]
    hits = [Found(f"d{n}", 1.0, _doc(n, k, "x")) for n, k in enumerate(kinds)]
    assert [h.id for h in _first_turns(hits, 2)] == ["d0", "d1", "d2", "d3", "d4"]
    assert _first_turns(hits, 3) == hits[:6]
    assert _first_turns(hits, 9) == hits  # fewer turns than asked: all of them
    assert _first_turns(hits[:1], 1) == hits[:1] and _first_turns([], 3) == []


@pytest.fixture
async def index(tmp_path: Path) -> AsyncIterator[SqliteFtsIndex]:
    index = SqliteFtsIndex(tmp_path / "text.sqlite3")
    # Four memories that say "greyhound" more often (BM25 ranks them first), then the turns.
    memories = [_doc(n, "semantic", "greyhound greyhound walk") for n in range(4)]
    turns = [_doc(10 + n, "episodic", f"we took the greyhound to the park on day {n} with a long lead")
             for n in range(3)]
    await index.upsert(memories + turns, {"s#0": 1})
    yield index
    await index.close()


async def test_memories_ranked_first_do_not_push_the_turns_out_of_a_path(index: SqliteFtsIndex) -> None:
    engine = RecallEngine(None, None, index)  # type: ignore[arg-type]  # no vector path runs
    ask = RecallRequest(Scope(tenant="t1", user="ann"), "greyhound", k=3)
    lists, failed = await engine._candidate_lists(ask, BM25_ONLY, 3, T0)
    assert not failed
    # Twice as deep at most: the first 3 turns, or as many as the first 6 hits hold.
    assert [h.id for h in lists["bm25"]] == ["d0", "d1", "d2", "d3", "d10", "d11"]
    # A path's first 3 hits of any kind: only memories reach fusion.
    off = replace(BM25_ONLY, depth_counts_turns=False)
    assert [h.id for h in (await engine._candidate_lists(ask, off, 3, T0))[0]["bm25"]] == ["d0", "d1", "d2"]


def test_the_default_counts_turns_and_the_ablation_switches_it_off() -> None:
    from hindsight_common.recall.presets import PRESETS

    # fast keeps its lists as they come: its latency target leaves no room for deeper lists.
    assert PRESETS["balanced"].depth_counts_turns and not PRESETS["fast"].depth_counts_turns
    assert not ablations(PRESETS["balanced"])["balanced-no-turn_depth"].depth_counts_turns
    assert "fast-no-turn_depth" not in ablations(PRESETS["fast"])


async def test_a_scope_of_one_kind_is_searched_no_deeper(index: SqliteFtsIndex) -> None:
    engine = RecallEngine(None, None, index)  # type: ignore[arg-type]
    for types, expected in ((("semantic",), ["d0", "d1", "d2"]), (("episodic",), ["d10", "d11", "d12"])):
        ask = RecallRequest(Scope(tenant="t1", user="ann", types=types), "greyhound", k=3)
        lists, _ = await engine._candidate_lists(ask, BM25_ONLY, 3, T0)
        assert [h.id for h in lists["bm25"]] == expected
