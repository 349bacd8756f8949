"""Fixtures shared by every suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hindsight_common.adapters.minilm import MiniLMEmbedder


@pytest.fixture(scope="session")
def embedder() -> Iterator[MiniLMEmbedder]:
    """The real all-MiniLM-L6-v2 (offline), loaded once per test session."""
    model = MiniLMEmbedder()
    model.load()
    yield model


def pytest_configure(config: pytest.Config) -> None:
    # The Qdrant server suite (tests/contract/test_qdrant_adapter.py) is defined when
    # HINDSIGHT_QDRANT_URL is set; where Docker answers, give it a real server.
    import os

    from tests.servers import docker_answers, qdrant_container_url

    if not os.environ.get("HINDSIGHT_QDRANT_URL") and docker_answers():
        os.environ["HINDSIGHT_QDRANT_URL"] = qdrant_container_url()
