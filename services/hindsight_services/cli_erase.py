"""``hindsight erase --tenant T --user U``: erase a user through a running server.

Sends ``DELETE /v1/users/{user}?tenant=T`` with the API key in ``HINDSIGHT_API_KEY``
(it needs the ``erase`` scope when auth is on), prints the answer, and exits 0 once the
server has destroyed the keys and recorded the erasure; 1 when it refused.
"""

from __future__ import annotations

import argparse
import json
import sys
from urllib.parse import quote

import httpx

from hindsight_common.settings import DEFAULT_HOST, DEFAULT_PORT
from hindsight_services.auth import api_key_headers


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tenant", required=True)
    p.add_argument("--user", required=True)
    p.add_argument("--reason", default="", help="recorded with the erasure (never content)")
    p.add_argument("--url", default=f"http://{DEFAULT_HOST}:{DEFAULT_PORT}")


def run_erase(args: argparse.Namespace) -> int:
    with httpx.Client(base_url=args.url, timeout=60, headers=api_key_headers()) as client:
        r = client.delete(f"/v1/users/{quote(args.user, safe='')}",
                          params={"tenant": args.tenant, "reason": args.reason})
    if r.status_code >= 400:
        print(f"hindsight: {r.status_code} {r.text}", file=sys.stderr)
        return 1
    print(json.dumps(r.json(), indent=2))
    return 0
