"""Credentials on the HTTP routes: a FastAPI dependency per scope.

Every router of the gateway is built with ``dependencies=[needs(auth, scope)]``, so a route
added to it later is covered without anyone remembering to. The dependency authenticates
the ``Authorization`` header (``security/credentials_access.py``), checks the scope,
leaves the principal on ``request.state`` for the route, which takes its tenant from
:func:`tenant_of`, and audits any 403 the request ends with, and the action of a route that
marked itself audited (``audit_actions.py``) with how it ended. Open without a key: ``/healthz``, the web UI's static files (``/``,
``/ui``, ``/ui/{file}``) and the API description (``/openapi.json``, ``/docs``), which
hold no tenant's data.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from typing import Any, TypeVar

from fastapi import Depends, Request

from hindsight_common.api import (
    ConsolidateIn,
    ForgetIn,
    IngestRequest,
    ExpireIn,
    MemoryActionIn,
    RecallIn,
    ReflectIn,
    ReleaseIn,
    SessionCloseIn,
)
from hindsight_common.errors import Forbidden
from hindsight_common.events.audit import AuditOutcome
from hindsight_common.security.credentials import Principal
from hindsight_common.security.credentials_access import Authenticator, forbidden_event, require_scope, tenant_for
from hindsight_common.settings import Settings
from hindsight_services.audit_actions import action_event

log = logging.getLogger(__name__)
ENV_API_KEY = "HINDSIGHT_API_KEY"  # what clients send: the CLI, the benchmarks, MCP


def needs(auth: Authenticator, scope: str) -> Any:
    """A dependency that lets a request through only with ``scope`` (401/403/429 otherwise).
    Every refusal of the request, here or later in the route (another tenant, an admin
    option), is queued on the audit trail."""

    async def check(request: Request) -> AsyncIterator[None]:
        route = request.scope.get("route")
        what = f"{request.method} {getattr(route, 'path', request.url.path)}"
        principal = await auth.authenticate(request.headers.get("authorization"), target=what)
        request.state.principal = principal
        try:
            require_scope(principal, scope, what)
            yield
        except Forbidden as e:
            if auth.audit is not None:
                auth.audit.note(forbidden_event(principal, e, what, "http"))
            raise
        except Exception as e:  # audited as failed, then handled by the error handlers
            _note_action(auth, request, principal, what, "failed", type(e).__name__)
            raise
        _note_action(auth, request, principal, what, "ok")

    return Depends(check)


def _note_action(auth: Authenticator, request: Request, principal: Principal | None, what: str,
                 outcome: AuditOutcome, reason: str = "") -> None:
    """Queue the audit event of the action the route marked (``audit_actions.audited``)."""
    event = action_event(request, principal, what, outcome, reason)
    if event is not None and auth.audit is not None:
        auth.audit.note(event)


def principal_of(request: Request) -> Principal | None:
    """The principal the route's dependency authenticated (None: anonymous, auth off)."""
    principal: Principal | None = getattr(request.state, "principal", None)
    return principal


def tenant_of(request: Request, asked: str | None, settings: Settings, field: str = "tenant") -> str:
    """The tenant this request acts on (see ``tenant_for``); raises Forbidden."""
    return tenant_for(principal_of(request), asked, settings.default_tenant, field)


B = TypeVar("B", IngestRequest, SessionCloseIn, ReflectIn, ForgetIn, RecallIn, ReleaseIn, MemoryActionIn,
              ConsolidateIn, ExpireIn)


def bind_tenant(principal: Principal | None, body: B, settings: Settings) -> B:
    """``body`` with its tenant set to the one it acts on: the key's, or (anonymous, auth
    off) the one it named or the default. Raises Forbidden when it names another tenant
    than its key's (each interaction of a batch is checked)."""
    if isinstance(body, IngestRequest):
        items = []
        for n, i in enumerate(body.interactions):
            tenant = tenant_for(principal, i.tenant, settings.default_tenant, f"interactions.{n}.tenant")
            # A copy only where the tenant changes (a copy per turn costs more than the check).
            items.append(i if i.tenant == tenant else i.model_copy(update={"tenant": tenant}))
        return body.model_copy(update={"interactions": items})
    return body.model_copy(update={"tenant": tenant_for(principal, body.tenant, settings.default_tenant)})


def api_key_headers() -> dict[str, str]:
    """``Authorization`` for a command-line client: ``HINDSIGHT_API_KEY`` from the
    environment only (a key on the command line is visible to every user of the machine)."""
    key = os.environ.get(ENV_API_KEY)
    return {"authorization": f"Bearer {key}"} if key else {}


def warn_if_open(settings: Settings) -> None:
    """Say loudly, at start, that this server answers requests without a key."""
    if settings.auth == "off":
        log.warning(
            "HINDSIGHT_AUTH=off: requests without an API key are served, for any tenant they "
            "name. Anyone who can reach %s:%s can read and write every tenant's memories. "
            "Set HINDSIGHT_AUTH=required and create keys with `hindsight keys create` "
            "before exposing this server.", settings.host, settings.port)
