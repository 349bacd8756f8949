"""Cluster consolidation over the cluster's stores, lean: the consolidate handler on a real
Kafka log (a topic prefix of its own) and PostgreSQL access store, the real embedder and
the LLM port to the fake OpenAI server. The pass's statement and merge land on Kafka; a
consolidate restarted from Kafka (its fold rebuilt, the pass's events redelivered) holds
the same live and merged sets and asks the model nothing."""

from __future__ import annotations

import base64
import uuid
from pathlib import Path

from hindsight_common.events import MemoriesMerged, MemoryExtracted
from hindsight_common.factory import make_access_counts, make_log
from hindsight_common.ports.embedder import Embedder
from hindsight_common.ports.log import EventLog, LogRecord
from hindsight_common.settings import Settings
from hindsight_common.streams import MEMORIES
from hindsight_services.consolidate.handler import Consolidate, stream_records
from tests.integration.test_cluster_consolidate import MERGED, POLICY, keyring, llm, memories
from tests.servers import server_url
from tests.support.fake_openai import FakeOpenAIServer, JsonReply


async def everything(log: EventLog) -> list[LogRecord]:
    out: list[LogRecord] = []
    for key in await log.head(MEMORIES):
        out += [r async for r in stream_records(log, MEMORIES, int(key.rpartition("#")[2])) if r.event is not None]
    return out


async def handled(handler: Consolidate, records: list[LogRecord]) -> None:
    """Each partition's records, as its consumer would deliver them."""
    for key in sorted({r.position_key for r in records}):
        mine = [r for r in records if r.position_key == key]
        await handler.handle(mine, {key: mine[-1].offset})


async def test_a_cluster_merge_on_kafka_survives_a_restart(tmp_path: Path, embedder: Embedder) -> None:
    run = uuid.uuid4().hex[:8]
    settings = Settings(
        data_dir=tmp_path / "data", log_backend="kafka", kafka_bootstrap=server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka"),
        kafka_topic_prefix=f"cluster-{run}.", kafka_partitions=1,
        postgres_dsn=server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL"), embedding_cache=False,
        master_key=base64.b64encode(bytes(range(32))).decode())
    tenant = f"cluster-{run}"
    log, accesses = make_log(settings), make_access_counts(settings)
    try:
        events = memories(tenant)
        await log.append(MEMORIES, list(events))
        with FakeOpenAIServer([JsonReply({"statement": MERGED})]) as fake:
            model = llm(fake.base_url)
            handler = Consolidate(accesses, log, embedder, clusters=POLICY, llm=model, keyring=keyring())
            await handler.resume()
            await handled(handler, await everything(log))
            statement, merge = await handler.cluster_pass(tenant=tenant)
            await model.aclose()
            assert len(fake.requests) == 1
        assert isinstance(statement, MemoryExtracted) and isinstance(merge, MemoriesMerged)
        assert statement.content == MERGED and len(merge.merged_ids) == 3
        on_kafka = await everything(log)
        assert [r.event.event_id for r in on_kafka if r.event is not None][-2:] == [statement.event_id, merge.event_id]

        restarted = Consolidate(accesses, log, embedder, clusters=POLICY, keyring=keyring())
        position = await restarted.resume()
        await handled(restarted, [r for r in on_kafka if r.offset > position.get(r.position_key, -1)])
        assert restarted.state.status_of() == handler.state.status_of()
        assert statement.memory_id in restarted.state.live()
        assert await restarted.cluster_pass(tenant=tenant) == []
    finally:
        await accesses.close()
        await log.close()
