"""Reflect's state sealed under the users' data keys (``security/sealed_reflect_state``),
over the SQLite adapter and vault: what the store holds is never the plaintext, it reads
back whole, a destroyed key hides its rows, and a value moved or altered is an error."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.adapters.sqlite_reflect_state import SqliteReflectState
from hindsight_common.errors import PersistenceError
from hindsight_common.ports.reflect_state import SessionRef
from hindsight_common.ports.reflector import KnownMemory
from hindsight_common.reflection.offline import Turn
from hindsight_common.security.data_keys import DataKeys
from hindsight_common.security.sealed_reflect_state import PREFIX, SealedReflectState

ANN, BOB = SessionRef("t1", "ann", "s1"), SessionRef("t1", "bob", "s1")
AT = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)


def turn(n: int, content: str) -> Turn:
    return Turn(f"e{n}", "Ann", "user", content, AT.replace(minute=n), f"x{n}")


Parts = tuple[SealedReflectState, SqliteReflectState, DataKeys]


@pytest.fixture
async def parts(tmp_path: Path) -> AsyncIterator[Parts]:
    inner = SqliteReflectState(tmp_path / "reflect.sqlite3")
    keys = DataKeys(SqliteKeyVault(tmp_path / "keys.sqlite3"), bytes(range(32)))
    sealed = SealedReflectState(inner, keys)
    yield sealed, inner, keys
    await sealed.close()


async def test_the_store_holds_only_sealed_text_and_reads_back_whole(parts: Parts, tmp_path: Path) -> None:
    sealed, inner, _ = parts
    await sealed.add_turns([(ANN, turn(1, "I moved to Zorblaxvale")), (BOB, turn(2, "Sailing at Quimbrook"))])
    await sealed.remember("t1", "ann", [KnownMemory("m1", "Ann", "home.city", "Zorblaxvale", "Ann lives in Zorblaxvale")])
    assert [t.content for t in await sealed.session_turns(ANN)] == ["I moved to Zorblaxvale"]
    assert await sealed.memories("t1", "ann") == [
        KnownMemory("m1", "Ann", "home.city", "Zorblaxvale", "Ann lives in Zorblaxvale")]
    stored = await inner.session_turns(ANN)
    assert stored[0].content.startswith(PREFIX) and stored[0].speaker.startswith(PREFIX)
    assert stored[0].event_id == "e1" and stored[0].occurred_at == AT.replace(minute=1)  # ids and times stay clear
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("reflect.sqlite3*"))
    assert b"Zorblaxvale" not in raw and b"Quimbrook" not in raw and b"e1" in raw


async def test_a_destroyed_key_hides_that_users_rows_only(parts: Parts) -> None:
    sealed, _, keys = parts
    await sealed.add_turns([(ANN, turn(1, "ann's words")), (BOB, turn(2, "bob's words"))])
    await sealed.remember("t1", "ann", [KnownMemory("m1", "Ann", "k", "v", "c")])
    assert await keys.destroy("t1", "ann") == 1
    assert await sealed.session_turns(ANN) == []
    assert await sealed.unreflected(ANN) == []
    assert await sealed.memories("t1", "ann") == []
    assert [t.content for t in await sealed.session_turns(BOB)] == ["bob's words"]
    # Ann's new content after the erasure is sealed with a new key and reads back.
    await sealed.add_turns([(ANN, turn(3, "a fresh start"))])
    assert [t.content for t in await sealed.session_turns(ANN)] == ["a fresh start"]


async def test_a_value_moved_to_another_row_or_altered_is_an_error(parts: Parts, tmp_path: Path) -> None:
    sealed, _, _ = parts
    await sealed.add_turns([(ANN, turn(1, "first")), (ANN, turn(2, "second"))])
    db = sqlite3.connect(tmp_path / "reflect.sqlite3")
    [(table,)] = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE '%content%'"
                            " AND name LIKE '%turn%'").fetchall()
    (second,) = db.execute(f"SELECT content FROM {table} WHERE event_id = 'e2'").fetchone()
    db.execute(f"UPDATE {table} SET content = ? WHERE event_id = 'e1'", (second,))
    db.commit()
    db.close()
    with pytest.raises(PersistenceError, match="does not open"):
        await sealed.session_turns(ANN)


async def test_plaintext_written_before_sealing_still_reads(parts: Parts) -> None:
    sealed, inner, _ = parts
    await inner.add_turns([(ANN, turn(1, "written before the wrapper"))])
    assert [t.content for t in await sealed.session_turns(ANN)] == ["written before the wrapper"]
