"""``bench locomo --url`` stops before ingesting when the gateway already holds the
conversations' users: an earlier run's copies, memories and access counts would be
measured with this run's (real embedded gateway over HTTP, real models)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hindsight_common.bench import locomo
from hindsight_common.errors import ConfigurationError
from hindsight_services.bench import TENANT, _refuse_earlier_data, _wait_caught_up

from tests.integration.conftest import App

DATA = Path(__file__).resolve().parents[1] / "data" / "locomo-mini.json"


async def test_a_gateway_holding_an_earlier_run_is_refused_with_the_users_named(app: App) -> None:
    conversations = locomo.load(DATA)
    await _refuse_earlier_data(app.client, conversations)  # nothing held yet: goes on
    [conv] = conversations
    turn = conv.turns[0]
    r = await app.client.post("/v1/interactions", json={"interactions": [{
        "tenant": TENANT, "user": conv.sample_id, "session": f"{conv.sample_id}-{turn.session}",
        "speaker": turn.speaker, "role": "user", "content": turn.text,
        "occurred_at": turn.occurred_at.isoformat(), "external_id": turn.dia_id}]})
    r.raise_for_status()
    await _wait_caught_up(app.client, timeout_s=30)  # until the turn is browsable
    with pytest.raises(ConfigurationError, match=f"user\\(s\\) {conv.sample_id} .*DELETE /v1/users"):
        await _refuse_earlier_data(app.client, conversations)
    # Another tenant's data is not this bench's: only tenant locomo-bench counts.
    other = await app.client.get("/v1/memories", params={"tenant": "elsewhere", "user": conv.sample_id,
                                                          "type": "episodic"})
    assert other.status_code == 200 and other.json()["items"] == []
