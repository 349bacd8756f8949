"""What the published OpenAPI document says beyond what FastAPI infers from a route.

Our POST routes read their bodies themselves (``services.http.parse_body``: size limit,
Content-Type, JSON that Python cannot hold, our error shape), so FastAPI sees no body
parameter and would publish none. Each route therefore states, next to its decorator:

- its JSON body, ``openapi_extra=json_body(Model)``: the model's schema goes into
  ``components.schemas`` and the operation gets a required ``application/json`` body;
- every status it can answer, ``responses=errors(404, 409, ...)``, each described with our
  error shape (:class:`hindsight_common.api.ErrorOut`), plus the statuses every route can
  answer (:data:`EVERY_ROUTE`, 500 and 503) and every JSON body can (:data:`WITH_BODY`).

:func:`install` then replaces ``app.openapi`` so the served and published documents also
carry the body models' schemas, our error shape instead of FastAPI's
``HTTPValidationError``, and constraints the server enforces in code rather than in the
models: ``k`` at most ``recall_max_k``, text that must not be blank, ``session`` and
``task`` not both. ``tests/unit/test_openapi_document.py`` checks that every operation is
described this way, so a new route cannot slip through undocumented.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from starlette.routing import BaseRoute

from hindsight_common.api import ErrorOut
from hindsight_common.recall.presets import DEFAULT_PRESET, PRESETS
from hindsight_common.settings import Settings

REF = "#/components/schemas/{model}"

#: What each status means on our API, as the document describes it.
STATUS_TEXT: dict[int, str] = {
    400: "The body is not valid JSON, or holds JSON Python cannot hold (nested too deeply, "
    "integers of thousands of digits): code malformed_json.",
    401: "No valid credential was sent: code unauthorized.",
    403: "The credential may not do this (scope or tenant), or an admin-only option was "
    "asked for without the admin token: code forbidden; problems name the field.",
    404: "No such item for this tenant (or it is forgotten and include does not ask for "
    "it): code not_found.",
    409: "The Idempotency-Key was used before for a different body: code idempotency_conflict.",
    413: "The body is larger than the configured limit: code payload_too_large.",
    415: "A body was sent without Content-Type: application/json: code unsupported_media_type.",
    422: "The request breaks a rule of the API; problems name each field and why: code "
    "invalid_request.",
    429: "Too many requests for this credential; wait Retry-After seconds: code rate_limited.",
    500: "A bug on our side; the server log has the details: code internal.",
    503: "A dependency (the log, a projection, the ingest service, a model provider) is "
    "unavailable; retry after the Retry-After header's seconds: code unavailable.",
}

_BODY_MODELS: dict[str, type[BaseModel]] = {}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entries for these error statuses, in our error shape."""
    return {s: {"model": ErrorOut, "description": STATUS_TEXT[s]} for s in statuses}


STATUS_DESCRIPTION = (
    "Log heads (`log`: the last offset per `<stream>#<partition>`) and, for every consumer "
    "group (embed, project, reflect, consolidate), the same in both modes: `position` (the "
    "last offset applied per partition: the group's committed offset, lowered to what the "
    "stores it fills hold), `behind` (offsets between position and heads) and `caught_up` "
    "(`behind` is 0). The embedded server adds each consumer's `processed` and "
    "`dead_lettered` counts, and `text_memory`: the users whose BM25 postings its text index "
    "holds in memory (`users`), those being read in (`building`: FTS5 answers for them meanwhile), "
    "their `documents` and about how many `bytes`; and `vector_memory`: the same for the users whose "
    "vectors its Qdrant Edge shard holds in memory (`points` for documents), with `listing`: users whose "
    "inverted lists are being built (their searches stay exact meanwhile). Top-level `caught_up`: every consumer is caught up, so every "
    "write acknowledged before the reading is visible to recall."
)

#: Statuses any route can answer.
EVERY_ROUTE = errors(500, 503)
#: Statuses any route that reads a JSON body can answer.
WITH_BODY = errors(400, 413, 415, 422)


def json_body(model: type[BaseModel], description: str = "") -> dict[str, Any]:
    """``openapi_extra`` declaring ``model`` as the route's required JSON body."""
    _BODY_MODELS[model.__name__] = model
    body: dict[str, Any] = {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": REF.format(model=model.__name__)}}},
    }
    if description:
        body["description"] = description
    return {"requestBody": body}


def _constraints(schemas: dict[str, Any], settings: Settings, presets: Sequence[str]) -> None:
    """Rules the server checks in code (for their clearer messages) stated in the schema."""

    def prop(model: str, field: str) -> dict[str, Any]:
        found: dict[str, Any] = schemas.get(model, {}).get("properties", {}).get(field, {})
        return found

    prop("RecallIn", "k")["maximum"] = settings.recall_max_k
    prop("RecallIn", "preset").update(
        anyOf=[{"enum": list(presets), "type": "string"}, {"type": "null"}],
        description=f"One of {', '.join(presets)}; default {DEFAULT_PRESET}.",
    )
    for model, field in (("RecallIn", "query"), ("InteractionIn", "content")):
        prop(model, field)["pattern"] = r"\S"
    if "ReflectIn" in schemas:
        # Both given as strings is refused; null is the same as leaving a field out.
        schemas["ReflectIn"]["not"] = {"required": ["session", "task"],
                                       "properties": {"session": {"type": "string"}, "task": {"type": "string"}}}
        schemas["ReflectIn"]["description"] = "Give a session or a task, not both."


def operation_id(route: APIRoute) -> str:
    """An operation's id is its endpoint's name (``recall``, ``record_interactions``), so
    generated clients get readable function names instead of FastAPI's path-derived ids.
    Pass as ``generate_unique_id_function`` to the app and to routers built on their own."""
    return route.name


def _uuid_ids(doc: dict[str, Any]) -> None:
    """Memory ids in paths are UUIDs (the handlers answer 422 to anything else)."""
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter.get("name") == "memory_id":
                    parameter["schema"] = {"type": "string", "format": "uuid", "title": "Memory Id"}


def _our_errors(doc: dict[str, Any]) -> None:
    """FastAPI's own 422 (``HTTPValidationError``) replaced by ours everywhere."""
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            response = operation.get("responses", {}).get("422")
            if response and "HTTPValidationError" in str(response):
                operation["responses"]["422"] = {
                    "description": STATUS_TEXT[422],
                    "content": {"application/json": {"schema": {"$ref": REF.format(model="ErrorOut")}}},
                }
    schemas = doc.get("components", {}).get("schemas", {})
    for fastapi_own in ("HTTPValidationError", "ValidationError"):
        schemas.pop(fastapi_own, None)


def build(
    app: FastAPI, settings: Settings, documented: Sequence[BaseRoute] = (), presets: Sequence[str] = tuple(PRESETS)
) -> dict[str, Any]:
    """The document of ``app``'s routes and of ``documented`` (routes served elsewhere,
    e.g. the writes a cluster gateway forwards to ingest); ``presets`` are the recall
    presets the app serves."""
    doc = get_openapi(
        title=app.title, version=app.version, description=app.description,
        routes=[*app.routes, *documented],
    )
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    if _BODY_MODELS:
        _, defs = models_json_schema(
            [(m, "validation") for m in _BODY_MODELS.values()], ref_template=REF
        )
        for name, schema in defs.get("$defs", {}).items():
            schemas.setdefault(name, schema)
    _constraints(schemas, settings, presets)
    _uuid_ids(doc)
    _our_errors(doc)
    return doc


def install(
    app: FastAPI, settings: Settings, documented: Sequence[BaseRoute] = (), presets: Sequence[str] = tuple(PRESETS)
) -> None:
    """Serve (and cache) the described document at ``/openapi.json``."""
    cached: dict[str, Any] = {}

    def openapi() -> dict[str, Any]:
        if not cached:
            cached.update(build(app, settings, documented, presets))
        return cached

    replace: Callable[[], dict[str, Any]] = openapi
    app.openapi = replace  # type: ignore[method-assign]
