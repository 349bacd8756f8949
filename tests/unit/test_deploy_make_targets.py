"""The Makefile targets a platform engineer runs, and deploy/local/cluster.sh's bookkeeping.

Starting the six services for real is what tests/e2e/test_cluster.py does; here the script's
guards are checked: it refuses to start without the servers' addresses, reports what runs,
and never takes (or stops) a process that is not one of its services because a pid file
names it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CLUSTER = ROOT / "deploy" / "local" / "cluster.sh"
SERVICES = ("ingest", "embed", "project", "reflect", "consolidate", "query")


def make(*args: str) -> subprocess.CompletedProcess[str]:
    # -o: never rebuild .venv from inside a test; the suite runs in it already.
    return subprocess.run(["make", "-s", "-o", ".venv/.installed", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(("target", "expected"), [
    ("cluster-up", "deploy/local/cluster.sh up"),
    ("cluster-down", "deploy/local/cluster.sh down"),
    ("replay ARGS=--data-dir=/tmp/x", ".venv/bin/hindsight replay --data-dir=/tmp/x"),
    ("verify", ".venv/bin/hindsight verify"),
    ("bench", ".venv/bin/hindsight bench recall"),
    ("bench BENCH=security", ".venv/bin/hindsight bench security"),
    ("k8s-validate", "deploy/validate/deploy_check.py check"),
    ("lint", "deploy/validate/deploy_check.py check"),
])
def test_make_target_runs(target: str, expected: str) -> None:
    done = make("-n", *target.split())
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout


def test_make_k8s_render_prints_the_dev_overlay() -> None:
    done = make("k8s-render")
    assert done.returncode == 0, done.stderr
    objects = [d for d in yaml.safe_load_all(done.stdout) if d]
    assert {o["metadata"].get("namespace") for o in objects} == {"hindsight-dev"}
    assert {o["metadata"]["name"] for o in objects if o["kind"] == "Deployment"} == \
        {f"hindsight-{s}" for s in SERVICES}


def cluster(infra: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HINDSIGHT_INFRA_DIR": str(infra), "CLUSTER_PORT_BASE": "1"}
    return subprocess.run(["bash", str(CLUSTER), *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_cluster_up_needs_the_servers_addresses(tmp_path: Path) -> None:
    done = cluster(tmp_path, "up")
    assert done.returncode == 1
    assert f"{tmp_path}/env missing (run `make infra-up`)" in done.stderr
    assert not (tmp_path / "cluster").exists(), "nothing started"


def test_cluster_status_reports_each_service_stopped(tmp_path: Path) -> None:
    done = cluster(tmp_path, "status")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{s}: stopped, port {port}" for s, port in zip(SERVICES, (2, 3, 4, 5, 6, 1))]


def test_a_pid_file_naming_another_process_is_not_taken_for_a_service(tmp_path: Path) -> None:
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (tmp_path / "cluster").mkdir()
        (tmp_path / "cluster" / "ingest.pid").write_text(str(other.pid))
        assert cluster(tmp_path, "status").stdout.splitlines()[0] == "ingest: stopped, port 2"
        done = cluster(tmp_path, "down")
        assert done.returncode == 0, done.stderr
        assert other.poll() is None, "down must not signal a process that is not its own"
        assert not (tmp_path / "cluster" / "ingest.pid").exists()
    finally:
        other.kill()
        other.wait()
