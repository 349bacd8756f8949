"""``hindsight keys create|list|revoke`` on a data directory, and a gateway that reads the
same store: a created key is let in, a revoked one is refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hindsight_common.ports.embedder import Embedder
from hindsight_common.security.credentials import KEY_PREFIX, key_id_of
from hindsight_common.settings import Settings
from hindsight_services.cli import main
from tests.integration.conftest import running


def keys(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> tuple[int, str, str]:
    code = main(["keys", "--data-dir", str(data_dir), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_create_prints_only_the_key_list_never_shows_it_revoke_ends_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = keys(capsys, tmp_path, "create", "--tenant", "acme", "--scopes", "read,write", "--name", "bot")
    assert code == 0
    key = out.strip()
    assert out == key + "\n" and key.startswith(KEY_PREFIX)  # the key and nothing else on stdout
    key_id = key_id_of(key)
    assert key_id is not None and key_id in err and key not in err

    code, out, _ = keys(capsys, tmp_path, "create", "--tenant", "globex", "--scopes", "admin")
    other_id = key_id_of(out.strip())

    code, out, _ = keys(capsys, tmp_path, "list", "--json")
    listed = [json.loads(line) for line in out.splitlines()]
    assert [k["key_id"] for k in listed] == [key_id, other_id]
    assert listed[0] == {**listed[0], "tenant": "acme", "scopes": ["read", "write"], "name": "bot",
                         "revoked_at": None}
    assert key.split("_", 2)[2] not in out  # never the secret
    code, out, _ = keys(capsys, tmp_path, "list", "--tenant", "globex")
    assert code == 0 and other_id in out and key_id not in out

    code, _, err = keys(capsys, tmp_path, "revoke", str(key_id))
    assert code == 0 and key_id in err
    code, out, _ = keys(capsys, tmp_path, "list", "--tenant", "acme")
    assert "revoked" in out


@pytest.mark.parametrize("args, says", [
    (["create", "--tenant", "acme", "--scopes", "read,root"], "root"),
    (["create", "--tenant", "a/b", "--scopes", "read"], "tenant"),
    (["revoke", "0123456789ab"], "no API key 0123456789ab"),
])
def test_bad_input_is_refused_with_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    code, out, err = keys(capsys, tmp_path, *args)
    assert code == 2 and out == "" and says in err


async def test_a_running_gateway_sees_keys_the_command_creates_and_revokes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], embedder: Embedder
) -> None:
    settings = Settings(data_dir=tmp_path / "data", auth="required")
    async with running(settings, embedder) as app:
        assert (await app.client.get("/v1/status")).status_code == 401
        # the command runs beside the server, as `hindsight keys` beside `hindsight serve`
        code, out, _ = await asyncio.to_thread(keys, capsys, settings.data_dir, "create", "--tenant", "acme",
                                        "--scopes", "read")
        key = out.strip()
        headers = {"authorization": f"Bearer {key}"}
        assert (await app.client.get("/v1/status", headers=headers)).status_code == 200
        await asyncio.to_thread(keys, capsys, settings.data_dir, "revoke", str(key_id_of(key)))
        r = await app.client.get("/v1/status", headers=headers)
        assert r.status_code == 401 and "revoked" in r.json()["error"]["message"]
