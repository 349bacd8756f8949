"""``hindsight bench auth`` runs end to end on a few calls and prints its four figures."""

from __future__ import annotations

import pytest

from hindsight_services.cli import main


def test_the_auth_bench_prints_each_measurement(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HINDSIGHT_LOG_BACKEND", raising=False)
    assert main(["bench", "auth", "--n", "5"]) == 0
    out = capsys.readouterr().out
    for name in ("api key (sqlite store)", "jwt (RS256, JWKS file)", "GET /v1/memories, auth off",
                 "GET /v1/memories, auth required"):
        assert name in out
