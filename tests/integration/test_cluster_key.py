"""``deploy/local/cluster.sh key`` puts the key where the cluster looks for it (PostgreSQL),
not in the embedded data directory a bare ``hindsight keys create`` would use."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

from hindsight_common.adapters.postgres import PostgresState
from hindsight_common.adapters.postgres_credentials import PostgresCredentials
from hindsight_common.security.credentials import KEY_PREFIX, key_id_of
from tests.servers import server_url

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "deploy" / "local" / "cluster.sh"


def test_cluster_key_is_stored_in_the_clusters_postgresql(tmp_path: Path) -> None:
    dsn = server_url("HINDSIGHT_POSTGRES_DSN", "PostgreSQL")
    kafka = server_url("HINDSIGHT_KAFKA_BOOTSTRAP", "Kafka")
    (tmp_path / "env").write_text(
        f"export HINDSIGHT_POSTGRES_DSN={dsn}\nexport HINDSIGHT_KAFKA_BOOTSTRAP={kafka}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
    env |= {"HINDSIGHT_INFRA_DIR": str(tmp_path), "HINDSIGHT_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(["bash", str(CLUSTER), "key", "cluster-key-test", "read"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    key = done.stdout.strip()
    assert done.stdout == key + "\n" and key.startswith(KEY_PREFIX)
    assert not (tmp_path / "data").exists(), "nothing written to an embedded data directory"

    async def stored() -> list[str]:
        state = PostgresState(dsn)
        try:
            found = await PostgresCredentials(state).list(tenant="cluster-key-test")
            return [k.key_id for k in found]
        finally:
            await state.close()

    assert key_id_of(key) in asyncio.run(stored())
