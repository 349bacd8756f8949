"""Admin-only request options (recall's and browsing's ``include``): allowed only to an
API key with the ``admin`` scope, the one way an administrator is known (see
``security/credentials_access.py``). It travels as ``Authorization: Bearer <key>``: the
HTTP header, or the ``authorization`` metadata over gRPC.
"""

from __future__ import annotations

from hindsight_common.errors import Forbidden, Problem
from hindsight_common.security.credentials import Principal


def require_admin(principal: Principal | None, option: str) -> None:
    """Return when ``principal`` holds the admin scope; otherwise raise Forbidden naming
    ``option`` (the request field that needs it) and what to do about it."""
    if principal is not None and "admin" in principal.scopes:
        return
    sent = ("no API key was sent" if principal is None
            else f"API key {principal.key_id} lacks the 'admin' scope")
    raise Forbidden(
        f"{option} is an admin option ({sent}): send Authorization: Bearer <a key with the admin scope>",
        [Problem(option, f"admin only: needs an API key with the admin scope ({sent})")],
    )
