"""The pure parts of ``hindsight bench perf`` (services/hindsight_services/bench_perf.py)."""

from __future__ import annotations

import os

import pytest

from hindsight_services.bench_perf import Turns, check_local, parse_pids, peak_rss_mb, projected


def test_the_load_generator_targets_only_this_machine() -> None:
    for url in ("http://127.0.0.1:8080", "http://localhost:9", "http://[::1]:8080"):
        check_local(url)
    for url in ("http://10.0.0.5:8080", "https://example.com", "http://127.0.0.1.example.com"):
        with pytest.raises(SystemExit, match="only targets this machine"):
            check_local(url)


def test_pids_are_name_equals_number() -> None:
    assert parse_pids(["ingest=12", "query=7"]) == {"ingest": 12, "query": 7}
    for bad in ("ingest", "=12", "ingest=x"):
        with pytest.raises(SystemExit, match="NAME=PID"):
            parse_pids([bad])


def test_peak_memory_is_read_from_proc() -> None:
    mb = peak_rss_mb(os.getpid())
    assert mb is not None and mb > 10
    assert peak_rss_mb(2**22 + 12345) is None  # no such process


def test_recallable_means_the_embed_and_project_consumers() -> None:
    # /v1/status has this shape embedded and in the cluster (the gateway asks each store).
    status = {"consumers": {"embed": {"position": {"i#0": 5}}, "project": {"position": {"i#0": 4}},
                            "reflect": {"position": {"i#0": 0}}, "consolidate": {"position": {}}}}
    assert projected(status) == [{"i#0": 5}, {"i#0": 4}]  # reflect does not gate recall
    assert projected({"log": {}}) == []


def test_turns_are_one_users_and_counted() -> None:
    turns = Turns()
    batch = turns.take(3) + turns.take(2)
    assert turns.sent == 5 and {t["user"] for t in batch} == {"perf-user"}
    assert len({t["content"] + t["occurred_at"] for t in batch}) == 5
