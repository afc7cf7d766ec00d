"""Where the generator's schemas come from.

- `openapi/openapi.json` and `openapi/stream-frames.schema.json`: the server's committed artefacts
  (`python -m app.openapi` writes them; the server's tests keep them equal to the code).
- Each game's payload schemas as served: `GET /v1/games`, then `GET /v1/games/{game}` → `schemas`.
  From a running server (`--url`), or else from the app itself in this process, over
  `httpx.ASGITransport` (needs the server package, as in the repository's virtual environment).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[3]
OPENAPI = REPO / "openapi" / "openapi.json"
FRAMES = REPO / "openapi" / "stream-frames.schema.json"
NAMES = "openapi/openapi.json, openapi/stream-frames.schema.json and GET /v1/games/{game}"


@dataclass(frozen=True)
class Sources:
    openapi: dict[str, Any]
    frames: dict[str, Any]
    games: dict[str, dict[str, Any]]  # game → its `schemas`


def load(url: str | None = None) -> Sources:
    openapi = json.loads(OPENAPI.read_text(encoding="utf-8"))
    frames = json.loads(FRAMES.read_text(encoding="utf-8"))
    games = asyncio.run(_served_games(url))
    return Sources(openapi, frames, games)


async def _served_games(url: str | None) -> dict[str, dict[str, Any]]:
    if url is not None:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            return await _fetch(http)
    from app.main import create_app  # the server, in this process (the repository's venv)
    from app.settings import Settings

    app = create_app(Settings(database_url="memory://", log_level="WARNING", bots_enabled=False))
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://app") as http,
    ):
        return await _fetch(http)


async def _fetch(http: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    listing = (await http.get("/v1/games")).raise_for_status().json()
    out: dict[str, dict[str, Any]] = {}
    for item in sorted(listing["items"], key=lambda g: g["name"]):
        detail = (await http.get(f"/v1/games/{item['name']}")).raise_for_status().json()
        out[item["name"]] = detail["schemas"]
    return out
