"""``hindsight bench locomo``: ingest through the real ingest path, recall through the
real recall path (the HTTP API: the app in-process, or a running gateway with
``--url``), and print recall@k (k counting turns) and latency per preset.

Questions are independent: access recording is off (in-process; a gateway given with
``--url`` should run with ``HINDSIGHT_ACCESS_FLUSH_S=0``), and every question is asked
with ``reference_time`` just after its conversation's last session.

In-process, the rows share one cross-encoder behind an exact memo (:class:`MemoReranker`):
a row that sends the cross-encoder the very call an earlier row sent (same query, same
passages in the same order: an ablated rerank factor applies after it) reuses those
scores, so an ablation table costs a cross-encoder pass only for the rows that change
its input. The rankings are what a fresh call gives (the call is deterministic); the
latency of such a row is not a measurement and is reported as null, with the count of
reused calls.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from hindsight_common.bench import locomo
from hindsight_common.errors import ConfigurationError
from hindsight_common.factory import make_reranker
from hindsight_common.ports.reranker import Reranker
from hindsight_common.recall.presets import PRESETS, Preset, ablations, preset
from hindsight_common.settings import Settings
from hindsight_services.auth import api_key_headers
from hindsight_services.embedded import create_app

TENANT = "locomo-bench"
BATCH = 200


class Progress:
    """One line on stderr: done/total, rate and ETA (redrawn on a terminal, else every 10%)."""

    def __init__(self, what: str, total: int) -> None:
        self._what, self._total, self._done = what, max(total, 1), 0
        self._started = time.perf_counter()
        self._tty = sys.stderr.isatty()
        self._next_note = 0.1

    def advance(self, n: int = 1, *, total: int | None = None, note: str = "") -> None:
        """``total``: a new total (a rebuild's grows while writes go on); ``note``: shown after the ETA."""
        self._done += n
        if total is not None:
            self._total = max(total, 1)
        fraction = self._done / self._total
        if not self._tty and fraction < self._next_note and self._done < self._total:
            return
        self._next_note = fraction + 0.1
        elapsed = max(time.perf_counter() - self._started, 1e-9)
        rate = self._done / elapsed
        eta = (self._total - self._done) / rate if rate else 0.0
        line = f"{self._what}: {self._done}/{self._total} ({rate:.0f}/s, ETA {eta:.0f}s{note})"
        print(("\r" + line) if self._tty else line, end="" if self._tty else "\n", file=sys.stderr, flush=True)
        if self._tty and self._done >= self._total:
            print(file=sys.stderr)


def bench_presets(names: Sequence[str], ablate: str | None) -> dict[str, Preset]:
    """The presets to measure: those named, plus the first one's ablations (``"all"``,
    or a comma-separated choice of stages: ``speaker`` for ``<base>-no-speaker``,
    ``+graph`` for ``<base>+graph``)."""
    chosen = {name: preset(name) for name in names}
    if ablate and names:
        base = names[0]
        variants = ablations(chosen[base])
        if ablate != "all":
            wanted = [s.strip() for s in ablate.split(",") if s.strip()]
            names_of = {s: f"{base}{s}" if s.startswith("+") else f"{base}-no-{s}" for s in wanted}
            unknown = [s for s, n in names_of.items() if n not in variants]
            if unknown:
                known = ", ".join(n[len(base):].removeprefix("-no-") for n in variants)
                raise ConfigurationError(f"no such stage to ablate: {', '.join(unknown)}; one of {known}")
            variants = {n: variants[n] for n in names_of.values()}
        chosen.update(variants)
    return chosen


class MemoReranker(Reranker):
    """A reranker that answers a call it has answered before (the same query and the
    same passages in the same order) with the scores it gave then. Exact: int8 scores
    depend on which passages share a batch, and the same call makes the same batches.
    ``reused`` counts the calls answered from the memo."""

    def __init__(self, inner: Reranker) -> None:
        self._inner = inner
        self._memo: dict[tuple[str, tuple[str, ...]], list[float]] = {}
        self.reused = 0

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    def load(self) -> None:
        self._inner.load()

    async def score(self, query: str, passages: Sequence[str]) -> list[float]:
        key = (query, tuple(passages))
        if key in self._memo:
            self.reused += 1
            return list(self._memo[key])
        scores = await self._inner.score(query, passages)
        self._memo[key] = list(scores)
        return scores


IDLE_PASS_OFF_S = 10.0**9  # reflection's idle pass, in the bench's runtime: never


def bench_settings(data_dir: Path) -> Settings:
    """The in-process runtime's settings: access counts never flushed (questions are
    independent), and reflection's idle pass off. That pass is a wall-clock timer (a
    session idle for ``reflect_idle_s``, 10 minutes): it fired in the middle of a run,
    so the rows asked after it saw memories the rows before it did not. Without it,
    every memory reflection makes comes from ingest (every ``reflect_every_n_turns``
    turns of a session) or, with ``--reflect``, from closing the sessions, and is
    recallable before the first question."""
    return Settings(data_dir=data_dir, access_flush_s=0, reflect_idle_s=IDLE_PASS_OFF_S)


@asynccontextmanager
async def _client(
    url: str | None, presets: Mapping[str, Preset], reranker: Reranker | None = None,
) -> AsyncIterator[httpx.AsyncClient]:
    if url:
        async with httpx.AsyncClient(base_url=url, timeout=120, headers=api_key_headers()) as client:
            yield client
        return
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-") as tmp:
        app = create_app(bench_settings(Path(tmp)), reranker=reranker, presets={**PRESETS, **presets})
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench",
                                         timeout=600) as client:
                yield client


async def run_locomo(
    data: Path, ks: Sequence[int], presets: Sequence[str] = ("balanced",), *, reflect: bool = False,
    ablate: str | None = None, url: str | None = None,
) -> dict[str, Any]:
    """Ingest ``data``, then ask every scored question once per preset (and ablation)."""
    conversations = locomo.load(data)
    chosen = bench_presets(presets, ablate)
    if url and any(name not in PRESETS for name in chosen):
        raise ConfigurationError("--ablate needs the in-process runtime (its variants are not "
                                 "presets a gateway knows); leave out --url")
    k = max(ks)
    inner = None if url or len(chosen) < 2 else make_reranker(Settings())
    memo = MemoReranker(inner) if inner is not None else None
    async with _client(url, chosen, memo) as client:
        if url:
            await _refuse_earlier_data(client, conversations)
        progress = Progress("ingest turns", sum(len(c.turns) for c in conversations))
        for conv in conversations:
            await _ingest(client, conv, progress)
            if reflect:
                await _close_sessions(client, conv)
        status = await _wait_caught_up(client, timeout_s=3600)
        rows = []
        for name in chosen:
            reused = memo.reused if memo is not None else 0
            per_question, latencies = await _ask(client, conversations, name, k)
            reused = (memo.reused if memo is not None else 0) - reused
            rows.append({
                "preset": name,
                "recall": locomo.summarise(per_question, ks),
                # Scores reused from an earlier row took no model time: no latency to report.
                "latency_ms": None if reused else {"p50": round(locomo.percentile(latencies, 50), 1),
                                                   "p95": round(locomo.percentile(latencies, 95), 1)},
                "cross_encoder_calls_reused": reused,
            })
            # Long runs (ablations): every finished row is kept, even if the run stops.
            print(f"measured: {json.dumps(rows[-1])}", file=sys.stderr, flush=True)
    return {
        "questions": sum(len(c.questions) for c in conversations),
        "turns": sum(len(c.turns) for c in conversations),
        "reflect": reflect,
        "mode": f"gateway at {url}" if url else "embedded",
        "memory_events": _memory_events(status),
        "rows": rows,
    }


def _memory_events(status: Mapping[str, Any]) -> int:
    """Events on the memories stream (reflection's output), whatever the flags asked."""
    heads: Mapping[str, int] = status.get("log", {})
    return sum(offset for key, offset in heads.items() if "memories.v1" in key)


async def _wait_caught_up(client: httpx.AsyncClient, timeout_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        status: dict[str, Any] = (await client.get("/v1/status")).json()
        if status.get("caught_up"):
            return status
        if time.monotonic() > deadline:
            raise TimeoutError(f"projections not caught up after {timeout_s:.0f}s")
        await asyncio.sleep(0.2)


async def _refuse_earlier_data(client: httpx.AsyncClient, conversations: Sequence[locomo.Conversation]) -> None:
    """Stop before ingesting when the gateway already holds turns of a conversation's user
    (an earlier run): its copies, memories and access counts would be measured too (a
    gateway kept since earlier runs gave R@10 0.776 where a fresh one gave 0.791)."""
    held = []
    for conv in conversations:
        r = await client.get("/v1/memories", params={"tenant": TENANT, "user": conv.sample_id,
                                                     "type": ["episodic", "semantic", "summary"], "limit": 1})
        r.raise_for_status()
        if r.json()["items"]:
            held.append(conv.sample_id)
    if held:
        raise ConfigurationError(
            f"the gateway already holds memories of tenant {TENANT!r}, user(s) {', '.join(held)} (an earlier "
            f"run?); recall would be measured over them too. Erase those users first (DELETE "
            f"/v1/users/{{user}}?tenant={TENANT}, a key with the erase scope) or use a fresh cluster.")


async def _ingest(client: httpx.AsyncClient, conv: locomo.Conversation, progress: Progress) -> None:
    batch = [
        {"tenant": TENANT, "user": conv.sample_id, "session": f"{conv.sample_id}-{t.session}",
         "speaker": t.speaker, "role": "user", "content": t.text,
         "occurred_at": t.occurred_at.isoformat(), "external_id": t.dia_id}
        for t in conv.turns
    ]
    for i in range(0, len(batch), BATCH):
        part = batch[i : i + BATCH]
        # A key per batch: running the bench again against the same gateway adds nothing.
        r = await client.post("/v1/interactions", json={"interactions": part},
                              headers={"Idempotency-Key": f"locomo-{conv.sample_id}-{i}"})
        r.raise_for_status()
        progress.advance(len(part))


async def _close_sessions(client: httpx.AsyncClient, conv: locomo.Conversation) -> None:
    for session in dict.fromkeys(t.session for t in conv.turns):
        r = await client.post(
            f"/v1/sessions/{conv.sample_id}-{session}:close", json={"tenant": TENANT, "user": conv.sample_id}
        )
        r.raise_for_status()


async def _ask(
    client: httpx.AsyncClient, conversations: Sequence[locomo.Conversation], preset_name: str, k: int
) -> tuple[list[tuple[locomo.Question, list[list[str]]]], list[float]]:
    results: list[tuple[locomo.Question, list[list[str]]]] = []
    latencies: list[float] = []
    progress = Progress(f"questions ({preset_name})", sum(len(c.questions) for c in conversations))
    for conv in conversations:
        reference = conv.reference_time.isoformat()
        for q in conv.questions:
            body = {"tenant": TENANT, "user": conv.sample_id, "query": q.question, "k": k,
                    "preset": preset_name, "reference_time": reference}
            started = time.perf_counter()
            r = await client.post("/v1/recall", json=body)
            latencies.append((time.perf_counter() - started) * 1000)
            r.raise_for_status()
            results.append((q, [i["provenance"]["external_ids"] for i in r.json()["items"]]))
            progress.advance()
    return results, latencies


_NAMES = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop"}


def format_table(result: Mapping[str, Any]) -> str:
    rows = result["rows"]
    ks = list(rows[0]["recall"]) if rows else []
    lines = [f"LoCoMo turn-level evidence recall ({result['mode']}): {result['questions']} questions over "
             f"{result['turns']} turns; k counts turns"
             + ("; after reflection" if result["reflect"] else "")
             + f"; memory events produced: {result['memory_events']}"]
    k10 = "10" if "10" in ks else ks[-1] if ks else ""
    header = (f"{'preset':<32}" + "".join(f"{'R@' + k:>8}" for k in ks)
              + "".join(f"{f'R@{k10} ' + c:>10}" for c in locomo.CATEGORIES) + f"{'p50 ms':>9}{'p95 ms':>9}")
    lines.append(header)
    for row in rows:
        r = row["recall"]
        lines.append(f"{row['preset']:<32}" + "".join(f"{r[k]['all']:>8.3f}" for k in ks)
                     + "".join(f"{r[k10][c]:>10.3f}" for c in locomo.CATEGORIES)
                     + (f"{row['latency_ms']['p50']:>9.1f}{row['latency_ms']['p95']:>9.1f}" if row["latency_ms"]
                        else f"{'reused':>9}{'':>9}"))
    lines.append("categories: " + ", ".join(f"{c} {n}" for c, n in _NAMES.items()))
    if any(not row["latency_ms"] for row in rows):
        lines.append("reused: the row's cross-encoder calls were an earlier row's, answered from the"
                     " exact memo; its latency is not measured")
    return "\n".join(lines)


def print_result(result: Mapping[str, Any], as_json: bool) -> None:
    print(format_table(result))
    if as_json:
        print(json.dumps(result))
