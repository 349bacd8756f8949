"""Reflect's state with its text sealed under each user's data key (the cluster's).

Reflect keeps the turns of open sessions and the memories it already recorded
(``ports/reflect_state.py``). In the cluster they live in PostgreSQL, whose write-ahead
log, heap pages and backups keep what was written long after a ``DELETE`` and a
``VACUUM``; no client can make those bytes go away. So the text (a turn's speaker and
content, a memory's subject, key, value and content) is stored sealed with the user's
data key (``data_keys``), the key that seals their events on the log: destroying it on
erasure makes every copy PostgreSQL keeps unreadable, as it does the log. Ids, times,
sessions and flags stay in the clear (the queries filter and order on them).

A sealed field is ``PREFIX`` + the key id + ``.`` + base64 of the sealed bytes; the
associated data binds it to its tenant, user, row id and field, so a value copied to
another row does not open. A value without the prefix (written before this wrapper) is
read as it is. A row whose key is gone (the user was erased, the purge has not run yet)
is left out of what is read; a value that does not open with a key that exists is an
error (tampered), never silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from hindsight_common.errors import PersistenceError
from hindsight_common.ports.reflect_state import ReflectState, SessionRef
from hindsight_common.ports.reflector import KnownMemory
from hindsight_common.reflection.offline import Turn
from hindsight_common.security.data_keys import DataKey, DataKeys, SealError
from hindsight_common.security.sealed_text import open_text, text_sealer

PREFIX = "\x1fhs-sealed-1\x1f"
_MEMORY_FIELDS = ("subject", "key", "value", "content")


def _aad(tenant: str, user: str, row: str, field: str) -> bytes:
    return f"hindsight-reflect\x00{tenant}\x00{user}\x00{row}\x00{field}".encode()


class SealedReflectState(ReflectState):
    """``inner`` with text fields sealed by ``keys``; owns and closes both."""

    def __init__(self, inner: ReflectState, keys: DataKeys) -> None:
        self.inner = inner
        self._keys = keys

    # -- sealing ----------------------------------------------------------------

    def _sealing(self, key: DataKey) -> Callable[[str, str, str], str]:
        seal = text_sealer(key, PREFIX)

        def sealed(row: str, field: str, value: str) -> str:
            return seal(value, _aad(key.tenant, key.user, row, field))
        return sealed

    async def _opened(self, tenant: str, user: str, row: str, field: str, value: str) -> str | None:
        """The plaintext of a stored field; None when its key was destroyed."""
        try:
            return await open_text(self._keys, tenant, user, value, _aad(tenant, user, row, field), PREFIX)
        except SealError as e:
            raise PersistenceError(f"reflect state: the {field} of {row} ({tenant}/{user}) does not "
                                   f"open with its key: tampered or corrupt") from e

    async def _open_turns(self, ref: SessionRef, turns: list[Turn]) -> list[Turn]:
        out = []
        for t in turns:
            speaker = await self._opened(ref.tenant, ref.user, t.event_id, "speaker", t.speaker)
            content = await self._opened(ref.tenant, ref.user, t.event_id, "content", t.content)
            if speaker is not None and content is not None:
                out.append(replace(t, speaker=speaker, content=content))
        return out

    # -- the port -----------------------------------------------------------------

    async def add_turns(self, items: Sequence[tuple[SessionRef, Turn]]) -> None:
        sealers: dict[tuple[str, str], Callable[[str, str, str], str]] = {}
        sealed = []
        for ref, t in items:
            if (ref.tenant, ref.user) not in sealers:
                sealers[ref.tenant, ref.user] = self._sealing(await self._keys.for_write(ref.tenant, ref.user))
            seal = sealers[ref.tenant, ref.user]
            sealed.append((ref, replace(t, speaker=seal(t.event_id, "speaker", t.speaker),
                                        content=seal(t.event_id, "content", t.content))))
        await self.inner.add_turns(sealed)

    async def unreflected(self, ref: SessionRef) -> list[Turn]:
        return await self._open_turns(ref, await self.inner.unreflected(ref))

    async def session_turns(self, ref: SessionRef) -> list[Turn]:
        return await self._open_turns(ref, await self.inner.session_turns(ref))

    async def mark_reflected(
        self, ref: SessionRef, event_ids: Sequence[str], learned: Sequence[KnownMemory] = ()
    ) -> None:
        await self.inner.mark_reflected(ref, event_ids, await self._sealed(ref.tenant, ref.user, learned))

    async def pending_sessions(self, tenant: str, user: str) -> list[SessionRef]:
        return await self.inner.pending_sessions(tenant, user)

    async def idle_sessions(self, last_turn_before: datetime) -> list[SessionRef]:
        return await self.inner.idle_sessions(last_turn_before)

    async def summarized(self, ref: SessionRef) -> int:
        return await self.inner.summarized(ref)

    async def set_summarized(self, ref: SessionRef, turns: int) -> None:
        await self.inner.set_summarized(ref, turns)

    async def memories(self, tenant: str, user: str, last: int | None = None) -> list[KnownMemory]:
        out = []
        for m in await self.inner.memories(tenant, user, last):
            opened = [await self._opened(tenant, user, m.memory_id, f, getattr(m, f)) for f in _MEMORY_FIELDS]
            subject, key, value, content = opened
            if subject is not None and key is not None and value is not None and content is not None:
                out.append(KnownMemory(m.memory_id, subject, key, value, content))
        return out

    async def remember(self, tenant: str, user: str, memories: Sequence[KnownMemory]) -> None:
        if memories:
            await self.inner.remember(tenant, user, await self._sealed(tenant, user, memories))

    async def _sealed(self, tenant: str, user: str, memories: Sequence[KnownMemory]) -> list[KnownMemory]:
        if not memories:
            return []
        seal = self._sealing(await self._keys.for_write(tenant, user))
        return [KnownMemory(m.memory_id, *(seal(m.memory_id, f, getattr(m, f)) for f in _MEMORY_FIELDS))
                for m in memories]

    async def purge_user(self, tenant: str, user: str) -> int:
        return await self.inner.purge_user(tenant, user)

    async def close(self) -> None:
        try:
            await self.inner.close()
        finally:
            await self._keys.close()
