"""Purging erased users from what a consumer keeps: the ``SubjectErased`` split.

A consumer handler wrapped by :func:`erasing` handles the records before each
``SubjectErased`` of the batch, then purges that user (``purge``), then goes on. The
records before an erasure are written with the position they reach, so the erasure's
own offset is recorded only by a write after the purge: a crash in between redelivers
the ``SubjectErased`` and the purge runs again (purges are idempotent). Records of the
user after the erasure (content written anew, under a new key) are kept.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from hindsight_common.consumer import batch_position
from hindsight_common.events.erasure import SubjectErased
from hindsight_common.ports.log import LogRecord, Position

log = logging.getLogger(__name__)
Handle = Callable[[Sequence[LogRecord], Position], Awaitable[None]]
Purge = Callable[[str, str], Awaitable[None]]


def erasing(handle: Handle, purge: Purge, *, what: str) -> Handle:
    """``handle`` with ``purge(tenant, user)`` run at each ``SubjectErased`` in order."""
    async def run(records: Sequence[LogRecord], position: Position) -> None:
        start = 0
        for i, r in enumerate(records):
            if isinstance(r.event, SubjectErased):
                if i > start:
                    await handle(records[start:i], batch_position(records[:i]))
                await purge(r.event.tenant, r.event.user)
                log.info("%s: purged an erased user (erasure event %s)", what, r.event.event_id)
                start = i + 1
        await handle(records[start:], position)

    return run
