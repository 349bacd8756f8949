"""Start ``hindsight serve`` as a real subprocess on a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from hindsight_client import Hindsight

CLI = [sys.executable, "-m", "hindsight_services.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, data_dir: Path, log_path: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.env: dict[str, str] = {}  # extra HINDSIGHT_* settings for the next start

    def start(self, timeout_s: float = 120) -> None:
        self.port = free_port()
        self.grpc_port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        with open(self._log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [*CLI, "serve", "--port", str(self.port), "--data-dir", str(self.data_dir),
                 "--grpc-port", str(self.grpc_port)],
                stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **self.env},
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hindsight serve exited: {self._log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"hindsight serve not ready: {self._log_path.read_text()[-3000:]}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=60)
        self.proc = None

    def client(self) -> Hindsight:
        """The Python SDK on the running server (its port changes on every start)."""
        return Hindsight(self.url, timeout=60)

    def wait_caught_up(self, timeout_s: float = 60) -> None:
        with self.client() as hs:
            hs.wait_until_caught_up(timeout=timeout_s)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data", tmp_path / "serve.log")
    yield s
    s.stop(signal.SIGKILL)
