"""The options of ``hindsight replay`` (light: the CLI builds its parser on every run)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", type=Path, default=None)
    p.add_argument("--projection", default="all", help="vector, text, graph or all (default), or a comma-separated choice")
    p.add_argument("--embedder", default=None, choices=["bge-small-en", "minilm"],
                   help="re-embed the vector projection with this embedder (it becomes the recorded one)")
    p.add_argument("--drop-old", action="store_true", help="delete the replaced versions once the new ones are live")
    p.add_argument("--url", default=None, help="embedded: the running server (default: the one the data directory names)")
