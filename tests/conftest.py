"""Fixtures shared by every suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hindsight_common.adapters.onnx_embedder import BgeSmallEmbedder
from hindsight_common.adapters.onnx_reranker import MiniLMCrossEncoder
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker


@pytest.fixture(scope="session")
def embedder() -> Iterator[Embedder]:
    """The real bge-small-en on ONNX Runtime (offline, checksummed), loaded once per session."""
    model = BgeSmallEmbedder()
    model.load()
    yield model


@pytest.fixture(scope="session")
def reranker() -> Iterator[Reranker]:
    """The real ms-marco-MiniLM-L-12-v2 cross-encoder on ONNX Runtime, loaded once."""
    model = MiniLMCrossEncoder()
    model.load()
    yield model


def pytest_configure(config: pytest.Config) -> None:
    # The Qdrant server suite (tests/contract/test_qdrant_adapter.py) is defined when
    # HINDSIGHT_QDRANT_URL is set; where Docker answers, give it a real server.
    import os

    from tests.servers import docker_answers, qdrant_container_url

    if not os.environ.get("HINDSIGHT_QDRANT_URL") and docker_answers():
        os.environ["HINDSIGHT_QDRANT_URL"] = qdrant_container_url()
