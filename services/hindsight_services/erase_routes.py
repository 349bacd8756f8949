"""Erasure over HTTP: ``DELETE /v1/users/{user}?tenant=T``, scope ``erase``.

The route destroys the user's data keys, appends ``SubjectErased`` and audits it
(``subject.erase``, the user id as its target: the record that the erasure happened),
then answers 202 once the keys are gone for good and the event is durable; the
projections and caches purge the user when they apply the event (``Ingest.erase`` in
``ingest/handler.py`` says what happens when; README "Erasure" says what it guarantees).
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Path, Query as Param, Request
from fastapi.responses import JSONResponse

from hindsight_common.api import ErasureOut
from hindsight_common.errors import HindsightError
from hindsight_common.events.audit import ANONYMOUS, AuditRecorded
from hindsight_common.events.base import IDENTIFIER_PATTERN
from hindsight_common.ports.log import EventLog
from hindsight_common.security.credentials_access import Authenticator, now
from hindsight_common.security.credentials_audit import AuditTrail
from hindsight_common.settings import Settings
from hindsight_services.api_docs import EVERY_ROUTE, errors, operation_id
from hindsight_services.auth import needs, principal_of, tenant_of
from hindsight_services.ingest.handler import Ingest


def router(get_log: Callable[[], EventLog], settings: Settings, auth: Authenticator,
           audit: AuditTrail) -> APIRouter:
    api = APIRouter(
        tags=["erasure"], dependencies=[needs(auth, "erase")], generate_unique_id_function=operation_id,
        responses={**EVERY_ROUTE, **errors(401, 403, 429)},
    )

    @api.delete(
        "/v1/users/{user}", status_code=202,
        responses={202: {"model": ErasureOut, "description": "The user's data keys are destroyed and "
                         "SubjectErased is durable; projections purge the user as they apply it."}},
    )
    async def erase_user(
        request: Request,
        user: str = Path(min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN),
        tenant: str | None = Param(None, min_length=1, max_length=200, pattern=IDENTIFIER_PATTERN,
                                   description="Must be the key's tenant, or left out."),
        reason: str = Param("", max_length=500, description="Recorded with the erasure; never content."),
    ) -> JSONResponse:
        """Erase a user: their content on the log can never be read again (its data keys are
        destroyed), and every projection and cache deletes what it holds of them. Needs an
        API key with the ``erase`` scope."""
        acting = tenant_of(request, tenant, settings)
        principal = principal_of(request)
        actor = principal.key_id if principal else None

        async def audited(outcome: str, why: str = "") -> None:
            await audit.record(AuditRecorded(
                tenant=acting, user=actor or ANONYMOUS, occurred_at=now(), action="subject.erase",
                outcome="ok" if outcome == "ok" else "failed", credential=actor, interface="http",
                target=user, reason=why))

        try:
            result = await Ingest(get_log(), settings).erase(acting, user, actor or ANONYMOUS, reason)
        except HindsightError as e:
            await audited("failed", type(e).__name__)
            raise
        await audited("ok")
        return JSONResponse(result.model_dump(mode="json"), status_code=202)

    return api
