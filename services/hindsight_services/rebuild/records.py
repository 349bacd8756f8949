"""The embedded data directory's two rebuild records, small JSON files written
atomically (temp file, fsync, rename) in ``<data-dir>/projections/``:

- ``versions.json``, the pointer record (the embedded equivalent of an alias): which
  version of each projection is live, and the embedder its vectors come from, e.g.
  ``{"vector": 2, "text": 2, "graph": 1, "embedder": "bge-small-en"}``. Version 1 is the
  original folder (``projections/vectors``), version N the folder ``vectors.vN``
  (``Settings.vector_dir`` and the others resolve it). Readers resolve it at start-up
  (``resolve``); a running server is switched in memory at the same moment the record is
  replaced (``live.py``).
- ``rebuild.json``, a rebuild under way: the projections it rebuilds, the version it
  fills for each and the embedder. Each new version records its own log position with
  its data, so a rebuild killed midway resumes from there when started again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hindsight_common.errors import ConfigurationError
from hindsight_common.settings import Settings

PROJECTIONS = ("vector", "text", "graph")
VERSIONS_FILE = "versions.json"
REBUILD_FILE = "rebuild.json"


@dataclass(frozen=True)
class Versions:
    live: Mapping[str, int] = field(default_factory=dict)
    embedder: str | None = None  # None: the configured one (no rebuild re-embedded yet)

    def of(self, projection: str) -> int:
        return self.live.get(projection, 1)


@dataclass(frozen=True)
class RebuildRecord:
    projections: tuple[str, ...]
    targets: Mapping[str, int]  # projection -> version being filled
    embedder: str  # the embedder the new vector version is made with


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        json.dump(data, f, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a crash
    finally:
        os.close(directory)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except ValueError as e:
        raise ConfigurationError(f"{path} is not valid JSON ({e}); it records the projections' versions") from e
    if not isinstance(data, dict):
        raise ConfigurationError(f"{path} holds {type(data).__name__}, not a JSON object")
    return data


def read_versions(settings: Settings) -> Versions:
    data = _read_json(settings.projections_dir / VERSIONS_FILE) or {}
    embedder = data.get("embedder")
    return Versions({p: int(data[p]) for p in PROJECTIONS if p in data},
                    str(embedder) if embedder else None)


def write_versions(settings: Settings, versions: Versions) -> None:
    data: dict[str, Any] = {p: versions.of(p) for p in PROJECTIONS}
    if versions.embedder:
        data["embedder"] = versions.embedder
    _write_json(settings.projections_dir / VERSIONS_FILE, data)


def resolve(settings: Settings) -> Settings:
    """``settings`` with the live versions (and the embedder they were built with) of
    the data directory's pointer record; unchanged when there is none."""
    versions = read_versions(settings)
    update: dict[str, Any] = {"projection_versions": dict(versions.live)}
    if versions.embedder:
        update["embedder"] = versions.embedder
    return settings.model_copy(update=update)


def at_versions(settings: Settings, targets: Mapping[str, int]) -> Settings:
    """``settings`` whose paths name the ``targets`` versions (the others as they are)."""
    return settings.model_copy(update={"projection_versions": {**settings.projection_versions, **targets}})


def read_rebuild(settings: Settings) -> RebuildRecord | None:
    data = _read_json(settings.projections_dir / REBUILD_FILE)
    if data is None:
        return None
    return RebuildRecord(tuple(data["projections"]), {str(k): int(v) for k, v in data["targets"].items()},
                         str(data["embedder"]))


def write_rebuild(settings: Settings, record: RebuildRecord) -> None:
    _write_json(settings.projections_dir / REBUILD_FILE, {
        "projections": list(record.projections), "targets": dict(record.targets), "embedder": record.embedder})


def clear_rebuild(settings: Settings) -> None:
    try:
        os.remove(settings.projections_dir / REBUILD_FILE)
    except FileNotFoundError:
        pass


def version_paths(settings: Settings, projection: str, version: int) -> Path:
    """The folder that holds ``version`` of ``projection`` (what dropping it deletes)."""
    s = at_versions(settings, {projection: version})
    return {"vector": s.vector_dir, "text": s.text_path.parent, "graph": s.graph_path.parent}[projection]


def existing_versions(settings: Settings, projection: str) -> list[int]:
    """Every version of ``projection`` with a folder in the data directory."""
    base = version_paths(settings, projection, 1).name
    if not settings.projections_dir.is_dir():
        return []
    found = []
    for entry in settings.projections_dir.iterdir():
        if entry.name == base:
            found.append(1)
        elif entry.name.startswith(base + ".v") and entry.name[len(base) + 2:].isdigit():
            found.append(int(entry.name[len(base) + 2:]))
    return sorted(found)
