"""Where the signing keys come from, and rotating the embedded mode's keyring file.

In order: ``HINDSIGHT_SIGNING_KEYS`` (JSON kid -> base64 secret) with
``HINDSIGHT_SIGNING_KEY_ID`` naming the active one (optional with a single key);
else ``HINDSIGHT_SIGNING_KEYRING_FILE``; else, when the log is the embedded SQLite file,
``<data dir>/keys/signing.json``, generated on first start (mode 0600). A cluster (Kafka
log) has no data directory of its own: it must be given its keys (in Kubernetes, from the
``hindsight-secrets`` Secret), and starting without them is a ConfigurationError.

The keyring is read once per process (restart to pick up a rotation).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from hindsight_common.errors import ConfigurationError
from hindsight_common.security.signed_items import Integrity
from hindsight_common.security.signing import Keyring
from hindsight_common.settings import Settings

log = logging.getLogger(__name__)
SECRET_BYTES = 32


def keyring_from_settings(settings: Settings) -> Keyring:
    """The process's keyring (see the module); raises ConfigurationError when the keys
    are unusable or, outside the embedded mode, missing."""
    embedded = settings.signing_keyring_path if settings.log_backend == "sqlite" else None
    return _cached(tuple(sorted(settings.signing_keys.items())), settings.signing_key_id,
                   settings.signing_keyring_file, embedded)


def integrity_from_settings(settings: Settings) -> Integrity:
    """What recall and browsing verify documents with (the process's keyring)."""
    return Integrity(keyring_from_settings(settings), settings.require_signatures)


@lru_cache(maxsize=8)
def _cached(keys: tuple[tuple[str, str], ...], active: str | None, file: Path | None,
            embedded: Path | None) -> Keyring:
    if keys:
        ring = parse_keys(dict(keys), active, "HINDSIGHT_SIGNING_KEYS")
        source = "HINDSIGHT_SIGNING_KEYS"
    elif file is not None:
        ring = load_keyring_file(file)
        source = str(file)
    elif embedded is not None:
        if not embedded.exists():
            create_keyring_file(embedded)
        ring = load_keyring_file(embedded)
        source = str(embedded)
    else:
        raise ConfigurationError(
            "signing keys are required outside the embedded mode: set HINDSIGHT_SIGNING_KEYS "
            '(e.g. {"k1": "<base64 of 32 random bytes>"}) and HINDSIGHT_SIGNING_KEY_ID, or '
            "HINDSIGHT_SIGNING_KEYRING_FILE (Kubernetes: in the hindsight-secrets Secret)")
    log.info("signing with key id %s (%d key(s), from %s)", ring.active, len(ring.key_ids), source)
    return ring


def parse_keys(keys: Mapping[str, str], active: str | None, origin: str) -> Keyring:
    """A keyring from kid -> base64 secrets; ``active`` may be omitted with one key."""
    decoded: dict[str, bytes] = {}
    for kid, text in keys.items():
        try:
            decoded[kid] = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as e:
            raise ConfigurationError(f"{origin}: the secret of key {kid!r} is not valid base64") from e
    if active is None:
        if len(decoded) != 1:
            raise ConfigurationError(
                f"{origin} holds {len(decoded)} keys: say which one signs (HINDSIGHT_SIGNING_KEY_ID)")
        active = next(iter(decoded))
    return Keyring(decoded, active)


def load_keyring_file(path: Path) -> Keyring:
    """The keyring in a JSON file ``{"active": kid, "keys": {kid: base64}}``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ConfigurationError(f"cannot read the signing keyring {path}: {e}") from e
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict) or not isinstance(
            data.get("active"), str):
        raise ConfigurationError(f'{path} must hold {{"active": kid, "keys": {{kid: base64}}}}')
    return parse_keys({str(k): str(v) for k, v in data["keys"].items()}, data["active"], str(path))


def new_key_id() -> str:
    return f"k{datetime.now(UTC):%Y%m%d}-{secrets.token_hex(3)}"


def create_keyring_file(path: Path) -> str:
    """Write a new keyring with one random key (mode 0600, never overwriting: a second
    process starting at the same moment reads the first one's file); returns its kid."""
    kid = new_key_id()
    _write_new(path, {"active": kid, "keys": {kid: _secret()}})
    log.warning("generated a signing key %s in %s; back it up with the data directory", kid, path)
    return kid


def rotate_keyring_file(path: Path) -> str:
    """Add a new random key to the keyring file and make it the active one; the older
    keys stay, so what they signed still verifies. Returns the new kid."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"keys": {}}
    kid = new_key_id()
    data["keys"][kid] = _secret()
    data["active"] = kid
    tmp = path.with_name(path.name + ".new")
    tmp.unlink(missing_ok=True)
    _write_new(tmp, data)
    os.replace(tmp, path)
    return kid


def rotate_configured(settings: Settings) -> tuple[str, Path]:
    """``hindsight signing rotate``: rotate the keyring file these settings use (their
    HINDSIGHT_SIGNING_KEYRING_FILE, else the embedded one in the data directory); returns
    the new kid and the file. Keys given in HINDSIGHT_SIGNING_KEYS are rotated by
    changing that setting instead (ConfigurationError)."""
    if settings.signing_keys:
        raise ConfigurationError(
            "the keys come from HINDSIGHT_SIGNING_KEYS: rotate by adding a key there and pointing "
            "HINDSIGHT_SIGNING_KEY_ID at it (keep the old keys), then restart")
    path = settings.signing_keyring_file or settings.signing_keyring_path
    if not path.exists():
        raise ConfigurationError(f"no signing keyring at {path} (it is created on the first start)")
    return rotate_keyring_file(path), path


def _secret() -> str:
    return base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def _write_new(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.flush()
        os.fsync(f.fileno())
