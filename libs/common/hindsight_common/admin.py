"""Admin-only request options, allowed only with the admin token.

Until API keys with per-tenant scopes exist, one shared secret (``HINDSIGHT_ADMIN_TOKEN``,
``Settings.admin_token``) marks a caller as an administrator. It travels as
``Authorization: Bearer <token>``: the HTTP header, or the ``authorization`` metadata
over gRPC. Without the setting every admin option is refused, so a gateway never
exposes them by accident.
"""

from __future__ import annotations

import hmac

from hindsight_common.errors import Forbidden, Problem
from hindsight_common.settings import Settings

ENV_ADMIN_TOKEN = "HINDSIGHT_ADMIN_TOKEN"


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` value; None for anything else."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def require_admin(settings: Settings, authorization: str | None, option: str) -> None:
    """Return when ``authorization`` carries the admin token; otherwise raise Forbidden
    naming ``option`` (the request field that needs it) and what to do about it."""
    configured = settings.admin_token
    if not configured:
        raise Forbidden(
            f"{option} is an admin option and admin options are disabled on this gateway "
            f"until {ENV_ADMIN_TOKEN} is set",
            [Problem(option, f"admin options are disabled until {ENV_ADMIN_TOKEN} is set")],
        )
    token = bearer_token(authorization)
    # compare_digest: how long a wrong token took to reject says nothing about the right one.
    if token is None or not hmac.compare_digest(token.encode(), configured.encode()):
        sent = "the token sent is not the admin token" if token else "no admin token was sent"
        raise Forbidden(
            f"{option} needs an admin token ({sent}): send Authorization: Bearer <{ENV_ADMIN_TOKEN}>",
            [Problem(option, f"admin only: an admin token is required ({sent})")],
        )
