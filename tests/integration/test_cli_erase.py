"""``hindsight erase`` itself, against the real embedded gateway on a localhost port with
auth required: without a key, or with a key lacking the ``erase`` scope, it exits 1 and
says why on stderr; with one, it exits 0, prints the server's answer (keys destroyed, the
``SubjectErased`` event), and afterwards the user's turns are no longer recalled while
another user's are; erasing again destroys nothing more."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import Settings
from hindsight_services.cli import main
from tests.integration.test_client_sdk import Gateway
from tests.support.auth import store_keys

WRITER_TOKEN, WRITER = new_key("default", ["read", "write"], now())
ERASER_TOKEN, ERASER = new_key("default", ["erase"], now())


@pytest.fixture
def gateway(tmp_path: Path, embedder: Embedder) -> Iterator[Gateway]:
    settings = Settings(data_dir=tmp_path / "data", auth="required", rate_limit_per_s=0)
    store_keys(settings.credentials_path, WRITER, ERASER)
    gw = Gateway(settings.data_dir, embedder, settings)
    gw.start()
    yield gw
    gw.stop()


def recalled(client: httpx.Client, user: str) -> list[str]:
    r = client.post("/v1/recall", json={"user": user, "query": "what pet do I have", "k": 5})
    assert r.status_code == 200, r.text
    return [str(i["content"]) for i in r.json()["items"]]


def until(check: Any, what: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.1)


def erase(gateway: Gateway, user: str) -> list[str]:
    return ["erase", "--tenant", "default", "--user", user, "--reason", "user asked", "--url", gateway.url]


def test_the_erase_command_erases_one_user_through_the_server(
    gateway: Gateway, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with httpx.Client(base_url=gateway.url, timeout=30, headers={"authorization": f"Bearer {WRITER_TOKEN}"}) as client:
        turns = [{"user": u, "session": "s1", "speaker": u, "content": text, "occurred_at": "2024-05-01T10:00:00Z"}
                 for u, text in (("ann", "I have a grey cat called Pixel."), ("bob", "I have a dog called Rolo."))]
        assert client.post("/v1/interactions", json={"interactions": turns}).status_code == 201
        until(lambda: recalled(client, "ann") and recalled(client, "bob"), "the turns were never recalled")

        monkeypatch.delenv("HINDSIGHT_API_KEY", raising=False)
        assert main(erase(gateway, "ann")) == 1
        assert "401" in capsys.readouterr().err
        monkeypatch.setenv("HINDSIGHT_API_KEY", WRITER_TOKEN)  # read and write, no erase
        assert main(erase(gateway, "ann")) == 1
        refused = capsys.readouterr()
        assert "403" in refused.err and "erase" in refused.err and not refused.out
        assert any("Pixel" in c for c in recalled(client, "ann"))  # a refusal erased nothing

        monkeypatch.setenv("HINDSIGHT_API_KEY", ERASER_TOKEN)
        assert main(erase(gateway, "ann")) == 0
        answer = json.loads(capsys.readouterr().out)
        assert (answer["tenant"], answer["user"], answer["status"]) == ("default", "ann", "keys_destroyed")
        assert answer["keys_destroyed"] >= 1 and answer["event"]["event_id"]
        until(lambda: client.get("/v1/status").json()["caught_up"], "the projections never applied the erasure")
        assert recalled(client, "ann") == []
        assert any("Rolo" in c for c in recalled(client, "bob"))  # the other user is untouched

        assert main(erase(gateway, "ann")) == 0  # a retry: nothing left to destroy
        assert json.loads(capsys.readouterr().out)["keys_destroyed"] == 0
