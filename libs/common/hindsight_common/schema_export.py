"""Generate the JSON Schemas in ``schemas/`` from the event models.

``python -m hindsight_common.schema_export schemas`` rewrites them;
``--check`` exits 1 when a file differs (tests run the same comparison).
A published version's file must never change: add a new version instead.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from hindsight_common.api import IngestRequest, RecallIn, RecallOut
from hindsight_common.events import EVENT_TYPES


def expected_files() -> dict[str, str]:
    """Relative path -> file content of every generated schema."""
    out: dict[str, str] = {}
    for name, model in sorted(EVENT_TYPES.items()):
        version = model.model_fields["schema_version"].default
        schema = model.model_json_schema(mode="serialization")
        schema["$id"] = f"https://hindsight.dev/schemas/events/{name}.v{version}.json"
        out[f"events/{name}.v{version}.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    api_models: tuple[type[BaseModel], ...] = (IngestRequest, RecallIn, RecallOut)
    for api_model in api_models:
        schema = api_model.model_json_schema()
        out[f"api/{api_model.__name__}.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return out


def drift(root: Path) -> list[str]:
    """Files under ``root`` that are missing or differ from the models."""
    problems = []
    for rel, content in expected_files().items():
        path = root / rel
        if not path.exists():
            problems.append(f"missing {rel}")
        elif path.read_text() != content:
            problems.append(f"differs {rel}")
    return problems


def write(root: Path) -> None:
    for rel, content in expected_files().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv and not argv[0].startswith("--") else "schemas")
    if "--check" in argv:
        problems = drift(root)
        for p in problems:
            print(p)
        return 1 if problems else 0
    write(root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
