"""``hindsight memories pin|unpin|restore ID`` and ``hindsight consolidate [--dry-run]``:
a memory's lifecycle from the command line, against a running server.

Both send ``HINDSIGHT_API_KEY`` (a key with the ``write`` scope) when it is set. Pin, unpin
and restore print the appended event; consolidate prints what the pass forgot (or, with
``--dry-run``, would forget), one memory a line, or the JSON answer with ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import httpx

from hindsight_services.auth import api_key_headers


def add_arguments(sub: Any, default_url: str) -> None:
    """Add ``memories`` and ``consolidate`` to the CLI's subcommands."""
    m = sub.add_parser("memories", help="pin, unpin or restore a memory on a running server")
    m.add_argument("action", choices=["pin", "unpin", "restore"],
                   help="pin: never forgotten by a pass; unpin: judged by importance again; restore: a forgotten one")
    m.add_argument("memory_id")
    _common(m, default_url)
    m.add_argument("--reason", default="", help="why (kept on the log)")
    c = sub.add_parser("consolidate", help="run a forgetting pass over one user's memories now")
    _common(c, default_url)
    c.add_argument("--dry-run", action="store_true", help="list what the pass would forget; forget nothing")
    c.add_argument("--json", action="store_true", help="print the raw JSON answer")


def _common(p: argparse.ArgumentParser, default_url: str) -> None:
    p.add_argument("--url", default=default_url)
    p.add_argument("--tenant", default=None)
    p.add_argument("--user", required=True, help="whose memory (memories)")


def run(args: argparse.Namespace) -> int:
    if args.command == "memories":
        path = f"/v1/memories/{args.memory_id}:{args.action}"
        body: dict[str, Any] = {"user": args.user, "reason": args.reason}
    else:
        path, body = "/v1/consolidate", {"user": args.user, "dry_run": args.dry_run}
    if args.tenant:
        body["tenant"] = args.tenant
    with httpx.Client(base_url=args.url, timeout=120, headers=api_key_headers()) as client:
        r = client.post(path, json=body)
    if r.status_code >= 400:
        print(f"hindsight: {r.status_code} {r.text}", file=sys.stderr)
        return 1
    data = r.json()
    if args.command == "memories":
        event = data["events"][0]
        print(f"{args.action} of {args.memory_id} recorded: event {event['event_id']} at offset {event['offset']}")
        return 0
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    verb = "would forget" if data["dry_run"] else "forgot"
    print(f"{verb} {len(data['forgotten'])} of {data['live']} live memories")
    for f in data["forgotten"]:
        print(f"  {f['memory_id']}  {f['reason']}")
    return 0
