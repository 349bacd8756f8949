"""API keys: how they are made, what they look like, how one is checked. Pure: no I/O.

A key reads ``hsk_<key id>_<secret>``: ``hsk_`` makes a leaked key recognisable (secret
scanners, logs), the key id (12 hex digits) is public and names the key in ``hindsight
keys list``/``revoke`` and in logs, and the secret is 256 random bits
(``secrets.token_urlsafe(32)``). The whole key is shown once, when it is created; only
its SHA-256 is stored. A salted slow hash would add nothing for 256-bit random secrets
(no dictionary to try); what matters is comparing in constant time
(:func:`key_matches`).

Each key is bound to one tenant and holds scopes from :data:`SCOPES`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from hindsight_common.errors import InvalidInput, Problem

KEY_PREFIX = "hsk_"
SCOPES = ("read", "write", "admin", "erase")
KEY_ID_LENGTH = 12
_KEY = re.compile(rf"^{KEY_PREFIX}(?P<key_id>[0-9a-f]{{{KEY_ID_LENGTH}}})_(?P<secret>[A-Za-z0-9_-]{{43}})$")
# As the API's Identifier: 1-200 characters, no control characters, no "/".
_TENANT = re.compile(r"^[^\x00-\x1f/]{1,200}$")


@dataclass(frozen=True)
class ApiKey:
    """A stored key: everything but the secret, which only its hash stands for."""

    key_id: str
    tenant: str
    scopes: frozenset[str]
    key_hash: str
    created_at: datetime
    name: str | None = None
    revoked_at: datetime | None = None

    def describe(self) -> dict[str, object]:
        """What may be shown about the key (list, admin API): never the hash."""
        return {
            "key_id": self.key_id,
            "tenant": self.tenant,
            "scopes": sorted(self.scopes, key=SCOPES.index),
            "name": self.name,
            "created_at": self.created_at.isoformat(),
            "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None,
        }


@dataclass(frozen=True)
class Principal:
    """Who a request acts as: the key that authenticated it, its tenant and scopes."""

    key_id: str
    tenant: str
    scopes: frozenset[str]


def parse_scopes(scopes: str | Iterable[str], field: str = "scopes") -> frozenset[str]:
    """``"read,write"`` or ``["read", "write"]`` as a set; raises InvalidInput naming
    any unknown scope, or when none is given."""
    names = [s.strip() for s in (scopes.split(",") if isinstance(scopes, str) else scopes)]
    names = [s for s in names if s]
    unknown = [s for s in names if s not in SCOPES]
    if unknown:
        raise InvalidInput(f"unknown scope {', '.join(map(repr, unknown))}", [
            Problem(field, f"scopes are {', '.join(SCOPES)}; got {', '.join(unknown)}")])
    if not names:
        raise InvalidInput("no scope given", [Problem(field, f"give one or more of {', '.join(SCOPES)}")])
    return frozenset(names)


def check_tenant(tenant: str, field: str = "tenant") -> str:
    """``tenant`` when it is a valid tenant id (as the API's identifiers); raises InvalidInput."""
    if not _TENANT.match(tenant) or tenant != tenant.strip():
        raise InvalidInput("invalid tenant", [Problem(
            field, "1-200 characters, no control characters, no '/', no surrounding spaces")])
    return tenant


def hash_key(key: str) -> str:
    """The stored form of a key: SHA-256, hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key(tenant: str, scopes: Iterable[str], created_at: datetime,
            name: str | None = None) -> tuple[str, ApiKey]:
    """A fresh key: ``(the key to show once, what to store)``. Raises InvalidInput for an
    unknown scope or an invalid tenant."""
    key_id = secrets.token_hex(KEY_ID_LENGTH // 2)
    key = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    record = ApiKey(key_id=key_id, tenant=check_tenant(tenant), scopes=parse_scopes(scopes),
                    key_hash=hash_key(key), created_at=created_at, name=name)
    return key, record


def key_id_of(key: str) -> str | None:
    """The key id of something shaped like a key; None for anything else."""
    m = _KEY.match(key)
    return m.group("key_id") if m else None


def key_matches(record: ApiKey, key: str) -> bool:
    """Whether ``key`` is the key ``record`` stores, compared in constant time: how long
    a wrong key took to reject says nothing about the right one."""
    return hmac.compare_digest(hash_key(key), record.key_hash)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` value; None for anything else."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None
