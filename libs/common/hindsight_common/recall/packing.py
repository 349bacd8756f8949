"""Token-budget packing (pure): fill the caller's budget top-down."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def pack(items: Sequence[T], text: Callable[[T], str], count: Callable[[str], int], budget: int) -> list[T]:
    """The best-first prefix of ``items`` whose texts fit in ``budget`` tokens;
    an item that does not fit is skipped and smaller ones after it may still fit."""
    out: list[T] = []
    used = 0
    for item in items:
        cost = count(text(item))
        if used + cost <= budget:
            out.append(item)
            used += cost
    return out
