"""``hindsight replay`` killed midway (SIGKILL) resumes from the position its new
versions recorded instead of starting over, and its vector process dies with it (real
processes, real bge-small-en)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hindsight_common.adapters.position_file import read_position
from hindsight_common.settings import Settings
from hindsight_services.bench_replay import fill_log

CLI = [sys.executable, "-m", "hindsight_services.cli"]
N = 200


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HINDSIGHT_")}
    # Small batches, and every text embedded (no cache): slow enough to be killed midway.
    env.update({"HINDSIGHT_EMBEDDING_CACHE": "false", "HINDSIGHT_REBUILD_BATCH": "20",
                "HINDSIGHT_MODEL_THREADS": "1",
                # The vectors in a process of their own at this size too.
                "HINDSIGHT_REBUILD_PROCESS_MIN_RECORDS": "0", **extra})
    return env


def _children(pid: int) -> list[int]:
    """Live processes whose parent is ``pid`` (Linux ``/proc``)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def test_a_replay_killed_midway_resumes_from_its_position(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    asyncio.run(fill_log(settings, N))
    replay = [*CLI, "replay", "--projection", "all", "--data-dir", str(settings.data_dir)]
    progress = settings.projections_dir / "vectors.v2" / "position.json"

    first = subprocess.Popen(replay, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    applied = 0
    while time.monotonic() < deadline and first.poll() is None:
        applied = sum(read_position(progress).values()) if progress.exists() else 0
        if applied >= 40:
            break
        time.sleep(0.05)
    assert first.poll() is None, f"the replay ended (exit {first.returncode}) before it could be killed"
    children = _children(first.pid)  # the process filling the vectors (rebuild/prefill.py)
    assert children, "the offline replay fills the vectors in a process of its own"
    first.send_signal(signal.SIGKILL)
    first.wait()
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{c}").exists() for c in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(Path(f"/proc/{c}").exists() for c in children), "the vector process outlived the replay"
    assert 40 <= applied < N
    recorded = json.loads((settings.projections_dir / "rebuild.json").read_text())
    assert recorded["targets"] == {"vector": 2, "text": 2, "graph": 2}

    second = subprocess.run(replay, env=_env(), capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    result = json.loads(second.stdout.strip().splitlines()[-1])
    assert result["resumed"] is True and result["versions"] == {"vector": 2, "text": 2, "graph": 2}
    assert result["resumed_from"] >= applied  # what the killed run had applied was kept ...
    assert result["applied"] <= N - applied  # ... and not applied again
    assert "lag" in second.stderr and "/s" in second.stderr  # the progress bar
    assert not (settings.projections_dir / "rebuild.json").exists()
    assert json.loads((settings.projections_dir / "versions.json").read_text())["vector"] == 2

    verify = subprocess.run([*CLI, "verify", "--data-dir", str(settings.data_dir), "--json"],
                            env=_env(HINDSIGHT_EMBEDDING_CACHE="true"), capture_output=True, text=True, timeout=600)
    assert verify.returncode == 0, verify.stdout + verify.stderr
