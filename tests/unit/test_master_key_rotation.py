"""Rotating the master key that wraps the users' data keys (``DataKeys.rewrap_all``,
``hindsight master-key rewrap``): during a rotation the previous key still opens what it
wrapped and wraps nothing new; the rewrap moves every key to the new master, after which
the previous key opens nothing the vault holds, so a copy of a destroyed user's wrapped
key (a WAL page, a backup) is useless once the previous key is gone."""

from __future__ import annotations

import asyncio
import base64
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.errors import ConfigurationError
from hindsight_common.events import InteractionRecorded
from hindsight_common.factory import make_log
from hindsight_common.security.data_keys import DataKeys, SealError, previous_master_keys, unseal
from hindsight_common.settings import Settings
from hindsight_common.streams import INTERACTIONS
from hindsight_services.cli import main

OLD, NEW, OTHER = bytes(range(32)), bytes(range(1, 33)), bytes(32)


def vault(tmp_path: Path) -> SqliteKeyVault:
    return SqliteKeyVault(tmp_path / "keys.sqlite3")


def opens(master: bytes, wrapped: bytes, tenant: str, user: str, key_id: str) -> bool:
    try:
        unseal(master, wrapped, f"hindsight-data-key\x00{tenant}\x00{user}\x00{key_id}".encode())
        return True
    except SealError:
        return False


async def test_a_rotation_keeps_every_key_open_and_the_rewrap_leaves_the_previous_key_useless(tmp_path: Path) -> None:
    before = DataKeys(vault(tmp_path), OLD)
    ann, bob = await before.for_write("t", "ann"), await before.for_write("t", "bob")
    stolen = await before.vault.current("t", "bob")  # a copy a store might keep after bob's erasure
    assert stolen is not None
    await before.destroy("t", "bob")
    await before.close()

    during = DataKeys(vault(tmp_path), NEW, previous=[OLD])
    assert await during.for_read("t", "ann", ann.key_id) == ann  # the previous key still opens it
    cid = await during.for_write("t", "cid")  # new keys are wrapped with the new master only
    stored_cid = await during.vault.current("t", "cid")
    assert stored_cid is not None and opens(NEW, stored_cid.wrapped, "t", "cid", cid.key_id)
    assert not opens(OLD, stored_cid.wrapped, "t", "cid", cid.key_id)
    assert await during.rewrap_all() == (1, 1)
    assert await during.rewrap_all() == (0, 2)  # idempotent
    await during.close()

    after = DataKeys(vault(tmp_path), NEW)  # the previous key is gone
    try:
        assert await after.for_read("t", "ann", ann.key_id) == ann
        assert all(not opens(OLD, k.wrapped, k.tenant, k.user, k.key_id) for k in await after.vault.every_key())
        # bob's copied wrapped key opened with the old master, which no one has any more;
        # the new one never wrapped it.
        assert opens(OLD, stolen.wrapped, "t", "bob", bob.key_id)
        assert not opens(NEW, stolen.wrapped, "t", "bob", bob.key_id)
    finally:
        await after.close()


async def test_a_key_neither_master_opens_stops_the_rewrap_before_any_change(tmp_path: Path) -> None:
    keys = DataKeys(vault(tmp_path), OTHER)
    await keys.for_write("t", "ann")
    await keys.close()
    keys = DataKeys(vault(tmp_path), OLD)
    await keys.for_write("t", "bob")
    await keys.close()
    rotating = DataKeys(vault(tmp_path), NEW, previous=[OLD])
    try:
        with pytest.raises(ConfigurationError, match="HINDSIGHT_MASTER_KEY_PREVIOUS"):
            await rotating.rewrap_all()
        [bob] = [k for k in await rotating.vault.every_key() if k.user == "bob"]
        assert opens(OLD, bob.wrapped, "t", "bob", bob.key_id)  # untouched
    finally:
        await rotating.close()


def test_the_previous_key_comes_from_the_setting_or_the_embedded_file(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert previous_master_keys(settings) == []
    settings.master_key_previous_path.parent.mkdir(parents=True)
    settings.master_key_previous_path.write_text(base64.b64encode(OLD).decode())
    assert previous_master_keys(settings) == [OLD]
    given = Settings(data_dir=tmp_path, master_key_previous=base64.b64encode(OTHER).decode())
    assert previous_master_keys(given) == [OTHER]
    with pytest.raises(ConfigurationError, match="HINDSIGHT_MASTER_KEY_PREVIOUS"):
        previous_master_keys(Settings(data_dir=tmp_path, master_key_previous="not base64!"))


async def test_the_embedded_rotation_end_to_end_through_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(data_dir=tmp_path)
    log = make_log(settings)
    turn = InteractionRecorded(tenant="t", user="ann", session="s1", speaker="Ann", role="user",
                               content="my locker code is 4471", occurred_at=datetime(2024, 5, 1, tzinfo=UTC))
    await log.append(INTERACTIONS, [turn])
    await log.close()
    old = settings.master_key_path.read_bytes()
    # Step 1: the old key moves aside; the next start generates a new one.
    settings.master_key_path.rename(settings.master_key_previous_path)
    log = make_log(settings)
    [record] = await log.read(INTERACTIONS, after=-1, limit=10)  # opened with the previous key
    assert isinstance(record.event, InteractionRecorded) and record.event.content == "my locker code is 4471"
    await log.close()
    assert settings.master_key_path.read_bytes() != old
    # Step 2 and 3: rewrap, then forget the previous key.
    assert await asyncio.to_thread(main, ["master-key", "rewrap", "--data-dir", str(tmp_path), "--forget-previous"]) == 0
    out = capsys.readouterr().out
    assert "rewrapped 1 data key(s)" in out and "deleted" in out
    assert not settings.master_key_previous_path.exists()
    log = make_log(settings)  # the new key alone
    try:
        [record] = await log.read(INTERACTIONS, after=-1, limit=10)
        assert isinstance(record.event, InteractionRecorded) and record.event.content == "my locker code is 4471"
    finally:
        await log.close()
    assert await asyncio.to_thread(main, ["master-key", "rewrap", "--data-dir", str(tmp_path)]) == 0
    assert "rewrapped 0 data key(s) with the current master key; 1 already were" in capsys.readouterr().out
