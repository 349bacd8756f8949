"""The admin API for API keys: ``/v1/admin/keys``, scope ``admin``, bound to the key's tenant.

    GET  /v1/admin/keys                   the tenant's keys (never a secret or a hash)
    POST /v1/admin/keys                   {"scopes": [...], "name"?, "tenant"?} -> 201, the
                                          new key in ``key`` (shown this once) and its record
    POST /v1/admin/keys/{key_id}:revoke   revoke one of the tenant's keys -> 200, its record
    GET  /v1/admin/audit?after=&limit=    the tenant's audit events, oldest first, and the
                                          cursor of the next page

An admin key manages only its own tenant's keys: naming another tenant is 403, and a key
id of another tenant is 404, as one that does not exist (ids are not a way to probe).
The first key of a tenant comes from ``hindsight keys create`` on the command line.

Each action is audited (``AuditRecorded`` on ``hindsight.audit.v1``: ``key.list``,
``key.create``, ``key.revoke``) and answered only once its audit event is durable.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Query as Param, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from hindsight_common.errors import HindsightError, NotFound
from hindsight_common.events.audit import ANONYMOUS, AuditOutcome, AuditRecorded
from hindsight_common.events.base import Identifier
from hindsight_common.security.credentials import new_key
from hindsight_common.security.credentials_access import Authenticator, now
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.settings import Settings
from hindsight_services.auth import needs, principal_of, tenant_of
from hindsight_services.api_docs import EVERY_ROUTE, WITH_BODY, errors, json_body, operation_id
from hindsight_services.http import parse_body

Scope = Literal["read", "write", "admin", "erase"]


class KeyCreateIn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tenant: Identifier | None = Field(None, description="Must be the admin key's tenant, or left out.")
    scopes: list[Scope] = Field(min_length=1, description="read, write, admin, erase")
    name: str | None = Field(None, max_length=200, description="What the key is for (shown in lists).")


class KeyOut(BaseModel):
    key_id: str
    tenant: str
    scopes: list[Scope]
    name: str | None
    created_at: datetime
    revoked_at: datetime | None


class KeyListOut(BaseModel):
    keys: list[KeyOut]


class KeyCreatedOut(KeyOut):
    key: str = Field(description="The secret: shown this once, never again.")


class AuditPageOut(BaseModel):
    events: list[AuditRecorded]
    next: str | None = Field(description="Pass as after for the next page.")
    more: bool = Field(description="The log already holds records after this page.")


def router(settings: Settings, auth: Authenticator, audit: AuditTrail) -> APIRouter:
    api = APIRouter(
        tags=["admin"], dependencies=[needs(auth, "admin")], generate_unique_id_function=operation_id,
        responses={**EVERY_ROUTE, **errors(401, 403, 429)},
    )

    async def audited(request: Request, action: str, tenant: str, target: str | None,
                      outcome: AuditOutcome = "ok", reason: str = "") -> None:
        principal = principal_of(request)
        actor = principal.key_id if principal else None
        await audit.record(AuditRecorded(
            tenant=tenant, user=actor or ANONYMOUS, occurred_at=now(), action=action, outcome=outcome,
            credential=actor, interface="http", target=target, reason=reason))

    @api.get("/v1/admin/keys", response_model=KeyListOut)
    async def list_keys(request: Request) -> JSONResponse:
        """The API keys of the admin key's tenant, oldest first, revoked ones included."""
        tenant = tenant_of(request, None, settings)
        keys = await auth.store.list(tenant)
        await audited(request, "key.list", tenant, None)
        return JSONResponse({"keys": [k.describe() for k in keys]})

    @api.post("/v1/admin/keys", status_code=201, openapi_extra=json_body(KeyCreateIn),
              responses={**WITH_BODY, 201: {"model": KeyCreatedOut, "description": "The new key, shown once."}})
    async def create_key(request: Request) -> JSONResponse:
        """A new key for the admin key's tenant; the answer's ``key`` is the only time the
        secret is shown."""
        body, _ = await parse_body(request, KeyCreateIn, settings.max_body_bytes)
        tenant = tenant_of(request, body.tenant, settings)
        key, record = new_key(tenant, body.scopes, now(), body.name)
        await auth.store.add(record)
        try:
            await audited(request, "key.create", tenant, record.key_id)
        except HindsightError:
            # No key without its audit event: take it back (the caller never saw it).
            await auth.store.revoke(record.key_id, now())
            raise
        return JSONResponse({"key": key, **record.describe()}, status_code=201)

    @api.post("/v1/admin/keys/{key_id}:revoke", response_model=KeyOut, responses=errors(404))
    async def revoke_key(key_id: str, request: Request) -> JSONResponse:
        """Revoke a key of the admin key's tenant: from now on it is answered 401."""
        tenant = tenant_of(request, None, settings)
        # Revoking the very key that asks is allowed: its next request is 401.
        try:
            record = await auth.store.revoke(key_id, now(), tenant=tenant)
        except NotFound:
            await audited(request, "key.revoke", tenant, key_id, "failed", "no such key in this tenant")
            raise
        await audited(request, "key.revoke", tenant, key_id)
        return JSONResponse(record.describe())

    @api.get("/v1/admin/audit", response_model=AuditPageOut, responses=errors(422))
    async def read_audit(
        request: Request,
        after: str | None = Param(None, max_length=2000, description="The next cursor of an earlier page."),
        limit: int = Param(100, ge=1, le=1000),
    ) -> JSONResponse:
        """The audit events of the admin key's tenant (``hindsight.audit.v1``), oldest first."""
        tenant = tenant_of(request, None, settings)
        page = await audit.page(tenant, after, limit)
        await audited(request, "audit.read", tenant, None)
        return JSONResponse({"events": [e.model_dump(mode="json") for e in page.events], "next": page.next,
                             "more": page.more})

    return api
