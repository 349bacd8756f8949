"""``hindsight keys``: create, list and revoke API keys, straight in the credential store.

The store is the one the server reads (``factory.make_credentials``): the data
directory's ``state/credentials.sqlite3`` (``--data-dir`` or ``HINDSIGHT_DATA_DIR``), or
PostgreSQL when ``HINDSIGHT_LOG_BACKEND=kafka`` (``HINDSIGHT_POSTGRES_DSN``). A running
server sees a new or revoked key on its next request. ``create`` prints the key, and
nothing else, on stdout (``KEY=$(hindsight keys create ...)``); everything else goes to
stderr. Whoever can run this command can write to that store: it is the bootstrap for the
first admin key, which then manages its tenant's keys through ``/v1/admin/keys``.
``create`` and ``revoke`` are audited on the server's log (``hindsight.audit.v1``, actor
``(operator)``, interface ``cli``); a key whose audit event cannot be written is revoked
again and never printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hindsight_common.errors import HindsightError
from hindsight_common.events.audit import OPERATOR, AuditRecorded
from hindsight_common.factory import make_credentials, make_log
from hindsight_common.ports.log import EventLog
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.security.credentials import SCOPES, new_key
from hindsight_common.security.credentials_access import now
from hindsight_common.settings import load_settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="embedded: the server's data directory (HINDSIGHT_DATA_DIR, default ./.hindsight)")
    sub = parser.add_subparsers(dest="keys", required=True)
    c = sub.add_parser("create", help="create a key; prints it (shown this once) on stdout")
    c.add_argument("--tenant", required=True)
    c.add_argument("--scopes", required=True, help=f"comma-separated: {','.join(SCOPES)}")
    c.add_argument("--name", default=None, help="what the key is for (shown by list)")
    ls = sub.add_parser("list", help="the keys (never their secrets)")
    ls.add_argument("--tenant", default=None, help="only this tenant's")
    ls.add_argument("--json", action="store_true", help="one JSON object per key")
    rv = sub.add_parser("revoke", help="revoke a key by its id: from now on it is refused (401)")
    rv.add_argument("key_id")


def add_audit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded: the server's data directory")
    parser.add_argument("--tenant", required=True, help="whose events")
    parser.add_argument("--after", default=None, help="the cursor an earlier run printed on stderr")
    parser.add_argument("--limit", type=int, default=100)


async def run_audit(args: argparse.Namespace) -> int:
    """Print a tenant's audit events (one JSON object per line) and, on stderr, the cursor
    of the next page."""
    event_log = make_log(load_settings(data_dir=args.data_dir))
    try:
        page = await AuditTrail(lambda: event_log).page(args.tenant, args.after, args.limit)
    finally:
        await event_log.close()
    for event in page.events:
        print(event.model_dump_json())
    more = "more after it" if page.more else "nothing more yet"
    print(f"{len(page.events)} events; next page ({more}): --after {page.next}", file=sys.stderr)
    return 0


async def run_keys(args: argparse.Namespace) -> int:
    settings = load_settings(data_dir=args.data_dir)
    store = make_credentials(settings)
    logs: list[EventLog] = []  # opened on the first audited action only (list does not write)

    def the_log() -> EventLog:
        if not logs:
            logs.append(make_log(settings))
        return logs[0]

    async def audited(action: str, tenant: str, key_id: str) -> None:
        await AuditTrail(the_log).record(AuditRecorded(
            tenant=tenant, user=OPERATOR, occurred_at=now(), action=action, outcome="ok",
            interface="cli", target=key_id))

    try:
        if args.keys == "create":
            key, record = new_key(args.tenant, args.scopes, now(), args.name)
            await store.add(record)
            try:
                await audited("key.create", record.tenant, record.key_id)
            except HindsightError:
                await store.revoke(record.key_id, now())
                raise
            print(f"created API key {record.key_id} for tenant {record.tenant} "
                  f"({', '.join(sorted(record.scopes))}); it is shown only now", file=sys.stderr)
            print(key)
            return 0
        if args.keys == "list":
            keys = await store.list(args.tenant)
            for k in keys:
                d = k.describe()
                if args.json:
                    print(json.dumps(d))
                else:
                    state = f"revoked {d['revoked_at']}" if d["revoked_at"] else "active"
                    scopes = ",".join(sorted(k.scopes, key=SCOPES.index))
                    print(f"{k.key_id}  {k.tenant}  {scopes}  {state}  {k.name or ''}".rstrip())
            if not keys:
                print("no API keys", file=sys.stderr)
            return 0
        record = await store.revoke(args.key_id, now())
        await audited("key.revoke", record.tenant, record.key_id)
        print(f"revoked API key {record.key_id} of tenant {record.tenant} "
              f"at {record.revoked_at.isoformat() if record.revoked_at else '?'}", file=sys.stderr)
        return 0
    finally:
        await store.close()
        for opened in logs:
            await opened.close()
