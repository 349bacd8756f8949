"""The gateway's OpenAPI document, published as ``schemas/openapi/v1.json``.

``python -m hindsight_services.openapi schemas`` writes it; ``--check`` exits 1
when the published file differs from what the code serves (tests check too).
The version in the path is the API's major version: a breaking change is v2.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from hindsight_common.settings import Settings
from hindsight_services.embedded import create_app

RELATIVE = Path("openapi") / "v1.json"


def document() -> str:
    with tempfile.TemporaryDirectory() as tmp:  # building the app touches no data
        app = create_app(Settings(data_dir=Path(tmp)))
        return json.dumps(app.openapi(), indent=2, sort_keys=True) + "\n"


def publish(argv: list[str], relative: Path, render: Callable[[], str]) -> int:
    """Write ``render()`` to ``<root>/<relative>`` (root: the first argument, default
    ``schemas``); with ``--check``, exit 1 when the published file differs instead."""
    root = Path(argv[0] if argv and not argv[0].startswith("--") else "schemas")
    path = root / relative
    if "--check" in argv:
        ok = path.exists() and path.read_text() == render()
        if not ok:
            print(f"differs {relative}")
        return 0 if ok else 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render())
    return 0


def main(argv: list[str]) -> int:
    return publish(argv, RELATIVE, document)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
