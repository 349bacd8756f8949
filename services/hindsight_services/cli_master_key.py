"""``hindsight master-key rewrap``: the end of a master-key rotation.

The master key wraps every user's data key (``security/data_keys.py``). Rotating it:

1. start every process with the new key as ``HINDSIGHT_MASTER_KEY`` and the old one as
   ``HINDSIGHT_MASTER_KEY_PREVIOUS`` (embedded, with the generated key: stop the server,
   move ``keys/master.key`` to ``keys/master.key.previous``, start it: a new key is
   generated). Data keys the old key wrapped still open; new ones are wrapped with the
   new key.
2. run this command: every data key still wrapped by the old key is rewrapped with the
   new one, in one transaction.
3. remove the old key (``--forget-previous`` deletes the embedded ``master.key.previous``
   after a successful rewrap) and restart without it. From then on a wrapped data key that
   a store kept after its user's erasure (PostgreSQL's WAL and free space, a backup) opens
   with no key anyone has.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from hindsight_common.settings import Settings, load_settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["rewrap"],
                        help="rewrap: rewrap every data key with the current master key")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded; the cluster reads HINDSIGHT_* variables")
    parser.add_argument("--forget-previous", action="store_true",
                        help="embedded: afterwards overwrite and delete keys/master.key.previous")


async def rewrap(settings: Settings) -> tuple[int, int]:
    from hindsight_common.factory import make_data_keys

    keys = make_data_keys(settings)
    try:
        return await keys.rewrap_all()
    finally:
        await keys.close()


def forget(path: Path) -> bool:
    """Overwrite the file with zeros, fsync, delete it; False when there is none."""
    if not path.exists():
        return False
    with path.open("r+b") as f:
        f.write(b"\0" * path.stat().st_size)
        f.flush()
        os.fsync(f.fileno())
    path.unlink()
    return True


def run(args: argparse.Namespace) -> int:
    settings = load_settings(data_dir=args.data_dir) if args.data_dir else load_settings()
    rewrapped, current = asyncio.run(rewrap(settings))
    print(f"rewrapped {rewrapped} data key(s) with the current master key; {current} already were")
    if args.forget_previous:
        if forget(settings.master_key_previous_path):
            print(f"deleted {settings.master_key_previous_path}: restart Hindsight to drop it from memory")
        else:
            print(f"no {settings.master_key_previous_path} to delete")
    elif settings.master_key_previous or settings.master_key_previous_path.exists():
        print("the previous master key is no longer needed: remove HINDSIGHT_MASTER_KEY_PREVIOUS "
              "(or keys/master.key.previous) and restart")
    return 0
