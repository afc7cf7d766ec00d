"""API fixtures: the real app (lifespan run) over memory, SQLite and PostgreSQL, reached through
`httpx.ASGITransport`.

Server bots run in the app's bot runner on a thread (`bot_workers=0`), at the `random` level by
default so that suites stay fast; the chooser is `tests.api.bots.chooser()` (the server's levels
once `app.bots` exists, a random legal move before). A test that passes `clock=` gets that fake
clock in the service and no background sweeper: it sweeps by hand (`app.state.sweeper.sweep_once()`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Protocol

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings
from tests.api.bots import chooser

SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
BACKENDS = ["memory", *SQL_BACKENDS]

TEST_SETTINGS: dict[str, Any] = {
    "dev_features": True,
    "log_level": "WARNING",
    "rate_limit_enabled": False,  # the suites play at machine speed from one address; tests/edge tests them
    "bot_workers": 0,  # bots decide on a thread of the test's process
    "bot_default_level": "random",
    "bot_takeover_level": "random",
}


class Clock(Protocol):
    def __call__(self) -> datetime: ...


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    if request.param == "memory":
        return "memory://"
    return str(request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url"))


@pytest.fixture(params=SQL_BACKENDS)
def sql_database_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


@asynccontextmanager
async def started(
    database_url: str, *, clock: Clock | None = None, **settings: Any
) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """A freshly started app (`TEST_SETTINGS` unless said otherwise) and a client of it."""
    options = {**TEST_SETTINGS, **settings}
    if clock is not None:
        options.setdefault("sweep_interval_seconds", 0)  # the test sweeps when its clock says so
    app = create_app(Settings(database_url=database_url, **options))
    if clock is not None:
        app.state.clock = clock
    async with app.router.lifespan_context(app):
        if hasattr(app.state, "runner"):
            app.state.runner.choose = chooser()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield app, client


@asynccontextmanager
async def running(database_url: str, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with started(database_url, **settings) as (_, client):
        yield client


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with running(database_url) as c:
        yield c
