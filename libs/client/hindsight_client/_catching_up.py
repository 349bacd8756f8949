"""When a gateway has caught up: the rule both clients' ``wait_until_caught_up`` follow."""

from __future__ import annotations

from collections.abc import Mapping

from hindsight_client._models import Status


class Settling:
    """Decides when a sequence of status readings shows the gateway caught up.

    One ``caught_up`` reading is not enough: a consumer may append follow-up events
    (reflection appends memories) while the gateway composes the reading, after it read
    the log heads. Two consecutive caught-up readings with the same log heads leave no
    such window: anything appended before the second reading is in its heads, and the
    first reading's positions already covered those heads.
    """

    def __init__(self) -> None:
        self._last: Mapping[str, int] | None = None

    @property
    def pending(self) -> bool:
        """True after one caught-up reading: take the confirming one straight away."""
        return self._last is not None

    def settled(self, status: Status) -> bool:
        if not status.caught_up:
            self._last = None
            return False
        if self._last is not None and dict(self._last) == dict(status.log):
            return True
        self._last = dict(status.log)
        return False
