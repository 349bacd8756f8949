"""JSON Web Tokens as credentials, beside API keys: a bearer token that is not an API key is
checked as a JWT when ``HINDSIGHT_JWT_JWKS`` is set.

A token is accepted only when it is signed by a key of the JWKS (a file, or an http(s) URL
fetched with a timeout and cached), with an asymmetric algorithm from
``HINDSIGHT_JWT_ALGORITHMS`` (never ``none`` or a shared-secret HMAC: the JWKS is public),
and carries ``exp``, the configured issuer (``iss``) and audience (``aud``). Its tenant is
the ``HINDSIGHT_JWT_TENANT_CLAIM`` claim; its scopes are the ``HINDSIGHT_JWT_SCOPES_CLAIM``
claim (a space-separated string, as OAuth's ``scope``, or a list), of which the names in
``SCOPES`` count and any other (``openid``, ...) is ignored. The principal is named
``jwt:<sub>``, which is what messages, rate limits and the audit trail see.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import jwt

from hindsight_common.errors import AuthError, ConfigurationError, InvalidInput
from hindsight_common.security.credentials import SCOPES, Principal, check_tenant

ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
# A token naming a key id the cached set lacks triggers a refetch (the IdP rotated its
# keys), but at most this often, so made-up key ids cannot make us hammer the IdP.
MIN_REFETCH_S = 30.0


class JwtVerifier:
    def __init__(self, jwks: str, *, issuer: str, audience: str, tenant_claim: str = "tenant",
                 scopes_claim: str = "scope", algorithms: Sequence[str] = ("RS256", "ES256"),
                 cache_s: float = 300.0, timeout_s: float = 5.0) -> None:
        bad = [a for a in algorithms if a not in ASYMMETRIC]
        if bad or not algorithms:
            raise ConfigurationError(
                f"HINDSIGHT_JWT_ALGORITHMS: only asymmetric algorithms ({', '.join(ASYMMETRIC)}); got {bad or 'none'}")
        self.jwks = jwks
        self.issuer = issuer
        self.audience = audience
        self.tenant_claim = tenant_claim
        self.scopes_claim = scopes_claim
        self.algorithms = list(algorithms)
        self._cache_s = cache_s
        self._timeout_s = timeout_s
        self._keys: jwt.PyJWKSet | None = None
        self._fetched = 0.0
        self._lock = asyncio.Lock()

    async def verify(self, token: str) -> Principal:
        """The principal a valid token names. Raises AuthError saying what is wrong with
        it (never echoing it)."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError as e:
            raise AuthError(f"the bearer token is neither an API key nor a JWT ({e})") from e
        kid = header.get("kid")
        if header.get("alg") not in self.algorithms:
            raise AuthError(f"the JWT's algorithm {header.get('alg')!r} is not accepted "
                            f"(accepted: {', '.join(self.algorithms)})")
        key = await self._key(kid if isinstance(kid, str) else None)
        try:
            claims: dict[str, Any] = jwt.decode(
                token, key=key.key, algorithms=self.algorithms, audience=self.audience, issuer=self.issuer,
                options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.ExpiredSignatureError as e:
            raise AuthError("the JWT has expired") from e
        except jwt.InvalidAudienceError as e:
            raise AuthError(f"the JWT is not for this audience (expected {self.audience!r})") from e
        except jwt.InvalidIssuerError as e:
            raise AuthError(f"the JWT is not from the expected issuer {self.issuer!r}") from e
        except jwt.MissingRequiredClaimError as e:
            raise AuthError(f"the JWT lacks the {e.claim!r} claim") from e
        except jwt.InvalidTokenError as e:
            raise AuthError(f"the JWT is not valid ({type(e).__name__})") from e
        return self._principal(claims)

    def _principal(self, claims: dict[str, Any]) -> Principal:
        tenant = claims.get(self.tenant_claim)
        if not isinstance(tenant, str):
            raise AuthError(f"the JWT has no {self.tenant_claim!r} claim naming its tenant")
        try:
            check_tenant(tenant)
        except InvalidInput as e:
            raise AuthError(f"the JWT's {self.tenant_claim!r} claim is not a valid tenant") from e
        raw = claims.get(self.scopes_claim, "")
        if isinstance(raw, str):
            names = raw.split()
        else:
            names = [s for s in raw if isinstance(s, str)] if isinstance(raw, list) else []
        subject = str(claims["sub"])[:90]
        return Principal(f"jwt:{subject}", tenant, frozenset(n for n in names if n in SCOPES))

    async def _key(self, kid: str | None) -> jwt.PyJWK:
        keys = await self._key_set(refresh=False)
        found = _find(keys, kid)
        if found is None and time.monotonic() - self._fetched >= MIN_REFETCH_S:
            found = _find(await self._key_set(refresh=True), kid)
        if found is None:
            raise AuthError(f"the JWT is signed with a key the JWKS does not hold (kid {kid!r})")
        return found

    async def _key_set(self, refresh: bool) -> jwt.PyJWKSet:
        async with self._lock:
            stale = time.monotonic() - self._fetched > self._cache_s
            if self._keys is None or stale or refresh:
                document = await self._load()
                try:
                    self._keys = jwt.PyJWKSet.from_dict(document)
                except jwt.PyJWKSetError as e:
                    raise AuthError(f"the JWKS at {self.jwks} holds no usable key ({e})") from e
                self._fetched = time.monotonic()
            return self._keys

    async def _load(self) -> dict[str, Any]:
        """The JWKS document. Raises AuthError when it cannot be read (the request is
        refused: without keys no token can be checked)."""
        try:
            if self.jwks.startswith(("http://", "https://")):
                async with httpx.AsyncClient(timeout=self._timeout_s) as client:
                    r = await client.get(self.jwks)
                    r.raise_for_status()
                    data: Any = r.json()
            else:
                data = json.loads(await asyncio.to_thread(Path(self.jwks).read_text))
        except (httpx.HTTPError, OSError, ValueError) as e:
            raise AuthError(f"cannot read the JWKS at {self.jwks} ({type(e).__name__}); "
                            "JWTs cannot be checked until it can") from e
        if not isinstance(data, dict):
            raise AuthError(f"the JWKS at {self.jwks} is not a JSON object")
        return data


def _find(keys: jwt.PyJWKSet, kid: str | None) -> jwt.PyJWK | None:
    if kid is None:
        return keys.keys[0] if len(keys.keys) == 1 else None
    return next((k for k in keys.keys if k.key_id == kid), None)
