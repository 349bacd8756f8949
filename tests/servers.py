"""Where the real servers are, for tests that need them.

Order: the environment (``HINDSIGHT_*``, e.g. from ``. .infra/env``) → the env file
that ``deploy/local/infra.sh up`` wrote (``.infra/env``) → a container when a Docker
daemon answers (not on our machines) → otherwise the test FAILS with how to start
them. Never a silent skip: ``make test`` starts the servers itself.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV_FILE = Path(os.environ.get("HINDSIGHT_INFRA_DIR", ROOT / ".infra")) / "env"
_EXPORT = re.compile(r"^export\s+(HINDSIGHT_[A-Z0-9_]+)=(.*)$")


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


def server_url(variable: str, name: str) -> str:
    """The URL/DSN of a real server, or a test failure that says how to start it."""
    value = os.environ.get(variable) or _from_env_file().get(variable)
    if value:
        return value
    pytest.fail(
        f"{name} is needed and {variable} is not set: start the local servers with "
        "`make infra-up` (deploy/local/infra.sh up), which writes .infra/env, or point "
        f"{variable} at a running {name}.",
        pytrace=False,
    )
