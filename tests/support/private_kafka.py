"""A private, single-node Kafka for tests that stop and restart their broker.

The shared broker (``deploy/local/infra.sh``) serves every test and every engineer on a
machine, so a fault test never touches it. This starts the same distribution with the
same script, ``deploy/local/servers/kafka.sh``, in a directory of its own
(``HINDSIGHT_INFRA_DIR``) on two free ports (``HINDSIGHT_KAFKA_PORT``,
``HINDSIGHT_KAFKA_CONTROLLER_PORT``). The jars come from the cache the shared servers
were installed from (``HINDSIGHT_CACHE_DIR``, default ``~/.cache/hindsight``), or are
fetched into it by the script on first use.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "local" / "servers" / "kafka.sh"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class PrivateKafka:
    """One broker of our own: ``up`` / ``down`` (a clean stop that keeps its data),
    ``pause`` / ``resume`` (SIGSTOP / SIGCONT: a broker that hangs)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = _free_port()
        self.controller_port = _free_port()
        self.bootstrap = f"127.0.0.1:{self.port}"
        self._env = dict(
            os.environ,
            HINDSIGHT_INFRA_DIR=str(directory),
            HINDSIGHT_KAFKA_PORT=str(self.port),
            HINDSIGHT_KAFKA_CONTROLLER_PORT=str(self.controller_port),
        )

    def _run(self, command: str) -> None:
        done = subprocess.run(
            [str(SCRIPT), command], env=self._env, capture_output=True, text=True, timeout=240
        )
        if done.returncode != 0:
            raise RuntimeError(f"kafka.sh {command} failed ({done.returncode}):\n{done.stderr[-3000:]}")

    def up(self) -> None:
        """Start (or restart) the broker; returns once it serves. Raises RuntimeError."""
        self._run("up")

    def down(self) -> None:
        """Stop it cleanly (SIGTERM, as ``infra.sh down kafka``); its data stays."""
        self._run("down")

    def pid(self) -> int:
        return int((self.directory / "kafka" / "kafka.pid").read_text().strip())

    def pause(self) -> None:
        os.kill(self.pid(), signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.pid(), signal.SIGCONT)
