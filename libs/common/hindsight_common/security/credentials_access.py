"""Who may do what: authenticate a bearer key, check its scope and tenant. Shared by the
HTTP routes (``services/hindsight_services/auth.py``), gRPC and, through the gateway, MCP.

    required  no key: AuthError (401); unknown, malformed or revoked key: AuthError
    off       no key: anonymous, acting on the tenant the request names (the default
              tenant when none), with every scope but ``admin``; a key that is sent is
              checked as when required, and then binds the request to its tenant

A key's tenant is the only tenant its requests may touch: a request that names another is
Forbidden (403), as is one that needs a scope the key lacks. Messages say which scope or
tenant was wrong and never echo the secret.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from typing import Literal

from hindsight_common.errors import AuthError, ConfigurationError, Forbidden, Problem, RateLimited
from hindsight_common.events.audit import ANONYMOUS, UNKNOWN_TENANT, AuditRecorded
from hindsight_common.ports.credentials import Credentials
from hindsight_common.security.credentials import KEY_PREFIX, Principal, bearer_token, key_id_of, key_matches
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.security.credentials_jwt import JwtVerifier
from hindsight_common.security.credentials_limits import RateLimiter
from hindsight_common.settings import Settings

log = logging.getLogger(__name__)

SEND_A_KEY = f"send Authorization: Bearer <API key> (a {KEY_PREFIX}... key from `hindsight keys create`)"
ANONYMOUS_SCOPES = frozenset({"read", "write", "erase"})


Interface = Literal["http", "grpc", "cli"]


class Authenticator:
    """Checks credentials against ``store``; ``required`` is ``HINDSIGHT_AUTH=required``.
    With an ``audit`` trail, every failed authentication is queued on it."""

    def __init__(self, store: Credentials, *, required: bool, limiter: RateLimiter | None = None,
                 audit: AuditTrail | None = None, jwt: JwtVerifier | None = None) -> None:
        self.store = store
        self.required = required
        self.limiter = limiter
        self.audit = audit
        self.jwt = jwt

    @classmethod
    def from_settings(cls, settings: Settings, open_store: Callable[[], Credentials],
                      audit: AuditTrail | None = None) -> Authenticator:
        """The authenticator ``settings`` describe, over the store ``open_store`` opens
        (only once the settings are known to work). Raises ConfigurationError for JWT
        settings that cannot work."""
        limiter = (RateLimiter(settings.rate_limit_per_s, settings.rate_limit_burst)
                   if settings.rate_limit_per_s > 0 else None)
        verifier = None
        if settings.jwt_jwks:
            if not settings.jwt_issuer or not settings.jwt_audience:
                raise ConfigurationError(
                    "HINDSIGHT_JWT_JWKS needs HINDSIGHT_JWT_ISSUER and HINDSIGHT_JWT_AUDIENCE: "
                    "the iss and aud every accepted token must carry")
            verifier = JwtVerifier(
                settings.jwt_jwks, issuer=settings.jwt_issuer, audience=settings.jwt_audience,
                tenant_claim=settings.jwt_tenant_claim, scopes_claim=settings.jwt_scopes_claim,
                algorithms=[a.strip() for a in settings.jwt_algorithms.split(",") if a.strip()])
        return cls(open_store(), required=settings.auth == "required", limiter=limiter, audit=audit,
                   jwt=verifier)

    async def authenticate(self, authorization: str | None, *, interface: Interface = "http",
                           target: str | None = None) -> Principal | None:
        """The principal an ``Authorization`` value names; None for an anonymous request
        while auth is off. Raises AuthError (no, malformed, unknown or revoked key),
        RateLimited (the key is over its limit), PersistenceError (the store is down).
        ``interface`` and ``target`` (the route or rpc) go into the audit of a failure."""

        def refuse(message: str, reason: str, key_id: str | None = None,
                   tenant: str = UNKNOWN_TENANT) -> AuthError:
            if self.audit is not None:
                self.audit.note(AuditRecorded(
                    tenant=tenant, user=key_id or UNKNOWN_TENANT, occurred_at=now(), action="auth.failed",
                    outcome="denied", credential=key_id, interface=interface, target=target, reason=reason))
            return AuthError(message)

        sent = (authorization or "").strip()
        if not sent:
            if self.required:
                raise refuse(f"this gateway requires an API key: {SEND_A_KEY}", "no credential")
            return None
        token = bearer_token(sent)
        if token is None:
            raise refuse(f"the Authorization header is not a bearer token: {SEND_A_KEY}", "not a bearer token")
        key_id = key_id_of(token)
        if key_id is None and self.jwt is not None and not token.startswith(KEY_PREFIX):
            try:
                return self._limited(await self.jwt.verify(token))
            except AuthError as e:
                raise refuse(str(e), f"JWT: {e}") from e
        if key_id is None:
            raise refuse(f"the bearer token is not a Hindsight API key ({KEY_PREFIX}<id>_<secret>)",
                         "not a Hindsight API key")
        record = await self.store.find(key_id)
        if record is None or not key_matches(record, token):
            log.warning("authentication failed: unknown key id or wrong secret (key %s)", key_id)
            raise refuse(f"API key {key_id} is not valid: unknown key id or wrong secret",
                         "unknown key id or wrong secret", key_id, record.tenant if record else UNKNOWN_TENANT)
        if record.revoked_at is not None:
            log.warning("authentication failed: revoked key %s", key_id)
            raise refuse(f"API key {key_id} was revoked at {record.revoked_at.isoformat()}",
                         "revoked key", key_id, record.tenant)
        return self._limited(Principal(record.key_id, record.tenant, record.scopes))

    def _limited(self, principal: Principal) -> Principal:
        """``principal``, when its bucket has a token; raises RateLimited otherwise."""
        if self.limiter is not None:
            wait = self.limiter.take(principal.key_id)
            if wait > 0:
                raise RateLimited(
                    f"credential {principal.key_id} is over its rate limit ({self.limiter.rate:g} requests/s, "
                    f"burst {self.limiter.burst}); retry in {wait:.2f} s", wait)
        return principal


def require_scope(principal: Principal | None, scope: str, what: str) -> None:
    """Return when ``principal`` (None: anonymous, auth off) holds ``scope``; otherwise
    raise Forbidden naming the scope and ``what`` needs it."""
    held = ANONYMOUS_SCOPES if principal is None else principal.scopes
    if scope in held:
        return
    if principal is None:
        message = f"{what} needs an API key with the {scope!r} scope; {SEND_A_KEY}"
    else:
        have = ", ".join(sorted(principal.scopes)) or "none"
        message = f"{what} needs the {scope!r} scope; API key {principal.key_id} has {have}"
    raise Forbidden(message, [Problem("authorization", f"missing scope {scope!r}")])


def tenant_for(principal: Principal | None, asked: str | None, default: str, field: str = "tenant") -> str:
    """The tenant a request acts on: its key's (a named tenant must match it), or for an
    anonymous request the one it names, else ``default``. Raises Forbidden naming both
    tenants when they differ."""
    if principal is None:
        return asked or default
    if asked is not None and asked != principal.tenant:
        raise Forbidden(
            f"API key {principal.key_id} belongs to tenant {principal.tenant!r} and cannot act on "
            f"tenant {asked!r}", [Problem(field, f"must be {principal.tenant!r} (the key's tenant) or left out")])
    return principal.tenant


def forbidden_event(principal: Principal | None, e: Forbidden, what: str, interface: Interface) -> AuditRecorded:
    """The audit event of a refusal (403): who, what they tried, and the problem's message
    (which names a scope or a tenant, never content)."""
    reason = e.problems[0].message if e.problems else e.message
    return AuditRecorded(
        tenant=principal.tenant if principal else UNKNOWN_TENANT,
        user=principal.key_id if principal else ANONYMOUS, occurred_at=now(), action="auth.forbidden",
        outcome="denied", credential=principal.key_id if principal else None, interface=interface,
        target=what, reason=reason[:500])


def now() -> datetime:
    return datetime.now(UTC)
