"""A private, single-node Kafka for tests that stop and restart their broker.

The shared broker (``deploy/local/infra.sh``) serves every test and every engineer on a
machine, so a fault test never touches it. This starts the same distribution with the
same script, ``deploy/local/servers/kafka.sh``, in a directory of its own
(``HINDSIGHT_INFRA_DIR``) on two free ports (``HINDSIGHT_KAFKA_PORT``,
``HINDSIGHT_KAFKA_CONTROLLER_PORT``). The jars come from the cache the shared servers
were installed from (``HINDSIGHT_CACHE_DIR``, default ``~/.cache/hindsight``), or are
fetched into it by the script on first use. (tests/support/private_servers.py does the
same for Elasticsearch and Neo4j.)
"""

from __future__ import annotations

from pathlib import Path

from tests.support.private_servers import PrivateServer


class PrivateKafka(PrivateServer):
    """One broker of our own: ``up`` / ``down`` (a clean stop that keeps its data),
    ``pause`` / ``resume`` (SIGSTOP / SIGCONT: a broker that hangs)."""

    name = "kafka"
    port_variables = ("HINDSIGHT_KAFKA_PORT", "HINDSIGHT_KAFKA_CONTROLLER_PORT")
    pid_file = "kafka.pid"

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.controller_port = self.ports["HINDSIGHT_KAFKA_CONTROLLER_PORT"]
        self.bootstrap = f"127.0.0.1:{self.port}"
