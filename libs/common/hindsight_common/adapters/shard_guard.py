"""Many readers or one swapper: lets an embedded index replace its open store (close the
old files, rename the new ones into place, open them) without a concurrent search reading a
closed store and answering empty. Readers never wait for each other, only for a swap."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class ShardGuard:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._swapping = False

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            while self._swapping:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextmanager
    def swapping(self) -> Iterator[None]:
        with self._cond:
            while self._swapping:
                self._cond.wait()
            self._swapping = True  # new readers wait from here on
            while self._readers:
                self._cond.wait()
        try:
            yield
        finally:
            with self._cond:
                self._swapping = False
                self._cond.notify_all()
