"""schemathesis fuzzes a running ``hindsight serve`` against the published OpenAPI document
(schemas/openapi/v1.json) with every check on (but two, for two operations, that
tests/e2e/schemathesis.toml names with the reason): no 5xx, no status the document leaves out,
every answer matching its schema (errors in our shape), invalid input rejected. Bounded:
at least 1,000 requests, a few minutes at most. ``HINDSIGHT_FUZZ_EXAMPLES`` and
``HINDSIGHT_FUZZ_SEED`` make a longer or different run (the default seed is fixed, so a
failure reproduces)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import Server

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "schemas" / "openapi" / "v1.json"
CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
MIN_REQUESTS = 1000

pytestmark = pytest.mark.e2e


def test_the_http_api_holds_against_its_document_under_fuzzing(server: Server, tmp_path: Path) -> None:
    assert SCHEMATHESIS.exists(), f"{SCHEMATHESIS} is missing: `make install` installs it (the dev extra)"
    server.start()
    examples = os.environ.get("HINDSIGHT_FUZZ_EXAMPLES", "60")
    seed = os.environ.get("HINDSIGHT_FUZZ_SEED", "20261201")
    done = subprocess.run(
        [str(SCHEMATHESIS), "--no-color", "--config-file", str(CONFIG), "run", str(DOCUMENT),
         "--url", server.url, "--max-examples", examples, "--seed", seed,
         "--workers", "1", "--request-timeout", "30", "--output-sanitize", "false"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-6000:]
    generated = re.search(r"(\d+) generated", out)
    assert generated and int(generated.group(1)) >= MIN_REQUESTS, out[-3000:]
    # Every operation of the document was exercised.
    tested = re.search(r"Selected: (\d+)/(\d+)\s+Tested: (\d+)", out)
    assert tested and tested.group(1) == tested.group(2) == tested.group(3), out[-3000:]
