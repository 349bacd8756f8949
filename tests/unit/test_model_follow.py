"""A cluster process following the live vector version's model (``rebuild/follow.py``),
against a stand-in for the index's model record; the real indexes are in
tests/contract/test_elasticsearch_vectors.py and test_qdrant_adapter.py, the whole
re-embedding in tests/integration/test_cluster_reembed.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest

from hindsight_common.adapters.onnx_embedder import MODEL_ID as BGE_ID
from hindsight_common.adapters.onnx_embedder import BgeSmallEmbedder
from hindsight_common.errors import ConfigurationError, ProjectionError, ProviderError
from hindsight_common.factory import embedder_model_id, make_embedder_for
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.projection import VectorIndex
from hindsight_common.settings import Settings
from hindsight_services.rebuild.follow import FollowingEmbedder, ModelFollower
from hindsight_services.rebuild.live import LiveEmbedder


class Named(Embedder):
    def __init__(self, model: str, fails: bool = False) -> None:
        self._model = model
        self.fails = fails
        self.calls = 0

    @property
    def model_id(self) -> str:
        return self._model

    @property
    def dim(self) -> int:
        return 2

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.fails:
            raise ProviderError("model files missing")
        return [[1.0, 0.0] for _ in texts]


class Record:
    """What ``VectorIndex.live_model`` reads: the model of the version behind the alias."""

    def __init__(self, model: str | None) -> None:
        self.model = model
        self.reads = 0
        self.down = False

    async def live_model(self) -> str | None:
        self.reads += 1
        if self.down:
            raise ProjectionError("Elasticsearch read mapping failed: connection refused")
        return self.model


def _follower(record: Record, models: dict[str, Named]) -> ModelFollower:
    return ModelFollower(cast(VectorIndex, record), LiveEmbedder(models["a"]), models.__getitem__)


async def test_switches_to_the_recorded_model_once_and_loads_it_first() -> None:
    models = {"a": Named("a"), "b": Named("b")}
    record = Record("a")
    follower = _follower(record, models)
    await follower.follow()
    assert follower.embedder.model_id == "a" and follower.switches == 0
    record.model = "b"
    await follower.follow()
    assert follower.embedder.model_id == "b" and follower.switches == 1
    assert models["b"].calls == 1  # warmed up before it served
    await follower.follow()
    assert follower.switches == 1


async def test_reads_at_most_once_per_max_age() -> None:
    record = Record("a")
    follower = _follower(record, {"a": Named("a")})
    for _ in range(5):
        await follower.follow(max_age_s=60)
    assert record.reads == 1
    await follower.follow()  # 0: always read
    assert record.reads == 2


async def test_an_index_that_records_no_model_is_not_followed() -> None:
    follower = _follower(Record(None), {"a": Named("a")})
    await follower.follow()
    assert follower.embedder.model_id == "a" and follower.switches == 0


async def test_a_model_that_cannot_load_is_a_projection_error_and_nothing_switches() -> None:
    models = {"a": Named("a"), "b": Named("b", fails=True)}
    follower = _follower(Record("b"), models)
    with pytest.raises(ProjectionError, match="cannot follow.*'b'.*model files missing"):
        await follower.follow()
    assert follower.embedder.model_id == "a"


async def test_queries_are_embedded_with_the_current_model_when_the_record_cannot_be_read() -> None:
    record = Record("a")
    follower = _follower(record, {"a": Named("a")})
    record.down = True
    queries = FollowingEmbedder(follower, max_age_s=0)
    assert await queries.embed_queries(["where is Pixel"]) == [[1.0, 0.0]]
    assert queries.model_id == "a"


def test_the_embedder_of_a_recorded_model_id() -> None:
    settings = Settings()
    assert embedder_model_id("bge-small-en") == BGE_ID
    assert isinstance(make_embedder_for(settings, BGE_ID), BgeSmallEmbedder)
    with pytest.raises(ConfigurationError, match="'someone/else'.*no embedder of this build"):
        make_embedder_for(settings, "someone/else")
