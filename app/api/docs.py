"""The OpenAPI document and its interactive pages, served by the app itself (no CDN).

`/docs` (Swagger UI) and `/redoc` (ReDoc) load their scripts from `/docs/assets/`, files shipped
by the `fastapi-offline` package (MIT; Swagger UI is Apache-2.0, ReDoc MIT), so both work on a
machine without internet access.

`openapi_document(app)` is FastAPI's document with one repair and two additions. FastAPI passes
component schemas through a model whose bounds are floats, which turns `maximum: 5` into `5.0` and
cannot hold 2**63 exactly; integral floats are written back as integers, so bounds read as the
code says. Every `/v1/` operation documents the 429 the rate limits may answer. And the games'
payloads are named components that the generic members refer to (`app.api.components`): views,
actions, event data, options and setups are described exactly, per game.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.staticfiles import StaticFiles

from app.api.components import prune, reference_games
from app.games.codec import JSON
from app.games.registry import GAMES

ASSETS = "/docs/assets"
REF = "#/components/schemas/"
GAME_MEMBERS = (
    ("EventOut", "data", "event"),
    ("SubmitAction", "action", "action"),
    ("CreateMatch", "options", "options"),
    ("CreateMatch", "setup", "setup"),
    ("MatchOut", "options", "options"),
    ("CreatedMatchOut", "options", "options"),
    ("RevealOut", "options", "options"),
)
"""Members whose schema is a game's (`component`, `member`, kind of `wire_schemas`)."""


def assets_dir() -> Path:
    return Path(str(files("fastapi_offline") / "static"))


def _integral(value: JSON) -> JSON:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def openapi_document(app: FastAPI) -> dict[str, object]:
    if app.openapi_schema is None:
        document = get_openapi(
            title=app.title,
            version=app.version,
            summary=app.summary,
            description=app.description,
            routes=app.routes,
        )
        document = _with_games(_with_reasons(_with_rate_limits(_with_streamed(_integral(document)))))
        app.openapi_schema = document
    return app.openapi_schema


def _with_streamed(document: dict[str, JSON]) -> dict[str, JSON]:
    """The schemas of streamed lines (a route's model does not reach the components when its
    answer is a stream): `ExportLine`, one line of `exportPlayerMatches`."""
    from app.api.routes.exports import ExportLine

    schema = ExportLine.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas = document["components"]["schemas"]
    for name, sub in schema.pop("$defs", {}).items():
        schemas.setdefault(name, sub)
    schemas["ExportLine"] = schema
    return document


def _with_games(document: dict[str, JSON]) -> dict[str, JSON]:
    """The games' schemas as components, referenced by views, actions, event data, options, setups."""
    schemas = document["components"]["schemas"]
    games = [GAMES[name] for name in sorted(GAMES)]
    reference_games(schemas, games, REF, GAME_MEMBERS)
    prune(schemas, {k: v for k, v in document.items() if k != "components"}, REF)
    return document


# Why a request valid against the schema may still be 422: rules over several fields or over the
# match's state, which JSON Schema cannot say. (Schemathesis' settings in tests/edge allow these.)
_WHY_422 = {
    "createMatch": "`players` and `bots` must suit the game (`getGame`: min/max players, bot seats below "
    "`players`, distinct) and `options` its `options_schema`; integers are JSON integers (`2`, not "
    '`2.0` or `"2"`).',
    "joinSeat": "the name must be printable in Unicode's sense (letters, marks, numbers, punctuation, "
    "symbols, spaces; no control, format or unassigned characters).",
    "createPlayer": "the name must be printable in Unicode's sense, as for `joinSeat` (a name taken "
    "regardless of case is 409 `name_taken`).",
    "exportPlayerMatches": "`since` must not be after `until`.",
    "getView": "`at` must be the seq of an event that ends a commit, at most the match's seq.",
    "submitAction": "the action must be one the game understands (see `legal_actions`); "
    "`expected_seq` is a JSON integer.",
}


def _with_reasons(document: dict[str, JSON]) -> dict[str, JSON]:
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            why = _WHY_422.get(operation.get("operationId", ""))
            response = operation.get("responses", {}).get("422")
            if why and response:
                response["description"] = f"{response['description']} Also: {why}"
    return document


def _with_rate_limits(document: dict[str, JSON]) -> dict[str, JSON]:
    """Every operation under `/v1/` may answer 429 (`app.api.ratelimit`): say so, with its headers."""
    seconds = {"schema": {"type": "integer", "minimum": 1}}
    response = {
        "description": "`rate_limited`: a rate-limit budget is spent; retry after `Retry-After` seconds.",
        "headers": {
            "Retry-After": {**seconds, "description": "Seconds to wait."},
            "RateLimit-Limit": {**seconds, "description": "The budget of the spent window."},
            "RateLimit-Remaining": {"schema": {"type": "integer", "minimum": 0}, "description": "0."},
            "RateLimit-Reset": {**seconds, "description": "Seconds until the window resets."},
        },
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
    }
    for path, operations in document.get("paths", {}).items():
        if path.startswith("/v1/"):
            for operation in operations.values():
                operation.setdefault("responses", {}).setdefault("429", response)
    return document


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
