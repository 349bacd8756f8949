"""The vector contract against the Qdrant adapter (cluster mode), plus what is its own.

``TestQdrantLocalMode`` runs everywhere: qdrant-client's local mode (no server),
persisted in a temporary directory so that ``reopen`` finds the data again.

``TestQdrantServer`` runs the same contract against a real Qdrant server. No Qdrant
server can be installed on our development and CI machines (docs/architecture.md,
"Ports and adapters"), so the class is defined only when ``HINDSIGHT_QDRANT_URL`` is an
http(s) URL: run it wherever a server is reachable, e.g.

    docker run -d -p 6333:6333 qdrant/qdrant
    HINDSIGHT_QDRANT_URL=http://localhost:6333 pytest tests/contract/test_qdrant_adapter.py

It is not skipped when the URL is missing: it does not exist, and the test count says so.
Each test uses its own alias and collection and deletes them afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from qdrant_client import AsyncQdrantClient, models

from hindsight_common.ports.embedder import Embedder
from hindsight_common.adapters.qdrant import QdrantIndex
from hindsight_common.errors import ConfigurationError, ProjectionError
from hindsight_common.factory import make_vector_index
from hindsight_common.ports.projection import Embedded, Scope
from hindsight_common.settings import Settings
from tests.contract.projection_contract import VectorContract, docs

DIM = 384


def _unit(rng: np.random.Generator) -> list[float]:
    v = rng.standard_normal(DIM)
    return [float(x) for x in v / np.linalg.norm(v)]


class TestQdrantLocalMode(VectorContract):
    @pytest.fixture(autouse=True)
    def _embedder(self, embedder: Embedder) -> None:
        self.embedder = embedder

    @pytest.fixture
    async def opened(self) -> AsyncIterator[list[QdrantIndex]]:
        # Local mode holds a lock file and SQLite connections per directory: close
        # every index a test opened, or they leak (and warn) at garbage collection.
        indexes: list[QdrantIndex] = []
        yield indexes
        for index in indexes:
            await index.close()

    @pytest.fixture
    def store(self, tmp_path: Path) -> str:
        return str(tmp_path / "qdrant")

    @pytest.fixture
    async def index(self, store: str, opened: list[QdrantIndex]) -> QdrantIndex:
        opened.append(QdrantIndex(DIM, path=store))
        return opened[-1]

    @pytest.fixture
    def reopen(self, store: str, opened: list[QdrantIndex]) -> Callable[[], Awaitable[QdrantIndex]]:
        # Local mode allows one client per directory: the test closes the first index
        # before it calls this.
        async def again() -> QdrantIndex:
            opened.append(QdrantIndex(DIM, path=store))
            return opened[-1]

        return again

    async def test_data_lives_in_a_versioned_collection_behind_an_alias(
        self, index: QdrantIndex, store: str
    ) -> None:
        await self.write(index, docs(), {"s#0": 4})
        await index.close()
        client = AsyncQdrantClient(path=store)
        try:
            aliases = {a.alias_name: a.collection_name for a in (await client.get_aliases()).aliases}
            assert aliases == {"hindsight_vectors": "hindsight_vectors_v1"}
            # 4 documents + 1 position point, all in the versioned collection.
            assert (await client.count("hindsight_vectors_v1")).count == 5
        finally:
            await client.close()

    async def test_position_keeps_the_highest_offset_per_key(self, index: QdrantIndex) -> None:
        await self.write(index, docs()[:1], {"a#0": 5, "b#1": 2})
        await self.write(index, docs()[1:2], {"a#0": 3, "b#1": 7})
        await index.upsert([], {"c#0": 1})
        assert await index.position() == {"a#0": 5, "b#1": 7, "c#0": 1}

    async def test_position_points_never_appear_as_documents(self, index: QdrantIndex) -> None:
        await index.upsert([], {"s#0": 9})
        # The position point's vector is the first axis; search with it in every tenant.
        probe = [1.0] + [0.0] * (DIM - 1)
        for tenant in ("t1", "", "position"):
            assert await index.search(Scope(tenant=tenant), probe, 10) == []
            assert await index.count(tenant) == 0
            assert await index.ids(tenant) == []
        assert await index.position() == {"s#0": 9}

    async def test_a_dimension_mismatch_is_a_projection_error(
        self, index: QdrantIndex, store: str, opened: list[QdrantIndex]
    ) -> None:
        await index.upsert([], {"s#0": 1})
        await index.close()
        other = QdrantIndex(DIM + 1, path=store)
        opened.append(other)
        with pytest.raises(ProjectionError, match="rebuild"):
            await other.count("t1")

    async def test_a_collection_made_for_a_model_follows_its_alias_and_refuses_other_models(
        self, store: str, opened: list[QdrantIndex],
    ) -> None:
        """As the Elasticsearch adapter: the model is read through the alias now, and
        the old model's vectors never land in the new model's collection. (Local mode
        holds one client per directory, so the swap is made with the adapter's own.)"""
        rng = np.random.default_rng(5)
        first, second = docs()[0], docs()[1]
        live = QdrantIndex(DIM, path=store, model="model-a")
        opened.append(live)
        await live.upsert([Embedded(first, _unit(rng), "model-a")], {"s#0": 1})
        assert await live.live_model() == "model-a"
        with pytest.raises(ProjectionError, match=r"\['model-b'\].*'model-a'"):
            await live.upsert([Embedded(second, _unit(rng), "model-b")], {"s#0": 2})
        assert await live.position() == {"s#0": 1}

        client = live._client  # the test's boundary: what a rebuild's swap does on a server
        await client.create_collection("hindsight_vectors_v2_v1", metadata={"embedding_model": "model-b"},
                                       vectors_config=models.VectorParams(size=DIM, distance=models.Distance.COSINE))
        await client.update_collection_aliases([
            models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name="hindsight_vectors")),
            models.CreateAliasOperation(create_alias=models.CreateAlias(
                collection_name="hindsight_vectors_v2_v1", alias_name="hindsight_vectors"))])
        assert await live.live_model() == "model-b"
        with pytest.raises(ProjectionError, match="re-embedding"):
            await live.upsert([Embedded(first, _unit(rng), "model-a")], {"s#0": 3})
        await live.upsert([Embedded(second, _unit(rng), "model-b")], {"s#0": 3})
        moved = await client.retrieve("hindsight_vectors_v2_v1", [second.id], with_payload=True)
        assert [r.payload["embedding_model"] for r in moved if r.payload] == ["model-b"]

    async def test_a_collection_made_without_a_model_records_none_and_takes_any(self, index: QdrantIndex) -> None:
        rng = np.random.default_rng(6)
        await index.upsert([Embedded(docs()[0], _unit(rng), "model-a")], {"s#0": 1})
        assert await index.live_model() is None
        await index.upsert([Embedded(docs()[1], _unit(rng), "model-b")], {"s#0": 2})
        assert await index.other_models("model-a") == (1, ["model-b"])

    async def test_driver_errors_become_projection_errors(self, index: QdrantIndex) -> None:
        not_a_uuid = Embedded(replace(docs()[0], id="not-a-uuid"), [0.1] * DIM)
        with pytest.raises(ProjectionError) as raised:
            await index.upsert([not_a_uuid], {"s#0": 1})
        assert raised.value.__cause__ is not None
        assert await index.position() == {}  # nothing recorded for a failed write
        await index.close()
        with pytest.raises(ProjectionError):
            await index.count("t1")

    async def test_in_memory_mode(self, embedder: Embedder) -> None:
        index = QdrantIndex(DIM, in_memory=True, collection="scratch")
        try:
            await self.write(index, docs(), {"s#0": 4})
            assert await index.count("t1") == 3
            assert await index.position() == {"s#0": 4}
        finally:
            await index.close()


class TestFactory:
    async def test_builds_the_qdrant_adapter_from_settings(self, tmp_path: Path) -> None:
        settings = Settings(
            vector_backend="qdrant", qdrant_url=str(tmp_path / "q"), qdrant_collection="mine"
        )
        index = make_vector_index(settings, DIM)
        try:
            assert isinstance(index, QdrantIndex)
            await index.upsert([], {"s#0": 1})
            assert await index.position() == {"s#0": 1}
        finally:
            await index.close()
        assert (tmp_path / "q").is_dir()

    def test_the_qdrant_backend_needs_a_url(self) -> None:
        with pytest.raises(ConfigurationError, match="HINDSIGHT_QDRANT_URL"):
            make_vector_index(Settings(vector_backend="qdrant"), DIM)


_SERVER_URL = os.environ.get("HINDSIGHT_QDRANT_URL", "")

if _SERVER_URL.startswith(("http://", "https://")):

    class TestQdrantServer(VectorContract):
        @pytest.fixture(autouse=True)
        def _embedder(self, embedder: Embedder) -> None:
            self.embedder = embedder

        @pytest.fixture
        async def alias(self) -> AsyncIterator[str]:
            name = f"hindsight_test_{uuid.uuid4().hex[:12]}"
            yield name
            client = AsyncQdrantClient(url=_SERVER_URL, timeout=10, check_compatibility=False)
            try:
                for collection in (await client.get_collections()).collections:
                    if collection.name.startswith(name):
                        await client.delete_collection(collection.name)  # drops its alias too
            finally:
                await client.close()

        @pytest.fixture
        async def opened(self) -> AsyncIterator[list[QdrantIndex]]:
            indexes: list[QdrantIndex] = []
            yield indexes
            for index in indexes:
                await index.close()

        @pytest.fixture
        async def index(self, alias: str, opened: list[QdrantIndex]) -> QdrantIndex:
            opened.append(QdrantIndex(DIM, url=_SERVER_URL, collection=alias))
            return opened[-1]

        @pytest.fixture
        def reopen(
            self, alias: str, opened: list[QdrantIndex]
        ) -> Callable[[], Awaitable[QdrantIndex]]:
            async def again() -> QdrantIndex:
                opened.append(QdrantIndex(DIM, url=_SERVER_URL, collection=alias))
                return opened[-1]

            return again
