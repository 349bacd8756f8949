"""``hindsight bench reflect`` scores every shipped set, the v5 held-out one included."""

from __future__ import annotations

import json

import pytest

from hindsight_services.cli import main


def test_bench_reflect_prints_every_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "reflect", "--json"]) == 0
    out = capsys.readouterr().out
    scores = json.loads(out.strip().splitlines()[-1])
    assert set(scores) == {"labelled", "held-out", "held-out-v2", "dev-v3", "held-out-v3",
                           "dev-v4", "held-out-v4", "dev-v5", "dev-v5b", "held-out-v5",
                           "dev-v6b", "held-out-v6"}
    assert scores["held-out-v3"]["utterances"] == 201 and scores["dev-v3"]["utterances"] == 328
    assert scores["held-out-v4"]["utterances"] == 208
    assert scores["held-out-v5"]["utterances"] == 220
    assert scores["held-out-v6"]["utterances"] == 220 and scores["dev-v6b"]["utterances"] == 200
    assert all(0.0 <= s["precision"] <= 1.0 and set(s["per_kind"]) >= {"fact", "preference"}
               for s in scores.values())
    assert "development data since" in out and "never used to change a rule" in out
