"""Where the real servers are, for tests that need them.

Order: the environment (``HINDSIGHT_*``, e.g. from ``. .infra/env``) → the env file
that ``deploy/local/infra.sh up`` wrote (``.infra/env``) → a container started
with testcontainers when a Docker daemon answers (a ping, not just a docker CLI
on PATH) → otherwise the test FAILS with how to start them. Never a silent skip:
``make test`` starts the local servers itself.
"""

from __future__ import annotations

import atexit
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV_FILE = Path(os.environ.get("HINDSIGHT_INFRA_DIR", ROOT / ".infra")) / "env"
_EXPORT = re.compile(r"^export\s+(HINDSIGHT_[A-Z0-9_]+)=(.*)$")
_started: dict[str, str] = {}


def _from_env_file() -> dict[str, str]:
    try:
        text = ENV_FILE.read_text()
    except FileNotFoundError:
        return {}
    out = {}
    for line in text.splitlines():
        m = _EXPORT.match(line.strip())
        if m:
            out[m.group(1)] = m.group(2).strip().strip("'\"")
    return out


def docker_answers() -> bool:
    """True only when a Docker daemon answers ``GET /_ping`` (a docker CLI on PATH
    says nothing about whether an engine runs)."""
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    try:
        if host.startswith("unix://"):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            address: Any = host[len("unix://"):]
        elif host.startswith("tcp://"):
            hostname, _, port = host[len("tcp://"):].partition(":")
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            address = (hostname, int(port or 2375))
        else:
            return False
        with sock:
            sock.settimeout(3)
            sock.connect(address)
            sock.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
            return b" 200 " in sock.recv(1024)
    except OSError:
        return False


def _postgres() -> str:
    from testcontainers.postgres import PostgresContainer

    c = PostgresContainer("postgres:16", username="hindsight", password="hindsight", dbname="hindsight")
    _keep(c.start())
    return str(c.get_connection_url(driver=None))


def _kafka() -> str:
    from testcontainers.kafka import KafkaContainer

    c = KafkaContainer("confluentinc/cp-kafka:7.6.1").with_kraft()
    _keep(c.start())
    return str(c.get_bootstrap_server())


def _elasticsearch() -> str:
    from testcontainers.elasticsearch import ElasticSearchContainer

    c = ElasticSearchContainer("docker.elastic.co/elasticsearch/elasticsearch:8.19.0", mem_limit="1g")
    _keep(c.start())
    return str(c.get_url())


def _neo4j() -> str:
    from testcontainers.neo4j import Neo4jContainer

    c = Neo4jContainer("neo4j:5.26")
    _keep(c.start())
    os.environ["HINDSIGHT_NEO4J_USER"] = "neo4j"
    os.environ["HINDSIGHT_NEO4J_PASSWORD"] = str(c.password)
    return str(c.get_connection_url())


def qdrant_container_url() -> str:
    from testcontainers.qdrant import QdrantContainer

    c = QdrantContainer("qdrant/qdrant:v1.13.4")
    _keep(c.start())
    return f"http://{c.rest_host_address}"


def _keep(container: Any) -> None:
    atexit.register(container.stop)


_CONTAINERS: dict[str, Callable[[], str]] = {
    "HINDSIGHT_POSTGRES_DSN": _postgres,
    "HINDSIGHT_KAFKA_BOOTSTRAP": _kafka,
    "HINDSIGHT_ELASTICSEARCH_URL": _elasticsearch,
    "HINDSIGHT_NEO4J_URI": _neo4j,
}


def server_url(variable: str, name: str) -> str:
    """The URL/DSN of a real server, or a test failure that says how to start it."""
    value = os.environ.get(variable) or _from_env_file().get(variable) or _started.get(variable)
    if value:
        return value
    if variable in _CONTAINERS and docker_answers():
        _started[variable] = _CONTAINERS[variable]()
        return _started[variable]
    pytest.fail(
        f"{name} is needed and {variable} is not set: start the local servers with "
        "`make infra-up` (deploy/local/infra.sh up), which writes .infra/env, or point "
        f"{variable} at a running {name} (no Docker daemon answers here for testcontainers).",
        pytrace=False,
    )
