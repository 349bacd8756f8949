"""Signatures of recallable items: HMAC-SHA256 over a canonical form, with a key id.

What is signed (:class:`Signable`): tenant, user, id, content, kind, key and provenance
(the source event ids). The canonical form is the JSON object of those seven fields
with sorted keys, no whitespace (``","`` and ``":"`` separators), non-ASCII characters
kept as UTF-8 (``ensure_ascii=False``) and provenance as a list in the given order,
encoded as UTF-8. A signature is ``"<kid>:<64 hex digits>"``: the key id says which key
of the :class:`Keyring` signed it, so keys can rotate (one active key signs, older
keys stay to verify what they signed).

Signatures are computed once, where the event is built before the log append, and
travel inside the event (``Event.signature``) into every projection's payload; a
replay copies them and never re-signs.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from hindsight_common.errors import ConfigurationError

#: Secrets shorter than this are refused: HMAC-SHA256 wants at least 128 bits.
MIN_SECRET_BYTES = 16


@dataclass(frozen=True)
class Signable:
    """The fields of an item a signature covers (see the module's canonical form)."""

    tenant: str
    user: str
    id: str
    content: str
    kind: str
    key: str
    provenance: tuple[str, ...] = ()


def canonical(item: Signable) -> bytes:
    """The canonical form of ``item``: sorted-key JSON, no whitespace, UTF-8."""
    fields = {
        "tenant": item.tenant,
        "user": item.user,
        "id": item.id,
        "content": item.content,
        "kind": item.kind,
        "key": item.key,
        "provenance": list(item.provenance),
    }
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Verdict(Enum):
    """What verifying a stored item found."""

    VALID = "valid"
    UNSIGNED = "unsigned"  # written before signing existed (or by a writer without keys)
    MISMATCH = "mismatch"  # the stored fields no longer match the signature: tampered
    UNKNOWN_KEY = "unknown_key"  # signed by a key this keyring does not hold
    MALFORMED = "malformed"  # not "kid:hex"


class Keyring:
    """Signing keys by id: ``active`` signs, every key verifies what it signed."""

    def __init__(self, keys: Mapping[str, bytes], active: str) -> None:
        if not keys:
            raise ConfigurationError("a signing keyring needs at least one key")
        for kid, secret in keys.items():
            if not kid or ":" in kid or kid != kid.strip():
                raise ConfigurationError(
                    f"signing key id {kid!r} must be non-empty, without ':' or surrounding spaces")
            if len(secret) < MIN_SECRET_BYTES:
                raise ConfigurationError(
                    f"signing key {kid!r} is {len(secret)} bytes; use at least {MIN_SECRET_BYTES} random bytes")
        if active not in keys:
            raise ConfigurationError(
                f"the active signing key id {active!r} is not among the keys ({', '.join(sorted(keys))})")
        self._keys = dict(keys)
        self.active = active

    @property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self._keys))

    def sign(self, item: Signable) -> str:
        """``item``'s signature with the active key: ``"<kid>:<hex>"``."""
        return f"{self.active}:{self._mac(self._keys[self.active], item)}"

    def verify(self, item: Signable, signature: str | None) -> Verdict:
        """Whether ``signature`` is the signature of ``item`` by one of these keys."""
        if not signature:
            return Verdict.UNSIGNED
        kid, sep, digest = signature.rpartition(":")
        if not sep or not kid or len(digest) != 64:
            return Verdict.MALFORMED
        secret = self._keys.get(kid)
        if secret is None:
            return Verdict.UNKNOWN_KEY
        ok = hmac.compare_digest(self._mac(secret, item), digest.lower())
        return Verdict.VALID if ok else Verdict.MISMATCH

    @staticmethod
    def _mac(secret: bytes, item: Signable) -> str:
        return hmac.digest(secret, canonical(item), "sha256").hex()  # one-shot: OpenSSL's fast path
