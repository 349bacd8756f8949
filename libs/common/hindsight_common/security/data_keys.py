"""Per-user data keys (AES-256-GCM), envelope-encrypted by a master key.

Each (tenant, user) gets a random 256-bit data key the first time content of theirs is
written; the vault (``ports/key_vault.py``) stores it wrapped: AES-GCM under the master
key, with the tenant, user and key id as associated data, so a wrapped key moved to
another user's row does not open. Destroying a user's keys makes everything sealed with
them unreadable: crypto-shredding, the way an immutable log can forget.

The master key, in order: ``HINDSIGHT_MASTER_KEY`` (base64 of 32 bytes), else
``HINDSIGHT_MASTER_KEY_FILE`` (a file holding that base64), else, when the log is the
embedded SQLite file, ``<data dir>/keys/master.key``, generated on first start (mode
0600, logged once). A cluster (Kafka log) must be given one; starting without it is a
ConfigurationError. Losing the master key loses every user's content: back it up.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from hindsight_common.errors import ConfigurationError, HindsightError
from hindsight_common.events.base import utcnow
from hindsight_common.ports.key_vault import KeyVault, WrappedKey
from hindsight_common.settings import Settings

log = logging.getLogger(__name__)
KEY_BYTES = 32
NONCE_BYTES = 12


class SealError(HindsightError):
    """Sealed bytes that do not open: wrong key, tampered, or not sealed by us."""


def seal(key: bytes, plaintext: bytes, aad: bytes) -> bytes:
    """AES-256-GCM: a random 96-bit nonce followed by the ciphertext and its tag."""
    return sealer(key)(plaintext, aad)


def sealer(key: bytes) -> Callable[[bytes, bytes], bytes]:
    """:func:`seal` with ``key`` fixed, its cipher set up once (a batch seals many
    events of one user); a fresh random nonce every call."""
    cipher = AESGCM(key)

    def sealed(plaintext: bytes, aad: bytes) -> bytes:
        nonce = secrets.token_bytes(NONCE_BYTES)
        return nonce + cipher.encrypt(nonce, plaintext, aad)

    return sealed


def unseal(key: bytes, sealed: bytes, aad: bytes) -> bytes:
    """The plaintext of :func:`seal`'s output; raises SealError when it does not open."""
    if len(sealed) < NONCE_BYTES + 16:
        raise SealError("sealed bytes are too short")
    try:
        return AESGCM(key).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], aad)
    except InvalidTag as e:
        raise SealError("sealed bytes do not open with this key (wrong key or tampered)") from e


def _wrap_aad(tenant: str, user: str, key_id: str) -> bytes:
    return f"hindsight-data-key\x00{tenant}\x00{user}\x00{key_id}".encode()


# --- the master key -------------------------------------------------------------------

def master_key_from_settings(settings: Settings) -> bytes:
    """The process's master key (see the module); raises ConfigurationError when it is
    unusable or, outside the embedded mode, missing."""
    if settings.master_key:
        return parse_master_key(settings.master_key, "HINDSIGHT_MASTER_KEY")
    if settings.master_key_file is not None:
        return read_master_key(settings.master_key_file)
    if settings.log_backend == "sqlite":
        path = settings.master_key_path
        if not path.exists():
            create_master_key_file(path)
        return read_master_key(path)
    raise ConfigurationError(
        "a master key is required outside the embedded mode (it wraps the per-user data keys "
        "that seal content on the log): set HINDSIGHT_MASTER_KEY to the base64 of 32 random "
        "bytes (e.g. `openssl rand -base64 32`) or HINDSIGHT_MASTER_KEY_FILE to a file holding "
        "it (Kubernetes: in the hindsight-secrets Secret)")


def previous_master_keys(settings: Settings) -> list[bytes]:
    """The master key a rotation is replacing (``HINDSIGHT_MASTER_KEY_PREVIOUS``, else,
    embedded with the generated key, ``<data dir>/keys/master.key.previous`` if present):
    data keys it wrapped still open, nothing new is wrapped with it. Empty outside a
    rotation."""
    if settings.master_key_previous:
        return [parse_master_key(settings.master_key_previous, "HINDSIGHT_MASTER_KEY_PREVIOUS")]
    path = settings.master_key_previous_path
    if settings.log_backend == "sqlite" and not settings.master_key and settings.master_key_file is None and path.exists():
        return [read_master_key(path)]
    return []


def parse_master_key(text: str, origin: str) -> bytes:
    try:
        key = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError) as e:
        raise ConfigurationError(f"{origin}: the master key is not valid base64") from e
    if len(key) != KEY_BYTES:
        raise ConfigurationError(f"{origin}: the master key must be {KEY_BYTES} bytes, got {len(key)}")
    return key


def read_master_key(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"cannot read the master key file {path}: {e}") from e
    return parse_master_key(text, str(path))


def create_master_key_file(path: Path) -> None:
    """Write a new random master key (mode 0600, never overwriting: a second process
    starting at the same moment reads the first one's file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode() + "\n")
        f.flush()
        os.fsync(f.fileno())
    log.warning("generated a master key in %s: it unlocks every user's content on the log; "
                "back it up with the data directory", path)


# --- data keys --------------------------------------------------------------------------

@dataclass(frozen=True)
class DataKey:
    tenant: str
    user: str
    key_id: str
    secret: bytes


class DataKeys:
    """Data keys over a vault and the master key.

    A write always asks the vault for the user's live key (so nothing is ever sealed
    with a key another process destroyed); reads cache opened keys for ``ttl_s`` and
    :meth:`forget` drops a user's at once (the sealed log calls it on ``SubjectErased``).
    """

    def __init__(self, vault: KeyVault, master: bytes | Callable[[], bytes], *, ttl_s: float = 10.0,
                 previous: Sequence[bytes] | Callable[[], Sequence[bytes]] = ()) -> None:
        """``master`` may be a function, called on first use: a process that never seals
        or opens anything (``hindsight keys``) then needs no master key. ``previous``: master
        keys being rotated out (:func:`previous_master_keys`), tried when ``master`` does
        not open a stored key; never used to wrap one."""
        self.vault = vault
        self._master_source = master
        self._master_key: bytes | None = master if isinstance(master, bytes) else None
        self._previous_source = previous
        self._previous: list[bytes] | None = None
        self._ttl_s = ttl_s
        self._opened_keys: dict[str, tuple[float, DataKey | None]] = {}

    async def for_write(self, tenant: str, user: str) -> DataKey:
        """The user's live data key, created (and stored durably) if they have none."""
        master = self._master  # first: a missing master key fails before any I/O
        stored = await self.vault.current(tenant, user)
        if stored is None:
            secret = secrets.token_bytes(KEY_BYTES)
            key_id = uuid.uuid4().hex
            stored = await self.vault.create(WrappedKey(
                tenant, user, key_id, seal(master, secret, _wrap_aad(tenant, user, key_id)), utcnow()))
        return self._unwrap(stored)

    async def for_read(self, tenant: str, user: str, key_id: str) -> DataKey | None:
        """The user's key with this id, or None when it was destroyed (or never existed)."""
        cached = self._opened_keys.get(key_id)
        now = time.monotonic()
        if cached is not None and cached[0] > now:
            return cached[1]
        stored = await self.vault.find(tenant, user, key_id)
        key = self._unwrap(stored) if stored is not None else None
        self._opened_keys[key_id] = (now + self._ttl_s, key)
        return key

    async def destroy(self, tenant: str, user: str) -> int:
        """Destroy every key of the user (durably); returns how many."""
        self.forget(tenant, user)
        destroyed = await self.vault.destroy(tenant, user)
        self.forget(tenant, user)
        return destroyed

    def forget(self, tenant: str, user: str) -> None:
        """Drop the user's keys from this process's cache."""
        for key_id, (_, key) in list(self._opened_keys.items()):
            if key is not None and key.tenant == tenant and key.user == user:
                del self._opened_keys[key_id]

    @property
    def _master(self) -> bytes:
        if self._master_key is None:
            source = self._master_source
            self._master_key = source if isinstance(source, bytes) else source()
        return self._master_key

    @property
    def _previous_keys(self) -> list[bytes]:
        if self._previous is None:
            source = self._previous_source
            self._previous = list(source() if callable(source) else source)
        return self._previous

    def _opened(self, stored: WrappedKey) -> tuple[bytes, bool]:
        """The secret of a stored key, and whether the current master key wrapped it."""
        aad = _wrap_aad(stored.tenant, stored.user, stored.key_id)
        for n, master in enumerate([self._master, *self._previous_keys]):
            try:
                return unseal(master, stored.wrapped, aad), n == 0
            except SealError:
                continue
        raise ConfigurationError(
            f"data key {stored.key_id} does not open with this master key: is "
            "HINDSIGHT_MASTER_KEY the one the vault was written with? (During a rotation, "
            "HINDSIGHT_MASTER_KEY_PREVIOUS must hold the key being replaced.)")

    def _unwrap(self, stored: WrappedKey) -> DataKey:
        return DataKey(stored.tenant, stored.user, stored.key_id, self._opened(stored)[0])

    async def rewrap_all(self) -> tuple[int, int]:
        """Rewrap every stored data key that a previous master key wrapped with the
        current one (the end of a rotation: afterwards the previous key can be destroyed,
        and with it any copy of a wrapped key a store kept after its user's erasure).
        Returns (rewrapped, already wrapped by the current key). Raises
        ConfigurationError, before changing anything, when a key opens with neither."""
        master = self._master
        rewrapped = []
        current = 0
        for stored in await self.vault.every_key():
            secret, is_current = self._opened(stored)
            if is_current:
                current += 1
                continue
            rewrapped.append(WrappedKey(stored.tenant, stored.user, stored.key_id,
                                        seal(master, secret, _wrap_aad(stored.tenant, stored.user, stored.key_id)),
                                        stored.created_at))
        return (await self.vault.rewrap(rewrapped) if rewrapped else 0), current

    async def close(self) -> None:
        self._opened_keys.clear()
        await self.vault.close()
