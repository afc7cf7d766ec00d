"""The app under contract test: in-process (memory store, dev features on; rate limits, server
bots and the background sweeper off), a fake clock, and the checker loaded with the served schemas."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from app.games.registry import GAMES
from app.main import create_app
from app.settings import Settings
from tests.contract.checker import Contract

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    """The app's clock (`app.state.clock`): still until advanced, so timeouts fire on demand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class Server:
    app: FastAPI
    client: httpx.AsyncClient
    clock: FakeClock


@asynccontextmanager
async def serving(**settings: Any) -> AsyncIterator[Server]:
    options: dict[str, Any] = {
        "database_url": "memory://",
        "dev_features": True,
        "log_level": "WARNING",
        "rate_limit_enabled": False,
        "bots_enabled": False,  # server bots play only when a test asks (`BotRunner.play`)
        "sweep_interval_seconds": 0,  # deadlines fire when a test sweeps
        **settings,
    }
    app = create_app(Settings(**options))
    clock = app.state.clock = FakeClock()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield Server(app, client, clock)


async def load_contract(client: httpx.AsyncClient) -> Contract:
    """The checker over what this server serves (`GET /v1/games/{game}`), every response checked."""
    served = {}
    listed = await client.get("/v1/games")
    assert listed.status_code == 200
    names = [g["name"] for g in listed.json()["items"]]
    assert sorted(names) == sorted(GAMES)
    details = {}
    for name in names:
        r = await client.get(f"/v1/games/{name}")
        assert r.status_code == 200, r.text
        details[name] = r.json()
        served[name] = r.json()["schemas"]
    contract = Contract(served)
    contract.response("listGames", 200, listed.json())
    for detail in details.values():
        contract.response("getGame", 200, detail)
    return contract
