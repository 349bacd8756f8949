"""Private Elasticsearch and Neo4j servers for tests that stop or hang their server.

The shared servers (``deploy/local/infra.sh``) serve every test and every engineer on a
machine, so an outage test never touches them. These start the same distributions with the
same scripts (``deploy/local/servers/elasticsearch.sh``, ``neo4j.sh``) in a directory of
their own (``HINDSIGHT_INFRA_DIR``) on free ports (``HINDSIGHT_ELASTICSEARCH_PORT``,
``HINDSIGHT_ELASTICSEARCH_TRANSPORT_PORT``, ``HINDSIGHT_NEO4J_PORT``). The distributions
come from the cache the shared servers were installed from (``HINDSIGHT_CACHE_DIR``,
default ``~/.cache/hindsight``). ``tests/support/private_kafka.py`` does the same for Kafka.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVERS = ROOT / "deploy" / "local" / "servers"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class PrivateServer:
    """One server of our own from ``deploy/local/servers/<name>.sh``: ``up`` / ``down`` (a
    clean stop), ``pause`` / ``resume`` (SIGSTOP / SIGCONT: a server that hangs, its
    connections open and unanswered)."""

    name = ""
    port_variables: tuple[str, ...] = ()
    pid_file = ""  # under directory/<name>/: the process that serves

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.ports = {variable: free_port() for variable in self.port_variables}
        self._env = dict(os.environ, HINDSIGHT_INFRA_DIR=str(directory),
                         **{variable: str(port) for variable, port in self.ports.items()})

    @property
    def port(self) -> int:
        return self.ports[self.port_variables[0]]

    def _run(self, command: str) -> None:
        done = subprocess.run([str(SERVERS / f"{self.name}.sh"), command], env=self._env,
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"{self.name}.sh {command} failed ({done.returncode}):\n{done.stderr[-3000:]}")

    def up(self) -> None:
        """Start (or restart) the server; returns once it serves. Raises RuntimeError."""
        self._run("up")

    def down(self) -> None:
        """Stop it cleanly (SIGTERM, as ``infra.sh down <name>``)."""
        self._run("down")

    def pid(self) -> int:
        return int((self.directory / self.name / self.pid_file).read_text().strip())

    def pause(self) -> None:
        os.kill(self.pid(), signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.pid(), signal.SIGCONT)


class PrivateElasticsearch(PrivateServer):
    """Its data stays across ``down`` / ``up``."""

    name = "elasticsearch"
    port_variables = ("HINDSIGHT_ELASTICSEARCH_PORT", "HINDSIGHT_ELASTICSEARCH_TRANSPORT_PORT")
    pid_file = "server.pid"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class PrivateNeo4j(PrivateServer):
    """The test harness behind ``neo4j.sh`` empties the graph on every start, so an outage
    that must keep the graph is a ``pause`` (the server hangs), not a ``down``."""

    name = "neo4j"
    port_variables = ("HINDSIGHT_NEO4J_PORT",)
    pid_file = "neo4j.pid"

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"
