"""The web UI: one hand-written page (HTML, CSS, ES modules; no build step) served by the gateway.

The files live next to this module in ``ui/`` and ship as package data of
``hindsight_services``. They are read once, when the router is built (they are a few
kilobytes), so serving them never touches the disk on the event loop. Every answer carries
an ETag and ``Cache-Control: no-cache``: a browser revalidates cheaply and never runs a
stale script after an upgrade. The page talks to the same HTTP API as every other client.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse

from hindsight_common.errors import ConfigurationError
from hindsight_services.http import error_body

UI_PACKAGE = "hindsight_services.query"
UI_DIR = "ui"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",  # ES modules load only with a JavaScript type
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}

# The page runs only its own files and talks only to this gateway. No 'unsafe-inline':
# inline scripts and inline event handler attributes never run, so text that slipped into
# markup could not execute even if it were not escaped (it is: the page never uses innerHTML).
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
))


@dataclass(frozen=True)
class Asset:
    body: bytes
    content_type: str
    etag: str


def load_assets(directory: Traversable) -> dict[str, Asset]:
    """The servable files of ``directory`` by name. Raises ConfigurationError when the
    page itself is missing (the package was built without its package data)."""
    assets: dict[str, Asset] = {}
    for entry in directory.iterdir() if directory.is_dir() else ():
        content_type = CONTENT_TYPES.get(_suffix(entry.name))
        if content_type is None or not entry.is_file():
            continue
        body = entry.read_bytes()
        assets[entry.name] = Asset(body, content_type, f'"{hashlib.sha256(body).hexdigest()[:20]}"')
    if "index.html" not in assets:
        raise ConfigurationError(
            f"the web UI is missing from {UI_PACKAGE}/{UI_DIR}: reinstall Hindsight "
            "(its package data must include query/ui/*)"
        )
    return assets


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def _answer(asset: Asset, request: Request) -> Response:
    headers = {
        "ETag": asset.etag,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    if asset.content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    if request.headers.get("if-none-match") == asset.etag:
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.content_type, headers=headers)


def ui_router() -> APIRouter:
    """``GET /ui`` (the page), ``GET /ui/{file}`` (its scripts and styles) and ``GET /``
    (a redirect to ``/ui``). Raises ConfigurationError if the UI files are missing."""
    assets = load_assets(resources.files(UI_PACKAGE).joinpath(UI_DIR))
    api = APIRouter(tags=["ui"], include_in_schema=False)

    @api.get("/")
    async def root() -> RedirectResponse:
        return RedirectResponse("/ui", status_code=307)

    @api.get("/ui")
    @api.get("/ui/")
    async def page(request: Request) -> Response:
        return _answer(assets["index.html"], request)

    @api.get("/ui/{name}")
    async def asset(name: str, request: Request) -> Response:
        # Only names found in the package at start-up: a path can never escape ui/.
        found = assets.get(name)
        if found is None:
            return JSONResponse(
                error_body("not_found", f"no UI file {name!r}; the page is at /ui"), status_code=404
            )
        return _answer(found, request)

    return api
