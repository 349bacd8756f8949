"""Crypto-shredding on the log: per-user data keys seal content before it reaches the log,
readers open it, and a destroyed key makes the user's events unreadable for good, for
every reader, while other users' events open as before."""

from __future__ import annotations

import base64
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hindsight_common.adapters.sqlite_key_vault import SqliteKeyVault
from hindsight_common.adapters.sqlite_log import SqliteLog
from hindsight_common.errors import ConfigurationError
from hindsight_common.events import InteractionRecorded, ReflectionRequested, serialize_event
from hindsight_common.events.erasure import SealedEvent, SubjectErased
from hindsight_common.security.data_keys import (
    DataKeys,
    SealError,
    master_key_from_settings,
    seal,
    unseal,
)
from hindsight_common.security.sealed_log import ERASED, SealedLog
from hindsight_common.settings import Settings
from hindsight_common.streams import CONTROL, INTERACTIONS

MARKER = "Quokkaberry-7731 lives at Ostrava"
MASTER = bytes(range(32))


def turn(user: str, content: str, n: int = 1) -> InteractionRecorded:
    return InteractionRecorded(tenant="acme", user=user, session="s1", speaker=user.title(), role="user",
                               content=content, occurred_at=datetime(2024, 5, 1, 10, n, tzinfo=UTC),
                               signature="k1:abcd")


def sealed_log(tmp_path: Path, master: bytes = MASTER) -> SealedLog:
    return SealedLog(SqliteLog(tmp_path / "log.sqlite3"),
                     DataKeys(SqliteKeyVault(tmp_path / "keys.sqlite3"), master))


def raw_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_seal_opens_only_with_its_key_and_its_associated_data() -> None:
    key = os.urandom(32)
    box = seal(key, b"hello", b"aad")
    assert unseal(key, box, b"aad") == b"hello"
    assert b"hello" not in box
    for wrong_key, aad in ((os.urandom(32), b"aad"), (key, b"other")):
        with pytest.raises(SealError):
            unseal(wrong_key, box, aad)
    tampered = box[:-1] + bytes([box[-1] ^ 1])
    with pytest.raises(SealError):
        unseal(key, tampered, b"aad")


async def test_content_is_sealed_on_the_log_and_opened_for_readers(tmp_path: Path) -> None:
    log = sealed_log(tmp_path)
    ann = turn("ann", MARKER)
    await log.append(INTERACTIONS, [ann])
    await log.append(CONTROL, [ReflectionRequested(tenant="acme", user="ann", occurred_at=ann.occurred_at)])
    assert MARKER.encode() not in raw_bytes(tmp_path)
    stored = await log.inner.read(INTERACTIONS)
    assert isinstance(stored[0].event, SealedEvent) and stored[0].event.sealed_type == "InteractionRecorded"
    assert stored[0].event.event_id == ann.event_id and stored[0].event.user == "ann"
    [record] = await log.read(INTERACTIONS)
    assert record.event == ann  # the signature (over the plaintext) comes back as it was
    sub = await log.subscribe("g", [INTERACTIONS, CONTROL])
    fetched = await sub.fetch(10, 0.1)
    assert fetched[0].event == ann
    assert isinstance(fetched[1].event, ReflectionRequested)  # control is not sealed
    await log.close()


async def test_destroying_a_users_keys_makes_only_their_events_unreadable(tmp_path: Path) -> None:
    log = sealed_log(tmp_path)
    await log.append(INTERACTIONS, [turn("ann", MARKER, 1), turn("bob", "Bob keeps bees", 2)])
    assert await log.destroy_subject_keys("acme", "ann") == 1
    assert await log.destroy_subject_keys("acme", "ann") == 0  # a retry destroys nothing more
    ann, bob = await log.read(INTERACTIONS)
    assert ann.event is None and ann.skipped == ERASED and ann.error is None
    assert isinstance(bob.event, InteractionRecorded) and bob.event.content == "Bob keeps bees"
    # A reader in another process (a fresh cache) and a replay see the same.
    again = sealed_log(tmp_path)
    assert [r.skipped for r in await again.read(INTERACTIONS)] == [ERASED, None]
    # Content written afterwards gets a new key and opens; the old events stay shut.
    await log.append(INTERACTIONS, [turn("ann", "Ann is back", 3)])
    assert [r.event.content if r.event else r.skipped for r in await again.read(INTERACTIONS)] == [
        ERASED, "Bob keeps bees", "Ann is back"]
    await log.close()
    await again.close()


async def test_subject_erased_drops_a_readers_cached_key(tmp_path: Path) -> None:
    writer, reader = sealed_log(tmp_path), sealed_log(tmp_path)
    await writer.append(INTERACTIONS, [turn("ann", MARKER)])
    assert (await reader.read(INTERACTIONS))[0].event is not None  # the reader caches ann's key
    await writer.destroy_subject_keys("acme", "ann")
    await writer.append(CONTROL, [SubjectErased(tenant="acme", user="ann", occurred_at=datetime.now(UTC),
                                                keys_destroyed=1)])
    await reader.read(CONTROL)  # SubjectErased passes through the reader
    assert (await reader.read(INTERACTIONS))[0].skipped == ERASED
    await writer.close()
    await reader.close()


async def test_a_tampered_sealed_record_is_a_poison_record(tmp_path: Path) -> None:
    log = sealed_log(tmp_path)
    await log.append(INTERACTIONS, [turn("ann", MARKER)])
    [stored] = await log.inner.read(INTERACTIONS)
    assert isinstance(stored.event, SealedEvent)
    box = bytearray(base64.b64decode(stored.event.ciphertext))
    box[20] ^= 1
    forged = stored.event.model_copy(update={"ciphertext": base64.b64encode(bytes(box)).decode()})
    await log.inner.append_raw(INTERACTIONS, "acme/ann", serialize_event(forged))
    _, bad = await log.read(INTERACTIONS)
    assert bad.event is None and bad.skipped is None and bad.error and "does not open" in bad.error
    await log.close()


async def test_another_master_key_cannot_open_the_vault(tmp_path: Path) -> None:
    log = sealed_log(tmp_path)
    await log.append(INTERACTIONS, [turn("ann", MARKER)])
    await log.close()
    other = sealed_log(tmp_path, master=bytes(32))
    with pytest.raises(ConfigurationError, match="master key"):
        await other.read(INTERACTIONS)
    await other.close()


def test_master_key_embedded_default_is_generated_private_and_reused(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    key = master_key_from_settings(settings)
    assert len(key) == 32
    assert stat.S_IMODE(settings.master_key_path.stat().st_mode) == 0o600
    assert master_key_from_settings(settings) == key


def test_master_key_is_required_in_a_cluster_and_checked(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="HINDSIGHT_MASTER_KEY"):
        master_key_from_settings(Settings(data_dir=tmp_path, log_backend="kafka"))
    with pytest.raises(ConfigurationError, match="32 bytes"):
        master_key_from_settings(Settings(master_key=base64.b64encode(b"short").decode()))
    with pytest.raises(ConfigurationError, match="base64"):
        master_key_from_settings(Settings(master_key="not base64!"))
    given = base64.b64encode(MASTER).decode()
    assert master_key_from_settings(Settings(log_backend="kafka", master_key=given)) == MASTER
    path = tmp_path / "master.key"
    path.write_text(given + "\n")
    assert master_key_from_settings(Settings(log_backend="kafka", master_key_file=path)) == MASTER
