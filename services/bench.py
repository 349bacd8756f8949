"""``hindsight bench locomo``: ingest through the real ingest path, recall through
the real recall path (the HTTP app in-process), and print recall@k and latency."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from hindsight_common.bench import locomo
from hindsight_common.settings import Settings
from hindsight_services.embedded import EmbeddedRuntime, create_app

TENANT = "locomo-bench"


async def run_locomo(
    data: Path, ks: Sequence[int], data_dir: Path | None = None, reflect: bool = False
) -> dict[str, Any]:
    conversations = locomo.load(data)
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-") as tmp:
        settings = Settings(data_dir=data_dir or Path(tmp))
        app = create_app(settings)
        runtime: EmbeddedRuntime = app.state.runtime
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                for conv in conversations:
                    await _ingest(client, conv)
                    if reflect:
                        await _close_sessions(client, conv)
                await runtime.wait_caught_up(timeout_s=3600)
                memories = (await runtime.status())["log"].get("hindsight.memories.v1#0", 0)
                per_question, latencies = await _ask(client, conversations, max(ks))
    return {
        "questions": len(per_question),
        "reflect": reflect,
        "memory_events": memories if reflect else 0,
        "recall": locomo.summarise(per_question, ks),
        "latency_ms": {
            "p50": round(locomo.percentile(latencies, 50), 2),
            "p95": round(locomo.percentile(latencies, 95), 2),
        },
    }


async def _ingest(client: httpx.AsyncClient, conv: locomo.Conversation) -> None:
    batch: list[dict[str, Any]] = []
    for t in conv.turns:
        batch.append(
            {
                "tenant": TENANT,
                "user": conv.sample_id,
                "session": f"{conv.sample_id}-{t.session}",
                "speaker": t.speaker,
                "role": "user",
                "content": t.text,
                "occurred_at": t.occurred_at.isoformat(),
                "external_id": t.dia_id,
            }
        )
    for i in range(0, len(batch), 200):
        r = await client.post("/v1/interactions", json={"interactions": batch[i : i + 200]})
        r.raise_for_status()


async def _close_sessions(client: httpx.AsyncClient, conv: locomo.Conversation) -> None:
    for session in dict.fromkeys(t.session for t in conv.turns):
        r = await client.post(
            f"/v1/sessions/{conv.sample_id}-{session}:close", json={"tenant": TENANT, "user": conv.sample_id}
        )
        r.raise_for_status()


async def _ask(
    client: httpx.AsyncClient, conversations: Sequence[locomo.Conversation], k: int
) -> tuple[list[tuple[locomo.Question, list[list[str]]]], list[float]]:
    results: list[tuple[locomo.Question, list[list[str]]]] = []
    latencies: list[float] = []
    for conv in conversations:
        for q in conv.questions:
            started = time.perf_counter()
            r = await client.post(
                "/v1/recall", json={"tenant": TENANT, "user": conv.sample_id, "query": q.question, "k": k}
            )
            latencies.append((time.perf_counter() - started) * 1000)
            r.raise_for_status()
            items = r.json()["items"]
            results.append((q, [i["provenance"]["external_ids"] for i in items]))
    return results, latencies


def format_table(result: dict[str, Any]) -> str:
    names = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "all": "overall"}
    ks = list(result["recall"])
    lines = [f"LoCoMo retrieval: {result['questions']} questions"
             + (" (after reflection)" if result.get("reflect") else "")]
    lines.append(f"{'category':<16}" + "".join(f"{'R@' + k:>9}" for k in ks))
    for cat in (*locomo.CATEGORIES, "all"):
        lines.append(
            f"{cat + ' ' + names[cat]:<16}" + "".join(f"{result['recall'][k][cat]:>9.3f}" for k in ks)
        )
    lat = result["latency_ms"]
    lines.append(f"recall latency: p50 {lat['p50']:.1f} ms, p95 {lat['p95']:.1f} ms")
    return "\n".join(lines)


def print_result(result: dict[str, Any], as_json: bool) -> None:
    print(format_table(result))
    if as_json:
        print(json.dumps(result))
