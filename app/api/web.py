"""The reference web client: `/` serves its page, `/app/` its assets (the bundle built from `web/`).

No server-side rendering and no extra process: the page is a static file and everything it shows
comes from the public API (`/v1/…`) and the match streams, as any other frontend would get it.
The assets live under `/app/`, a prefix that cannot clash with `/v1`, `/docs` or the health routes.
The page's Content-Security-Policy allows scripts, styles, images and connections to this origin
only, so the client cannot make a request anywhere else (no CDN, no fonts from elsewhere).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles

ASSETS = "/app"
# `connect-src 'self'` covers the same-origin WebSocket (ws:/wss:) in current Chromium and Firefox.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def static_dir() -> Path:
    return Path(str(files("app.web") / "static"))


def install(app: FastAPI) -> None:
    """Serve the page at `/` and its assets under `/app/`."""
    directory = static_dir()
    app.mount(ASSETS, StaticFiles(directory=directory), name="web-assets")
    index = directory / "index.html"

    async def page(request: Request) -> Response:
        return FileResponse(
            index,
            media_type="text/html; charset=utf-8",
            headers={
                "Content-Security-Policy": CSP,
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
            },
        )

    app.add_route("/", page, methods=["GET", "HEAD"], include_in_schema=False)
