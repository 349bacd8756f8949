"""The ``hindsight`` command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from hindsight_common.errors import HindsightError
from hindsight_common.security.screening_samples import BLIND_PARTS
from hindsight_common.settings import DEFAULT_GRPC_PORT, DEFAULT_HOST, DEFAULT_PORT, load_settings
from hindsight_services.auth import api_key_headers
from hindsight_services.cli_keys import add_arguments as add_keys_arguments
from hindsight_services.cli_keys import add_audit_arguments, run_audit, run_keys
from hindsight_services.cli_erase import add_arguments as add_erase_arguments
from hindsight_services.cli_erase import run_erase
from hindsight_services.cli_master_key import add_arguments as add_master_key_arguments
from hindsight_services import cli_memories
from hindsight_services.cli_bench import run_bench
from hindsight_services.mcp import add_arguments as add_mcp_arguments  # light: no MCP SDK import

DEFAULT_URL = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hindsight", description="Long-term memory for LLM agents.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run every service in one process (embedded storage)")
    s.add_argument("--host", default=None, help=f"default {DEFAULT_HOST} (HINDSIGHT_HOST)")
    s.add_argument("--port", type=int, default=None, help=f"default {DEFAULT_PORT} (HINDSIGHT_PORT)")
    s.add_argument("--data-dir", type=Path, default=None, help="default ./.hindsight (HINDSIGHT_DATA_DIR)")
    s.add_argument("--grpc-port", type=int, default=None,
                   help=f"default {DEFAULT_GRPC_PORT} (HINDSIGHT_GRPC_PORT); 0 turns gRPC off")

    rn = sub.add_parser("run", help="run ONE service in this process (cluster mode; HINDSIGHT_* env)")
    rn.add_argument("service", choices=["ingest", "embed", "project", "reflect", "consolidate", "query"])
    rn.add_argument("--host", default=None)
    rn.add_argument("--port", type=int, default=None)
    rn.add_argument("--grpc-port", type=int, default=None, help="query only; 0 turns gRPC off")

    i = sub.add_parser("ingest", help="send a JSON-lines file of interactions to a running server")
    i.add_argument("file", type=Path, help="one interaction object per line ('-' for stdin)")
    i.add_argument("--url", default=DEFAULT_URL)
    i.add_argument("--batch", type=int, default=200)

    r = sub.add_parser("recall", help="recall from a running server")
    r.add_argument("query")
    r.add_argument("--url", default=DEFAULT_URL)
    r.add_argument("--tenant", default=None)
    r.add_argument("--user", default=None)
    r.add_argument("--session", default=None)
    r.add_argument("-k", type=int, default=10)
    r.add_argument("--preset", default=None, help="fast or balanced (the default)")
    r.add_argument("--explain", action="store_true", help="with --json: each item's path ranks and factors")
    r.add_argument("--include", action="append", default=[], choices=["forgotten", "superseded", "quarantined"],
                   help="admin only (repeatable): also these states; needs $HINDSIGHT_API_KEY with the admin scope")
    r.add_argument("--json", action="store_true", help="print the raw JSON answer")

    cli_memories.add_arguments(sub, DEFAULT_URL)

    add_keys_arguments(sub.add_parser("keys", help="create, list and revoke API keys (in the data directory "
                                                   "or, with HINDSIGHT_LOG_BACKEND=kafka, in PostgreSQL)"))

    add_erase_arguments(sub.add_parser("erase", help="erase a user through a running server (scope erase)"))
    add_audit_arguments(sub.add_parser("audit", help="a tenant's audit events (key actions, refused requests)"))

    add_mcp_arguments(sub.add_parser("mcp", help="serve the memory tools to agents over MCP (stdio or streamable HTTP)"))

    from hindsight_services.rebuild.args import add_arguments as add_replay_arguments  # light

    add_replay_arguments(sub.add_parser(
        "replay", help="rebuild projections from the log into new versions and swap them in (also while serving)"))

    add_master_key_arguments(sub.add_parser(
        "master-key", help="the master key that wraps the users' data keys: rewrap them after a rotation"))
    sg = sub.add_parser("signing", help="the signing keyring of memories and interactions")
    sg.add_argument("action", choices=["rotate"], help="rotate: add a new active key, keep the old ones")
    sg.add_argument("--data-dir", type=Path, default=None)
    vf = sub.add_parser("verify", help="compare each projection with what the log implies (exit 1 when they differ)")
    vf.add_argument("--data-dir", type=Path, default=None, help="embedded; the cluster reads HINDSIGHT_* variables")
    vf.add_argument("--projection", default="vector,text,graph", help="comma-separated: vector, text, graph")
    vf.add_argument("--json", action="store_true", help="print one JSON object")

    b = sub.add_parser("bench", help="benchmarks that print figures")
    bsub = b.add_subparsers(dest="bench", required=True)
    lb = bsub.add_parser("locomo", help="retrieval recall@k on a LoCoMo-format file")
    lb.add_argument("--data", type=Path, required=True)
    lb.add_argument("--k", default="5,10,20", help="comma-separated cut-offs")
    lb.add_argument("--json", action="store_true", help="also print one JSON object as the last line")
    lb.add_argument("--reflect", action="store_true",
                    help="close every session first so the reflector adds semantic memories")
    lb.add_argument("--preset", default="balanced",
                    help="comma-separated presets to measure (default: balanced, the default preset)")
    lb.add_argument("--ablate", nargs="?", const="all", default=None, metavar="STAGES",
                    help="also measure the first preset with each stage or factor switched off, and "
                         "each path it lacks switched on; optionally only these (comma-separated, "
                         "e.g. cross_encoder,speaker,+graph); in-process only")
    lb.add_argument("--url", default=None, help="a running gateway (embedded or cluster); default: in-process")
    rcb = bsub.add_parser("recall", help="recall latency per preset over N synthetic turns")
    rcb.add_argument("--n", default="10000", help="comma-separated sizes, e.g. 10000,100000")
    rcb.add_argument("--presets", default="fast,balanced")
    rcb.add_argument("--queries", type=int, default=200)
    rcb.add_argument("--url", default=None, help="a running gateway (cluster); default: embedded in-process")
    rcb.add_argument("--data-dir", type=Path, default=None,
                     help="embedded: keep the loaded corpus here and reuse it in later runs")
    rcb.add_argument("--json", action="store_true")
    vb = bsub.add_parser("vectors", help="one user's vector search: shard, in memory, exact, inverted lists")
    vb.add_argument("--data-dir", type=Path, required=True,
                    help="a data directory a `bench recall --data-dir` run loaded (read only)")
    vb.add_argument("--queries", type=int, default=200)
    vb.add_argument("--k", default="10,50,100", help="comma-separated top-k sizes")
    vb.add_argument("--json", action="store_true")
    pb = bsub.add_parser("perf", help="ingest throughput, projection rate, freshness, recall latency, memory")
    pb.add_argument("--quick", action="store_true", help="small phases (well under 3 minutes), for CI")
    pb.add_argument("--sizes", default="10000,100000",
                    help="recall latency at these many turns of one user (full run; comma-separated)")
    pb.add_argument("--url", default=None,
                    help="a running gateway on this machine (the cluster); default: start `hindsight serve`")
    pb.add_argument("--pid", action="append", default=[], metavar="NAME=PID",
                    help="also report this process's peak memory (repeat; e.g. the cluster's services)")
    pb.add_argument("--json", action="store_true", help="also print one JSON object as the last line")
    pb.add_argument("--tenant", default="perf-bench",
                    help="the tenant written to (with --url: the tenant of $HINDSIGHT_API_KEY); default perf-bench")
    ib = bsub.add_parser("ingest", help="CPU and wall time per batch of the embedded ingest path, and per stage")
    ib.add_argument("--batches", type=int, default=30, help="batches per measurement (default 30)")
    ib.add_argument("--batch", type=int, default=100, help="interactions per batch (default 100)")
    ib.add_argument("--clients", type=int, default=8, help="concurrent writers of the second run (default 8)")
    ib.add_argument("--json", action="store_true", help="also print one JSON object as the last line")
    ab = bsub.add_parser("auth", help="what checking an API key or a JWT costs per call and per request")
    ab.add_argument("--n", type=int, default=2000, help="calls per measurement")
    ab.add_argument("--json", action="store_true")
    cb = bsub.add_parser("consolidate", help="dedup and supersession precision/recall on a synthetic stream")
    cb.add_argument("--n", type=int, default=5000, help="statements (default 5000)")
    cb.add_argument("--seed", type=int, default=7)
    cb.add_argument("--json", action="store_true")
    rpb = bsub.add_parser("replay", help="rebuild rate (events/s) without, with a cold and with a warm embedding cache")
    rpb.add_argument("--n", type=int, default=2000, help="synthetic turns in the log (the issue's target: 100000)")
    rpb.add_argument("--json", action="store_true")
    rb = bsub.add_parser("reflect", help="offline reflector precision/recall on the labelled sets")
    rb.add_argument("--json", action="store_true")
    from hindsight_services.bench_security import add_arguments as add_security_arguments  # light

    add_security_arguments(bsub.add_parser(
        "security", help="PII redaction and injection screening: precision/recall on the labelled corpora"))
    # The screening section of "bench security" on its own, and through the embedded HTTP ingest.
    sb = bsub.add_parser("screening", help="injection screening: precision/recall per attack family")
    sb.add_argument("--corpus", type=Path, default=None, help="a JSON-lines corpus (default: the shipped one)")
    sb.add_argument("--blind", type=int, nargs="?", const=12, choices=sorted(BLIND_PARTS), default=None,
                    help="a shipped blind part, never tuned on: "
                         + " or ".join(f"{n}{' (the default)' if n == 12 else ''}" for n in sorted(BLIND_PARTS)))
    sb.add_argument("--locomo", type=Path, default=None,
                    help="instead: the share of this LoCoMo file's ordinary turns quarantined, per source")
    sb.add_argument("--cv", action="store_true", help="also a leave-one-part-out cross-validation of the learned model")
    sb.add_argument("--embedded", action="store_true",
                    help="write every sample through the embedded server's HTTP ingest")
    sb.add_argument("--no-screening", action="store_true",
                    help="with --embedded: ingest with screening off, for the throughput it costs")
    sb.add_argument("--json", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request drowns the output
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "mcp":
            from hindsight_services.mcp.server import run_from_args

            return run_from_args(args)
        if args.command == "run":
            return _run_service(args)
        if args.command == "keys":
            return asyncio.run(run_keys(args))
        if args.command == "audit":
            return asyncio.run(run_audit(args))
        if args.command == "erase":
            return run_erase(args)
        if args.command == "ingest":
            return _ingest(args)
        if args.command == "recall":
            return _recall(args)
        if args.command in ("memories", "consolidate"):
            return cli_memories.run(args)
        if args.command == "replay":
            return asyncio.run(_replay(args))
        if args.command == "master-key":
            from hindsight_services.cli_master_key import run as run_master_key

            return run_master_key(args)
        if args.command == "signing":
            from hindsight_common.security.signing_keys import rotate_configured

            kid, path = rotate_configured(load_settings(data_dir=args.data_dir))
            print(f"{kid} now signs (keyring {path}); restart Hindsight to use it")
            return 0
        if args.command == "verify":
            return asyncio.run(_verify(args))
        if args.command == "bench":
            return run_bench(args)
    except HindsightError as e:
        print(f"hindsight: {e}", file=sys.stderr)
        return 2
    except httpx.ConnectError:
        print(
            f"hindsight: no server answers at {args.url}; start one with `hindsight serve`",
            file=sys.stderr,
        )
        return 2
    return 1


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from hindsight_services.embedded import create_app

    from hindsight_common.telemetry import shutdown_tracing
    from hindsight_services.observability import setup_process

    from hindsight_services.embedded import check_data_dir

    settings = load_settings(host=args.host, port=args.port, data_dir=args.data_dir, grpc_port=args.grpc_port)
    asyncio.run(check_data_dir(settings))  # vectors of another embedder: exit 2, saying what to run
    from hindsight_services.rebuild.command import write_server_url

    write_server_url(settings)  # where `hindsight replay` finds this server
    setup_process("embedded", settings, "text")
    app = create_app(settings, serve_grpc=True)
    # log_config=None: uvicorn's loggers go through the handler setup_process installed.
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info", log_config=None)
    shutdown_tracing()
    return 0


def _run_service(args: argparse.Namespace) -> int:
    import uvicorn

    from hindsight_services.process import create_service_app

    from hindsight_common.telemetry import shutdown_tracing
    from hindsight_services.observability import setup_process

    # The cluster requires API keys unless HINDSIGHT_AUTH says otherwise.
    auth = None if os.environ.get("HINDSIGHT_AUTH") else "required"
    settings = load_settings(host=args.host, port=args.port, grpc_port=args.grpc_port, auth=auth)
    setup_process(args.service, settings, "json")
    app = create_service_app(args.service, settings)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info", log_config=None)
    shutdown_tracing()
    return 0


def _read_lines(path: Path) -> list[dict[str, Any]]:
    text = sys.stdin.read() if str(path) == "-" else path.read_text()
    items = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            items.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise SystemExit(f"hindsight: {path}:{n}: not valid JSON: {e}") from e
    return items


def _ingest(args: argparse.Namespace) -> int:
    items = _read_lines(args.file)
    sent = 0
    with httpx.Client(base_url=args.url, timeout=60, headers=api_key_headers()) as client:
        for i in range(0, len(items), args.batch):
            r = client.post("/v1/interactions", json={"interactions": items[i : i + args.batch]})
            if r.status_code >= 400:
                print(f"hindsight: lines {i + 1}-{i + args.batch}: {r.status_code} {r.text}", file=sys.stderr)
                print(f"{sent} interactions recorded before the failure", file=sys.stderr)
                return 1
            sent += len(r.json()["events"])
    print(f"{sent} interactions recorded")
    return 0


def _recall(args: argparse.Namespace) -> int:
    body = {k: v for k, v in {"tenant": args.tenant, "user": args.user, "session": args.session,
                               "query": args.query, "k": args.k, "preset": args.preset,
                               "explain": args.explain or None, "include": args.include or None}.items()
            if v is not None}
    with httpx.Client(base_url=args.url, timeout=60, headers=api_key_headers()) as client:
        r = client.post("/v1/recall", json=body)
    if r.status_code >= 400:
        print(f"hindsight: {r.status_code} {r.text}", file=sys.stderr)
        return 1
    data = r.json()
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    for n, item in enumerate(data["items"], start=1):
        state = "" if item["type"] in ("episodic", "semantic") else f" ({item['type']})"
        print(f"{n:>2}. [{item['score']:.4f}] {item['occurred_at'][:19]} {item['speaker']}: {item['content']}{state}")
    return 0


async def _replay(args: argparse.Namespace) -> int:
    from hindsight_services.rebuild.command import run

    return await run(args)


async def _verify(args: argparse.Namespace) -> int:
    from hindsight_services.verify import run

    names = [n.strip() for n in args.projection.split(",") if n.strip()]
    unknown = sorted(set(names) - {"vector", "text", "graph"})
    if unknown or not names:
        raise SystemExit(f"hindsight: --projection takes vector, text and graph, not {', '.join(unknown) or 'nothing'}")
    return await run(load_settings(data_dir=args.data_dir), names, args.json)


if __name__ == "__main__":
    sys.exit(main())
