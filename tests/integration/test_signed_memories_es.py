"""The tamper test against the cluster's Elasticsearch text and vector projections (a real
server: ``. /work/main/.infra/env``): a stored document edited directly in Elasticsearch
is dropped by recall and counted."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from elastic_transport import HttpxAsyncHttpNode
from elasticsearch import AsyncElasticsearch

from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.reranker import Reranker
from hindsight_common.settings import Settings
from tests.integration.conftest import App, running
from tests.integration.test_signed_memories import FORGED, failures, ingest, recall_ids
from tests.servers import server_url


@pytest.fixture
async def es_app(tmp_path: Path, embedder: Embedder, reranker: Reranker) -> AsyncIterator[tuple[App, AsyncElasticsearch]]:
    url = server_url("HINDSIGHT_ELASTICSEARCH_URL", "Elasticsearch")
    name = f"hindsight_sign_{uuid.uuid4().hex[:12]}"
    settings = Settings(data_dir=tmp_path / "d", text_backend="elasticsearch", vector_backend="elasticsearch",
                        elasticsearch_url=url, elasticsearch_index=f"{name}_text",
                        elasticsearch_vector_index=f"{name}_vectors")
    raw = AsyncElasticsearch(url, node_class=HttpxAsyncHttpNode, request_timeout=30)
    try:
        async with running(settings, embedder, reranker) as app:
            yield app, raw
    finally:
        for index in await raw.indices.get(index=f"{name}*", allow_no_indices=True):
            await raw.indices.delete(index=index)
        await raw.close()


async def tamper(raw: AsyncElasticsearch, alias: str, doc_id: str) -> None:
    """Rewrite the stored document's payload content with a plain Elasticsearch client."""
    found = await raw.get(index=alias, id=doc_id)
    source = dict(found["_source"])
    source["payload"] = {**source["payload"], "content": FORGED}
    await raw.index(index=found["_index"], id=doc_id, document=source, refresh=True)


@pytest.mark.parametrize("which", ["text", "vectors"])
async def test_a_document_edited_in_elasticsearch_is_dropped_by_recall(
        es_app: tuple[App, AsyncElasticsearch], which: str) -> None:
    app, raw = es_app
    kept, target = await ingest(app, "I water the garden on Sundays", "I moved to Lisbon in March")
    target_id = str(target.event_id)
    assert target_id in await recall_ids(app, "Where did Ann move to? Lisbon")
    settings = app.runtime.settings
    alias = settings.elasticsearch_index if which == "text" else settings.elasticsearch_vector_index
    await tamper(raw, alias, target_id)
    before = failures()
    ids = await recall_ids(app, "Where did Ann move to? Lisbon")
    assert target_id not in ids and str(kept.event_id) in ids
    assert failures() > before
