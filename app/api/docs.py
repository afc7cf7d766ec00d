"""The OpenAPI document and its interactive pages, served by the app itself (no CDN).

`/docs` (Swagger UI) and `/redoc` (ReDoc) load their scripts from `/docs/assets/`, files shipped
by the `fastapi-offline` package (MIT; Swagger UI is Apache-2.0, ReDoc MIT), so both work on a
machine without internet access.

`openapi_document(app)` is FastAPI's document with one repair: FastAPI passes component schemas
through a model whose bounds are floats, which turns `maximum: 5` into `5.0` and cannot hold
2**63 exactly; integral floats are written back as integers, so bounds read as the code says.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.staticfiles import StaticFiles

ASSETS = "/docs/assets"


def assets_dir() -> Path:
    return Path(str(files("fastapi_offline") / "static"))


def _integral(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def openapi_document(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema is None:
        document = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        app.openapi_schema = _integral(document)
    return app.openapi_schema


def install(app: FastAPI) -> None:
    """Serve `/openapi.json`, `/docs`, `/redoc` and their assets (create the app with all three
    URLs set to None)."""
    app.openapi = lambda: openapi_document(app)  # type: ignore[method-assign]
    app.mount(ASSETS, StaticFiles(directory=assets_dir()), name="docs-assets")
    title = f"{app.title} — API"

    async def openapi_json(request: Request) -> JSONResponse:
        return JSONResponse(app.openapi())

    async def swagger(request: Request) -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title=title,
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon.png",
        )

    async def redoc(request: Request) -> HTMLResponse:
        return get_redoc_html(
            openapi_url="/openapi.json",
            title=title,
            redoc_js_url=f"{ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS}/favicon.png",
            with_google_fonts=False,
        )

    app.add_route("/openapi.json", openapi_json, include_in_schema=False)
    app.add_route("/docs", swagger, include_in_schema=False)
    app.add_route("/redoc", redoc, include_in_schema=False)
