"""The Qdrant collection-alias swap of an online rebuild (``adapters/qdrant_versions.py``)
on qdrant-client's local mode, the Qdrant stand-in: a QdrantIndex reading through the
alias sees the new version's points once the alias has moved."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from qdrant_client import AsyncQdrantClient

from hindsight_common.adapters.qdrant import QdrantIndex
from hindsight_common.adapters.qdrant_versions import QdrantVersions
from hindsight_common.ports.projection import Document, Embedded

DIM = 4


def _doc(doc_id: str) -> Embedded:
    doc = Document(id=doc_id, tenant="t", user="u", session="s", type="episodic", speaker="U", role="user",
                   content=doc_id, occurred_at=datetime(2024, 5, 1, tzinfo=UTC))
    return Embedded(doc, [1.0, 0.0, 0.0, 0.0], "m")


async def test_the_alias_moves_to_the_new_version_and_the_old_one_is_dropped(tmp_path: Path) -> None:
    live = QdrantIndex(DIM, path=str(tmp_path / "q"), collection="vec")
    await live.upsert([_doc("00000000-0000-0000-0000-000000000001")], {"i#0": 0})
    # What a rebuild opens: the staging alias vec_v2 (its data in vec_v2_v1), on the same
    # store; local mode allows one client per directory, so the two indexes share it.
    staged = QdrantIndex(DIM, in_memory=True, collection="vec_v2")
    await staged._client.close()
    staged._client = live._client
    await staged.upsert([_doc("00000000-0000-0000-0000-000000000002")], {"i#0": 1})

    versions = QdrantVersions(live._client, "vec")
    assert await versions.live() == 1 and await versions.versions() == [1, 2]
    await versions.swap(2)
    assert await versions.live() == 2
    await staged.upsert([], {"i#0": 2})  # the rebuild drains through its staging alias
    await versions.unstage(2)
    aliases = {a.alias_name for a in (await live._client.get_aliases()).aliases}
    assert aliases == {"vec"}  # the staging alias is gone
    assert await live.ids("t") == ["00000000-0000-0000-0000-000000000002"]  # the reader followed
    assert await live.position() == {"i#0": 2}
    assert await versions.drop(1) == "vec_v1" and await versions.versions() == [2]
    await live.close()


def test_a_client_is_built_for_a_server_url() -> None:
    versions = QdrantVersions.at("http://127.0.0.1:6333", "vec")
    assert isinstance(versions._client, AsyncQdrantClient) and versions.alias == "vec"
