"""A projection's log position kept in a small JSON file beside its data.

Written after the data is flushed, atomically (temp file, fsync, rename), so
after a crash the position is never ahead of the data; re-applying the few
events after it is harmless because projection writes are idempotent.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path


def read_position(path: Path) -> dict[str, int]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    return {str(k): int(v) for k, v in data.items()}


def write_position(path: Path, position: Mapping[str, int]) -> None:
    merged = read_position(path)
    for k, v in position.items():
        merged[k] = max(merged.get(k, 0), v)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        json.dump(merged, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
