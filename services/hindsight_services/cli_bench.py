"""``hindsight bench ...``: each benchmark's arguments checked, then its module run
(imported on use, so the rest of the command line starts without them)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from hindsight_common.settings import load_settings


def run_bench(args: argparse.Namespace) -> int:
    if args.bench == "locomo":
        return asyncio.run(_bench_locomo(args))
    if args.bench == "recall":
        return asyncio.run(_bench_recall(args))
    if args.bench == "vectors":
        from hindsight_services.bench_vectors import (
            print_vector_bench,
            run_vector_bench,
        )

        ks = sorted(set(_sizes(args.k)))
        if args.queries < 1:
            raise SystemExit("hindsight: --queries takes a positive number")
        result = asyncio.run(run_vector_bench(args.data_dir, args.queries, ks))
        if args.json:
            print(json.dumps(result))
        else:
            print_vector_bench(result)
        return 0
    if args.bench == "perf":
        return asyncio.run(_bench_perf(args))
    if args.bench == "ingest":
        from hindsight_services.bench_ingest import print_ingest_bench, run_ingest_bench

        if min(args.batches, args.batch, args.clients) < 1:
            raise SystemExit("hindsight: --batches, --batch and --clients take positive numbers")
        print_ingest_bench(asyncio.run(run_ingest_bench(args.batches, args.batch, args.clients)), args.json)
        return 0
    if args.bench == "auth":
        from hindsight_services.bench_auth import print_auth_bench, run_auth_bench

        print_auth_bench(asyncio.run(run_auth_bench(args.n)), args.json)
        return 0
    if args.bench == "consolidate":
        return asyncio.run(_bench_consolidate(args))
    if args.bench == "replay":
        return asyncio.run(_bench_replay(args))
    if args.bench == "reflect":
        return _bench_reflect(args)
    if args.bench == "security":
        return _bench_security(args)
    if args.bench == "screening":
        return _bench_screening(args)
    raise SystemExit(f"hindsight: unknown benchmark {args.bench!r}")


async def _bench_locomo(args: argparse.Namespace) -> int:
    from hindsight_services.bench import print_result, run_locomo

    ks = [int(k) for k in args.k.split(",") if k.strip()]
    if not ks or min(ks) < 1 or max(ks) > 100:
        raise SystemExit("hindsight: --k takes cut-offs between 1 and 100, e.g. 5,10,20")
    if not args.data.is_file():
        raise SystemExit(f"hindsight: no LoCoMo file at {args.data}")
    presets = [n.strip() for n in args.preset.split(",") if n.strip()]
    result = await run_locomo(args.data, ks, presets, reflect=args.reflect, ablate=args.ablate, url=args.url)
    print_result(result, args.json)
    return 0


async def _bench_recall(args: argparse.Namespace) -> int:
    from hindsight_services.bench_recall import (
        preset_names,
        print_recall_bench,
        run_recall_bench,
    )

    sizes = _sizes(args.n)
    if args.url and args.data_dir:
        raise SystemExit("hindsight: --data-dir applies to the embedded bench, not with --url")
    rows = await run_recall_bench(sizes, preset_names(args.presets), args.queries, args.url, args.data_dir)
    print_recall_bench(rows, "gateway at " + args.url if args.url else "embedded", args.json)
    return 0


def _bench_screening(args: argparse.Namespace) -> int:
    from hindsight_services import bench_screening as bench

    settings = load_settings()
    if args.locomo:
        from hindsight_common.bench.locomo import load

        texts = [t.text for conversation in load(args.locomo) for t in conversation.turns]
        for line in bench.ordinary_lines(texts, settings):
            print(line)
        return 0
    samples = bench.corpus(args.corpus, args.blind)
    if args.cv and len({s.part for s in samples}) < 2:
        print("--cv needs a corpus of at least two parts (a blind part is one)", file=sys.stderr)
        return 2
    cv = bench.cross_validation(samples, settings) if args.cv else None
    if args.embedded:
        result = asyncio.run(bench.run_embedded(samples, screening=not args.no_screening))
        bench.print_screening_bench(result, "embedded server, HTTP ingest", args.json, cv=cv)
    else:
        rules_per_s = bench.rules_throughput(samples, settings)  # first: it also compiles the rules' patterns
        bench.print_screening_bench(bench.run_classifier(samples, settings), "classifier", args.json, rules_per_s, cv)
    return 0


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(n) for n in text.split(",") if n.strip()]
    except ValueError:
        raise SystemExit(f"hindsight: sizes are comma-separated whole numbers, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise SystemExit(f"hindsight: sizes must be at least 1, got {text!r}")
    return sizes


async def _bench_perf(args: argparse.Namespace) -> int:
    from hindsight_services.bench_perf import (
        Plan,
        default_log_dir,
        parse_pids,
        print_perf,
        run_perf_bench,
    )

    plan = Plan.quick() if args.quick else Plan.full(_sizes(args.sizes))
    result = await run_perf_bench(args.url, parse_pids(args.pid), plan, default_log_dir(), args.tenant)
    print_perf(result, args.json)
    return 0


async def _bench_consolidate(args: argparse.Namespace) -> int:
    from hindsight_services.bench_consolidate import (
        print_consolidate_bench,
        run_consolidate_bench,
    )

    if args.n < 1:
        raise SystemExit("hindsight: --n must be at least 1")
    print_consolidate_bench(await run_consolidate_bench(args.n, args.seed), args.json)
    return 0


async def _bench_replay(args: argparse.Namespace) -> int:
    from hindsight_services.bench_replay import print_replay_bench, run_replay_bench

    if args.n < 1:
        raise SystemExit("hindsight: --n takes a positive number of turns")
    print_replay_bench(await run_replay_bench(args.n), args.n, args.json)
    return 0


def _bench_reflect(args: argparse.Namespace) -> int:
    from importlib.resources import files

    from hindsight_common.reflection.evaluation import (
        DEV_V3_SET,
        DEV_V4_SET,
        DEV_V5_SET,
        DEV_V5B_SET,
        DEV_V6B_SET,
        HELD_OUT_SET,
        HELD_OUT_V2_SET,
        HELD_OUT_V3_SET,
        HELD_OUT_V4_SET,
        HELD_OUT_V5_SET,
        HELD_OUT_V6_SET,
        evaluate,
    )

    named = {
        "held-out (written after the rules froze)": HELD_OUT_SET,
        "held-out-v2 (blind once; its misses were published, so no longer blind)": HELD_OUT_V2_SET,
        "dev-v3 (the v3 rules were iterated on it)": DEV_V3_SET,
        "held-out-v3 (blind once, before the v3 rules; development data since)": HELD_OUT_V3_SET,
        "dev-v4 (the precision round was iterated on it)": DEV_V4_SET,
        "held-out-v4 (blind once, before the precision round; development data since)":
            HELD_OUT_V4_SET,
        "dev-v5 (the fifth round was iterated on it)": DEV_V5_SET,
        "dev-v5b (written by a helper blind to the rules; the fifth round was iterated on it)":
            DEV_V5B_SET,
        "held-out-v5 (blind once, before the fifth round; development data since)":
            HELD_OUT_V5_SET,
        "dev-v6b (written by a helper blind to the rules; the sixth round was iterated on it)":
            DEV_V6B_SET,
        "held-out-v6 (committed before the sixth round, never used to change a rule)":
            HELD_OUT_V6_SET,
    }
    shipped = files("hindsight_common.reflection")
    sets: dict[str, str | None] = {"labelled (rules written against it)": None}
    sets.update({name: str(shipped.joinpath(file)) for name, file in named.items()})
    out = {}
    for name, path in sets.items():
        score = evaluate(path)
        out[name.split(" ")[0]] = {
            "utterances": score.utterances,
            "precision": round(score.precision, 3),
            "recall": round(score.recall, 3),
            "f1": round(score.f1, 3),
            "per_kind": {
                k.kind: {"precision": round(k.precision, 3), "recall": round(k.recall, 3)}
                for k in score.per_kind
            },
        }
        print(f"{name}: {score.utterances} utterances, {score.expected} expected memories")
        print(f"  overall     P={score.precision:.3f} R={score.recall:.3f} F1={score.f1:.3f}")
        for k in score.per_kind:
            print(f"  {k.kind:<11} P={k.precision:.3f} R={k.recall:.3f} F1={k.f1:.3f}")
    if args.json:
        print(json.dumps(out))
    return 0


def _bench_security(args: argparse.Namespace) -> int:
    from hindsight_services.bench_security import print_sections, run_security_bench

    if args.pii_corpus and not args.pii_corpus.is_file():
        raise SystemExit(f"hindsight: no corpus file at {args.pii_corpus}")
    print_sections(run_security_bench(args), args.json)
    return 0
