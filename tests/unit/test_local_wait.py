"""deploy/local/lib/common.sh's start-up wait, run for real in bash.

`hs_spawn` prints the pid of a forked shell that becomes the server only when it execs. On a
busy two-core machine the first readiness polls can land before that exec, when the process
is alive but its command line does not yet hold the server's marker; CI once failed that way
("neo4j did not come up: its process exited") while Neo4j was starting normally.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

COMMON = Path(__file__).resolve().parents[2] / "deploy" / "local" / "lib" / "common.sh"


def wait_for(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """Spawn `bash SCRIPT` the way the server scripts do, then wait until the process that
    carries the marker (only the exec'd program does) is alive."""
    (tmp_path / "server.sh").write_text(script)
    marker = str(tmp_path / "work")
    driver = f"""
set -euo pipefail
source {COMMON}
pid=$(hs_spawn {tmp_path}/server.log bash {tmp_path}/server.sh)
echo "$pid" >{tmp_path}/pid
hs_wait_until "the server" {tmp_path}/server.log "$pid" {marker} hs_pid_alive "$pid" {marker}
echo waited
"""
    env = {**os.environ, "HINDSIGHT_INFRA_DIR": str(tmp_path), "HINDSIGHT_START_TIMEOUT": "30",
           "HS_TEST_MARK": marker, "HS_TEST_PYTHON": sys.executable}
    try:
        return subprocess.run(["bash", "-c", driver], capture_output=True, text=True, env=env,
                              timeout=60)
    finally:
        pid = (tmp_path / "pid").read_text().strip() if (tmp_path / "pid").exists() else ""
        if pid:
            subprocess.run(["kill", "-KILL", pid], capture_output=True)


def test_a_process_that_has_not_exec_d_yet_is_waited_for(tmp_path: Path) -> None:
    # Alive for 1.5 s without the marker, then exec'd into a program that carries it.
    done = wait_for(tmp_path, 'sleep 1.5\nexec "$HS_TEST_PYTHON" -c '
                              '"import time; time.sleep(60)" "$HS_TEST_MARK"\n')
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "waited"


def test_a_process_that_exits_is_still_reported_at_once(tmp_path: Path) -> None:
    done = wait_for(tmp_path, 'echo "no such config" >&2\nexit 3\n')
    assert done.returncode == 1
    assert "did not come up: its process" in done.stderr
    assert "exited while waiting for the server" in done.stderr
    assert "no such config" in done.stderr, "the log's tail is shown"
