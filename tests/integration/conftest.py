from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from hindsight_services.embedded import EmbeddedRuntime, create_app


@dataclass
class App:
    client: httpx.AsyncClient
    runtime: EmbeddedRuntime
    application: FastAPI  # for a client of its own (one that sees 500s instead of raising)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", max_batch=50, max_content_chars=2000)


@asynccontextmanager
async def running(settings: Settings, embedder: Embedder, reranker: Reranker | None = None) -> AsyncIterator[App]:
    """The embedded gateway in-process (real HTTP app, real storage, real models); tests
    that restart it over the same data directory open it more than once."""
    application = create_app(settings, embedder, reranker=reranker)
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield App(client, application.state.runtime, application)


@pytest.fixture
async def app(settings: Settings, embedder: Embedder, reranker: Reranker) -> AsyncIterator[App]:
    async with running(settings, embedder, reranker) as started:
        yield started
