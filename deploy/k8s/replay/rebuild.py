"""Rebuild one projection from the log into a new version, then stop (the rebuild Job).

``python rebuild.py embed|project`` runs ``hindsight run <service>`` as a child process
with this process's environment, in which the Job points the projection at a NEW version
(another Qdrant or Elasticsearch alias, another Neo4j namespace: see
deploy/k8s/README.md, "Rebuild a projection"). A projection that holds nothing makes its
consumer start at the beginning of the log, so the child replays every event into it.

The target is the log's head when this starts. Once the child's consumer has applied
every record up to it (the child's GET /v1/status), the child is stopped and this exits
0. Records appended meanwhile are applied by the live worker, which resumes from the
position stored in the new version once it runs against it. If the child dies first
this exits 1; the Job retries, and the retry resumes from what the new version holds.

It swaps nothing: moving the aliases (and the Neo4j namespace in the ConfigMap) is a
manual step. Standard library and Hindsight only: it runs in the Hindsight image.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from typing import Any

SERVICES = ("embed", "project")
POLL_S = 5.0
PROGRESS_EVERY_S = 30.0
STOP_TIMEOUT_S = 60.0


def say(**fields: Any) -> None:
    print(json.dumps({"rebuild": fields}), flush=True)


def remaining(position: Mapping[str, int], target: Mapping[str, int]) -> int:
    """Records of ``target`` not applied yet, at most (offsets may have gaps). Positions
    map ``stream#partition`` to the last offset applied (absent: nothing applied);
    ``target`` to the last offset there is. 0 exactly when ``target`` is applied."""
    return sum(max(0, offset - position.get(key, -1)) for key, offset in target.items())


def streams_of(service: str) -> tuple[str, ...]:
    """The streams the service's consumer reads (its wiring's, so they cannot drift)."""
    if service == "embed":
        from hindsight_services.embed.wiring import STREAMS
    else:
        from hindsight_services.project.wiring import STREAMS
    return tuple(STREAMS)


async def log_heads(streams: Sequence[str]) -> dict[str, int]:
    """The last offset of every partition of ``streams`` now, from the configured log."""
    from hindsight_common.factory import make_log
    from hindsight_common.settings import load_settings

    log = make_log(load_settings())
    try:
        heads: dict[str, int] = {}
        for stream in streams:
            heads.update(await log.head(stream))
        return heads
    finally:
        await log.close()


def read_position(port: int) -> dict[str, int] | None:
    """The child's consumer position, or None while it does not answer yet."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/status", timeout=5) as r:
            body = json.load(r)
        return {str(k): int(v) for k, v in body["position"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # not started yet (connection refused, 5xx), or an unexpected body


def wait_caught_up(
    child: subprocess.Popen[bytes],
    target: Mapping[str, int],
    read: Callable[[], Mapping[str, int] | None],
    *,
    poll_s: float = POLL_S,
    progress_every_s: float = PROGRESS_EVERY_S,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """True once ``read()`` shows every record of ``target`` applied; False if the
    child exits first. Reports progress every ``progress_every_s``."""
    total = remaining({}, target)
    last_report = float("-inf")
    while child.poll() is None:
        position = read()
        if position is not None:
            left = remaining(position, target)
            if left == 0:
                return True
            if clock() - last_report >= progress_every_s:
                done = total - left
                say(applied=done, of=total, percent=round(100 * done / total, 1) if total else 100.0)
                last_report = clock()
        sleep(poll_s)
    return False


def stop(child: subprocess.Popen[bytes]) -> None:
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] not in SERVICES:
        print(f"usage: rebuild.py {'|'.join(SERVICES)}", file=sys.stderr)
        return 2
    service = args[0]
    from hindsight_common.settings import load_settings

    settings = load_settings()
    target = asyncio.run(log_heads(streams_of(service)))
    say(service=service, target=target, records=remaining({}, target))
    child = subprocess.Popen([sys.executable, "-m", "hindsight_services.cli", "run", service])
    # Kubernetes stops the pod with SIGTERM: pass it on; the loop then sees the child gone.
    signal.signal(signal.SIGTERM, lambda *_: child.terminate())
    try:
        caught_up = wait_caught_up(child, target, lambda: read_position(settings.port))
    finally:
        stop(child)
    if caught_up:
        say(service=service, caught_up=True, target=target)
        return 0
    say(service=service, caught_up=False, child_exit=child.returncode)
    return 1


if __name__ == "__main__":
    sys.exit(main())
