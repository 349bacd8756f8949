"""End to end: the real `hindsight` command, restarted, killed, rebuilt."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import uuid
from pathlib import Path
from typing import Any

from tests.e2e.conftest import CLI, Server

QUESTIONS = ["What pet did Ann adopt?", "Where is Ann's sister moving?", "what did Ann cook",
             "motorbike repair", "Which instrument is Ann learning?"]


def turns(n: int) -> list[dict[str, Any]]:
    facts = [
        "I adopted a greyhound called Pixel", "My sister is moving to Lisbon in June",
        "I cooked a mushroom risotto for dinner", "Tom spent the weekend repairing his motorbike",
        "I started learning the cello last month", "The pottery class made a blue vase",
    ]
    return [
        {"user": "ann", "session": f"s{i % 3}", "speaker": "Ann" if i % 2 == 0 else "Bot",
         "role": "user" if i % 2 == 0 else "assistant", "content": f"{facts[i % len(facts)]} (note {i})",
         "occurred_at": f"2024-05-{1 + i % 28:02d}T10:00:00Z", "external_id": f"m{i}"}
        for i in range(n)
    ]


def answers(server: Server) -> list[list[tuple[str, str]]]:
    with server.client() as hs:
        return [[(i.id, i.content) for i in hs.recall(q, user="ann", k=5).items] for q in QUESTIONS]


def episode_ids(server: Server) -> list[str]:
    with server.client() as hs:
        return sorted(i.id for i in hs.recall("note", user="ann", k=100, types=["episodic"]).items)


def retain(server: Server, batch: list[dict[str, Any]]) -> list[str]:
    """Record ``batch`` through the SDK; the ids of its events, once durable."""
    with server.client() as hs:
        events = hs.retain_many(batch).events
    assert len(events) == len(batch)
    return [e.event_id for e in events]


def same_answers_every_time(server: Server) -> None:
    """Recall counts what it returns and reranks with the counts, so asking twice may
    answer differently by design; these tests compare projections, so they stop counting."""
    server.env["HINDSIGHT_ACCESS_FLUSH_S"] = "0"


def test_restart_loses_nothing_and_deleted_projections_are_rebuilt(server: Server) -> None:
    same_answers_every_time(server)
    server.start()
    acked = retain(server, turns(60))
    server.wait_caught_up()
    before = answers(server)
    assert "greyhound" in before[0][0][1]

    server.stop()  # graceful restart
    server.start()
    assert answers(server) == before

    server.stop()
    shutil.rmtree(server.data_dir / "projections")
    server.start()
    server.wait_caught_up()
    assert answers(server) == before  # rebuilt from the log: identical results
    assert episode_ids(server) == sorted(acked)


def test_acknowledged_writes_survive_kill_9(server: Server) -> None:
    server.start()
    acked_ids = []
    for start in range(0, 40, 10):
        acked_ids += retain(server, turns(40)[start:start + 10])
    server.stop(signal.SIGKILL)  # no chance to flush anything
    server.start()
    server.wait_caught_up()
    assert episode_ids(server) == sorted(acked_ids)


def test_replay_command_rebuilds_identical_results(server: Server) -> None:
    same_answers_every_time(server)
    server.start()
    retain(server, turns(30))
    server.wait_caught_up()
    before = answers(server)

    # While it serves, replay asks the server to rebuild online, which needs an admin key.
    busy = subprocess.run([*CLI, "replay", "--data-dir", str(server.data_dir)], capture_output=True, text=True)
    assert busy.returncode == 2 and "refused the rebuild: 403" in busy.stderr and "'admin' scope" in busy.stderr

    server.stop()
    done = subprocess.run([*CLI, "replay", "--data-dir", str(server.data_dir)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["rebuilt"] == ["vector", "text", "graph"]
    server.start()
    assert answers(server) == before


def test_cli_ingest_and_recall(server: Server, tmp_path: Path) -> None:
    server.start()
    lines = tmp_path / "turns.jsonl"
    lines.write_text("\n".join(json.dumps(t) for t in turns(12)) + "\n")
    out = subprocess.run([*CLI, "ingest", str(lines), "--url", server.url], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "12 interactions recorded" in out.stdout
    server.wait_caught_up()
    rec = subprocess.run([*CLI, "recall", "greyhound", "--user", "ann", "-k", "2", "--url", server.url, "--json"],
                         capture_output=True, text=True)
    assert rec.returncode == 0, rec.stderr
    items = json.loads(rec.stdout)["items"]
    assert len(items) == 2 and all("greyhound" in i["content"] for i in items)
    fast = subprocess.run([*CLI, "recall", "greyhound", "--user", "ann", "-k", "1", "--url", server.url,
                           "--preset", "fast", "--explain", "--json"], capture_output=True, text=True)
    assert fast.returncode == 0, fast.stderr
    [item] = json.loads(fast.stdout)["items"]
    assert set(item["explain"]["paths"]) <= {"vector", "bm25", "bm25_context", "speaker"} and item["explain"]["paths"]
    admin = subprocess.run([*CLI, "recall", "greyhound", "--user", "ann", "--include", "forgotten",
                            "--url", server.url], capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != "HINDSIGHT_API_KEY"})
    assert admin.returncode == 1 and "403" in admin.stderr and "include" in admin.stderr

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"user": "ann", "session": "s", "speaker": "A", "content": ""}) + "\n")
    out = subprocess.run([*CLI, "ingest", str(bad), "--url", server.url], capture_output=True, text=True)
    assert out.returncode == 1 and "interactions.0.content" in out.stderr

    memory_id = str(uuid.uuid4())  # pinning records the event whether or not a memory has that id yet
    pin = subprocess.run([*CLI, "memories", "pin", memory_id, "--user", "ann", "--url", server.url],
                         capture_output=True, text=True)
    assert pin.returncode == 0 and f"pin of {memory_id} recorded" in pin.stdout, pin.stderr
    typo = subprocess.run([*CLI, "memories", "restore", "nope", "--user", "ann", "--url", server.url],
                          capture_output=True, text=True)
    assert typo.returncode == 1 and "422" in typo.stderr and "memory_id" in typo.stderr
    dry = subprocess.run([*CLI, "consolidate", "--dry-run", "--user", "ann", "--url", server.url],
                         capture_output=True, text=True)
    assert dry.returncode == 0 and "would forget 0 of 0 live memories" in dry.stdout, dry.stderr


def test_keys_made_beside_a_running_server_let_the_cli_in_until_revoked(server: Server, tmp_path: Path) -> None:
    server.env["HINDSIGHT_AUTH"] = "required"
    server.start()
    lines = tmp_path / "turns.jsonl"
    lines.write_text("\n".join(json.dumps(t) for t in turns(4)) + "\n")
    env = {k: v for k, v in os.environ.items() if k != "HINDSIGHT_API_KEY"}
    refused = subprocess.run([*CLI, "ingest", str(lines), "--url", server.url], capture_output=True, text=True,
                             env=env)
    assert refused.returncode == 1 and "401" in refused.stderr

    def keys(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([*CLI, "keys", "--data-dir", str(server.data_dir), *args], capture_output=True,
                              text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        return done

    key = keys("create", "--tenant", "default", "--scopes", "read,write").stdout.strip()
    with_key = {**env, "HINDSIGHT_API_KEY": key}
    out = subprocess.run([*CLI, "ingest", str(lines), "--url", server.url], capture_output=True, text=True,
                         env=with_key)
    assert out.returncode == 0 and "4 interactions recorded" in out.stdout, out.stderr
    recall = [*CLI, "recall", "greyhound", "--user", "ann", "--url", server.url, "--json"]
    found = subprocess.run(recall, capture_output=True, text=True, env=with_key)
    assert found.returncode == 0 and json.loads(found.stdout)["items"], found.stderr
    keys("revoke", key.split("_")[1])
    gone = subprocess.run(recall, capture_output=True, text=True, env=with_key)
    assert gone.returncode == 1 and "401" in gone.stderr and "revoked" in gone.stderr
    audit = subprocess.run([*CLI, "audit", "--data-dir", str(server.data_dir), "--tenant", "default"],
                           capture_output=True, text=True, env=env, timeout=60)
    actions = [json.loads(line)["action"] for line in audit.stdout.splitlines()]
    # the command's own actions in order; the server's (the writes and recalls, the revoked
    # key's refusal) as far as its background batches are out, by when they happened
    own = [a for a in actions if a.startswith("key.")]
    assert own == ["key.create", "key.revoke"], audit.stderr
    assert set(actions) - set(own) <= {"ingest", "recall", "auth.failed"}, actions


def test_cli_without_a_server_says_how_to_start_one() -> None:
    out = subprocess.run([*CLI, "recall", "x", "--url", "http://127.0.0.1:9"], capture_output=True, text=True)
    assert out.returncode == 2 and "hindsight serve" in out.stderr


def test_bench_locomo_prints_a_table_and_json(tmp_path: Path) -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "locomo-mini.json"
    out = subprocess.run([*CLI, "bench", "locomo", "--data", str(data), "--preset", "balanced,fast",
                          "--ablate", "cross_encoder,+graph,decay", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert "k counts turns" in lines[0]
    names = ["balanced", "fast", "balanced-no-cross_encoder", "balanced+graph", "balanced-no-decay"]
    assert [line.split()[0] for line in lines[2:7]] == names
    result = json.loads(lines[-1])
    assert result["questions"] == 6 and result["turns"] == 8
    assert [r["preset"] for r in result["rows"]] == names
    for row in result["rows"]:
        assert set(row["recall"]) == {"5", "10", "20"}
        assert set(row["recall"]["10"]) == {"1", "2", "3", "4", "all"}
        # 8 turns, k=10 turns: every evidence turn is retrieved
        assert row["recall"]["10"]["all"] == 1.0
        assert 0 < row["recall"]["5"]["all"] <= 1.0
        if row["cross_encoder_calls_reused"]:
            assert row["latency_ms"] is None  # no model time spent: no latency claimed
        else:
            assert row["latency_ms"]["p50"] > 0 and row["latency_ms"]["p95"] >= row["latency_ms"]["p50"]
    rows = {r["preset"]: r for r in result["rows"]}
    # The first row pays for its calls; decay applies after the cross-encoder: the same calls again.
    assert rows["balanced"]["cross_encoder_calls_reused"] == 0 and rows["fast"]["latency_ms"] is not None
    assert rows["balanced-no-decay"]["cross_encoder_calls_reused"] >= 6
    assert "reused" in lines[7] or any(line.startswith("reused:") for line in lines)
    assert "questions (balanced)" in out.stderr  # the progress line
    bad = subprocess.run([*CLI, "bench", "locomo", "--data", str(data), "--ablate", "nothing"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "no such stage to ablate: nothing" in bad.stderr
