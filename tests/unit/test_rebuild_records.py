"""The pure parts of the online rebuild: which versions a rebuild fills, the embedded
pointer record and how settings resolve it, what is left to apply, version names."""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight_common.projection_versions import data_name, staging_alias, version_of
from hindsight_common.errors import ConfigurationError
from hindsight_common.settings import Settings
from hindsight_services.rebuild.cluster import _next
from hindsight_services.rebuild.embedded import RebuildRequest, drop_versions, parse_projections, plan
from hindsight_services.rebuild.engine import remaining
from hindsight_services.rebuild.records import (
    Versions,
    clear_rebuild,
    existing_versions,
    read_rebuild,
    read_versions,
    resolve,
    write_versions,
)


def test_projections_are_parsed_in_a_fixed_order_and_bad_names_are_refused() -> None:
    assert parse_projections("all") == ("vector", "text", "graph")
    assert parse_projections("graph, vector") == ("vector", "graph")
    with pytest.raises(ConfigurationError, match="vector, text, graph or all, not bm25"):
        parse_projections("text,bm25")
    with pytest.raises(ConfigurationError, match="not nothing"):
        parse_projections(" , ")


def test_remaining_counts_what_is_not_applied_up_to_the_heads() -> None:
    heads = {"i#0": 9, "i#1": 4}
    assert remaining({}, heads) == 15  # Kafka offsets start at 0
    assert remaining({"i#0": 9}, heads) == 5
    assert remaining({"i#0": 12, "i#1": 4}, heads) == 0  # past the heads: done
    assert remaining({}, {}) == 0


def test_the_pointer_record_moves_the_paths_and_the_embedder(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert resolve(settings).vector_dir == tmp_path / "projections" / "vectors"  # no record: version 1
    write_versions(settings, Versions({"vector": 3, "text": 2}, "minilm"))
    live = resolve(settings)
    assert live.vector_dir == tmp_path / "projections" / "vectors.v3"
    assert live.text_path == tmp_path / "projections" / "text.v2" / "bm25.v4.sqlite3"
    assert live.graph_path == tmp_path / "projections" / "graph" / "graph.sqlite3"
    assert live.embedder == "minilm"
    assert read_versions(settings) == Versions({"vector": 3, "text": 2, "graph": 1}, "minilm")


def test_a_rebuild_fills_versions_no_folder_holds_and_resumes_the_recorded_one(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    (settings.projections_dir / "vectors").mkdir(parents=True)
    (settings.projections_dir / "vectors.v2").mkdir()  # left by an older rebuild
    record, resumed = plan(settings, RebuildRequest(("vector", "text")))
    assert not resumed and record.targets == {"vector": 3, "text": 2} and record.embedder == "bge-small-en"
    assert read_rebuild(settings) == record  # durable before anything is written

    again, resumed = plan(settings, RebuildRequest(("vector", "text")))
    assert resumed and again == record
    with pytest.raises(ConfigurationError, match="--projection vector,text --embedder bge-small-en"):
        plan(settings, RebuildRequest(("graph",)))
    clear_rebuild(settings)
    assert read_rebuild(settings) is None


def test_drop_old_keeps_only_the_live_version(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    for name in ("vectors", "vectors.v2", "vectors.v3", "text", "graph"):
        (settings.projections_dir / name).mkdir(parents=True)
    assert existing_versions(settings, "vector") == [1, 2, 3]
    assert drop_versions(settings, ["vector"], Versions({"vector": 3})) == ["vectors", "vectors.v2"]
    assert existing_versions(settings, "vector") == [3] and existing_versions(settings, "text") == [1]


def test_aliased_version_names() -> None:
    assert data_name("hs_text", 1) == "hs_text_v1" and data_name("hs_text", 2) == "hs_text_v2_v1"
    assert staging_alias("hs_text", 2) == "hs_text_v2"
    assert [version_of("hs_text", i) for i in ("hs_text_v1", "hs_text_v2_v1", "hs_text_v1_v1", "other_v1")] == [
        1, 2, None, None]


def test_an_unfinished_cluster_version_is_resumed() -> None:
    assert _next(1, [1]) == 2
    assert _next(1, [1, 2]) == 2  # version 2 exists but is not live: resumed
    assert _next(2, [1, 2]) == 3
