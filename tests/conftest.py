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
