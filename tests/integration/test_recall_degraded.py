"""Recall with the graph path while Neo4j is unreachable: it answers from the other
paths and names the missing one in ``degraded``; once Neo4j is back, the graph answers
again. The gateway runs in-process over the real Neo4j, reached through a ``FaultProxy``
(tests/support/fault_proxy.py) so the shared server is never stopped. (The default
presets run no graph path; tests/e2e/test_faults_outages.py cuts the text index under
the cluster processes.)
"""

from __future__ import annotations

import gc
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlsplit

import httpx
import pytest

from hindsight_common.ports.embedder import Embedder
from hindsight_common.recall.presets import PRESETS
from hindsight_common.settings import Settings
from hindsight_services.embedded import create_app
from tests.servers import server_url
from tests.support.fault_proxy import FaultProxy

GRAPH_PRESET = replace(PRESETS["fast"], name="fast+graph",
                       paths=MappingProxyType({**PRESETS["fast"].paths, "graph": 1.0}))


@pytest.fixture
def neo4j_proxy() -> Iterator[FaultProxy]:
    shared = urlsplit(server_url("HINDSIGHT_NEO4J_URI", "Neo4j"))
    proxy = FaultProxy(shared.hostname or "127.0.0.1", shared.port or 7687)
    yield proxy
    proxy.close()


# CI once failed this test on a socket towards the cut proxy that was garbage collected
# unclosed (a ResourceWarning, made an error by the suite's filters). The likely path: neo4j
# 6.4's driver closes a socket whose connect fails, but not one whose connect is cancelled
# (``_connect_secure`` catches Exception only), and the adapter's deadline
# (``asyncio.wait_for``) cancels a call that is still connecting. The test collects garbage
# before it ends, so such a warning is this test's and ignored here, not raised in whichever
# test runs when the collector does.
@pytest.mark.filterwarnings("ignore:unclosed <socket.socket:ResourceWarning")
async def test_a_cut_graph_degrades_recall_until_it_returns(
    tmp_path: Path, embedder: Embedder, neo4j_proxy: FaultProxy
) -> None:
    settings = Settings(data_dir=tmp_path / "data", graph_backend="neo4j",
                        neo4j_uri=f"bolt://127.0.0.1:{neo4j_proxy.port}",
                        neo4j_namespace=f"degraded_{uuid.uuid4().hex[:10]}", neo4j_timeout_s=3)
    application = create_app(settings, embedder, presets={**PRESETS, GRAPH_PRESET.name: GRAPH_PRESET})
    body = {"query": "What did Ann say about Lisbon?", "user": "ann", "preset": GRAPH_PRESET.name}
    async with application.router.lifespan_context(application):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application),
                                     base_url="http://test") as client:
            turns = [{"user": "ann", "session": "s1", "speaker": "Ann",
                      "content": f"Ann said the Lisbon office opens in {month}."}
                     for month in ("May", "June", "July")]
            assert (await client.post("/v1/interactions", json={"interactions": turns})).status_code == 201
            await application.state.runtime.wait_caught_up()
            healthy = (await client.post("/v1/recall", json=body)).json()
            assert healthy["degraded"] == [] and any("graph" in i["ranks"] for i in healthy["items"])

            neo4j_proxy.cut()
            try:
                during = await client.post("/v1/recall", json=body)
            finally:
                neo4j_proxy.restore()
            assert during.status_code == 200, during.text
            assert during.json()["degraded"] == ["graph"]
            items = during.json()["items"]
            assert items and all("graph" not in i["ranks"] for i in items)

            after = (await client.post("/v1/recall", json=body)).json()
            assert after["degraded"] == [] and any("graph" in i["ranks"] for i in after["items"])
    gc.collect()
