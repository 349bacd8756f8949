"""A client generated from the published OpenAPI document (schemas/openapi/v1.json) by
openapi-python-client can call us: it records turns, replays a batch, recalls them, and
reads our errors as the document describes them."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Server

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "schemas" / "openapi" / "v1.json"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    assert GENERATOR.exists(), f"{GENERATOR} is missing: `make install` installs it (the dev extra)"
    out = tmp_path_factory.mktemp("generated")
    # The generator formats its output with ruff, found on PATH next to it in the venv.
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(DOCUMENT), "--meta", "none",
         "--output-path", str(out / "hindsight_generated")],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # A warning means part of the document could not be turned into code.
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("hindsight_generated")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m.startswith("hindsight_generated")]:
            del sys.modules[name]
        shutil.rmtree(out, ignore_errors=True)


def test_a_generated_client_records_replays_and_recalls(generated: Any, server: Server) -> None:
    ingest = importlib.import_module("hindsight_generated.api.ingest.record_interactions")
    recall = importlib.import_module("hindsight_generated.api.query.recall")
    status = importlib.import_module("hindsight_generated.api.default.status")
    models = importlib.import_module("hindsight_generated.models")
    server.start()

    body = models.IngestRequest(interactions=[
        models.InteractionIn(user="ines", session="s1", speaker="Ines",
                             content="I restore old sailing boats at the harbour on weekends."),
        models.InteractionIn(user="ines", session="s1", speaker="Ines",
                             content="My sister lives in Porto and teaches the cello."),
    ])
    with generated.Client(base_url=server.url, raise_on_unexpected_status=True, timeout=60) as client:
        first = ingest.sync_detailed(client=client, body=body, idempotency_key="batch-1")
        assert first.status_code == 201
        assert isinstance(first.parsed, models.IngestResponse)
        assert len(first.parsed.events) == 2 and first.parsed.replayed is False

        again = ingest.sync_detailed(client=client, body=body, idempotency_key="batch-1")
        assert again.status_code == 200 and again.parsed.replayed is True
        assert [e.event_id for e in again.parsed.events] == [e.event_id for e in first.parsed.events]

        deadline = time.monotonic() + 60
        while not status.sync(client=client)["caught_up"]:  # type: ignore[index]
            assert time.monotonic() < deadline, "never caught up"
            time.sleep(0.2)

        found = recall.sync_detailed(client=client, body=models.RecallIn(query="who repairs boats?", user="ines", k=1))
        assert found.status_code == 200
        assert isinstance(found.parsed, models.RecallOut)
        assert "sailing boats" in found.parsed.items[0].content

        refused = recall.sync_detailed(client=client, body=models.RecallIn(query="boats", user="ines", k=101))
        assert refused.status_code == 422
        assert isinstance(refused.parsed, models.ErrorOut)
        assert refused.parsed.error.code == "invalid_request"
        assert [p.field for p in refused.parsed.error.problems] == ["k"]
