"""Vectors as bytes: little-endian float32, what the embedding cache stores."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence


def to_bytes(vector: Sequence[float]) -> bytes:
    a = array("f", vector)
    if sys.byteorder != "little":  # pragma: no cover - every platform we run on is little-endian
        a.byteswap()
    return a.tobytes()


def from_bytes(data: bytes) -> list[float]:
    """Raises ValueError when ``data`` is not a whole number of float32 values."""
    if len(data) % 4:
        raise ValueError(f"{len(data)} bytes are not a float32 vector")
    a = array("f")
    a.frombytes(data)
    if sys.byteorder != "little":  # pragma: no cover
        a.byteswap()
    return a.tolist()
