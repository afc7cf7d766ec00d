"""API fixtures: the real app (lifespan run) over memory, SQLite and PostgreSQL, reached through
`httpx.ASGITransport`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings

SQL_BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
BACKENDS = ["memory", *SQL_BACKENDS]


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    if request.param == "memory":
        return "memory://"
    return str(request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url"))


@pytest.fixture(params=SQL_BACKENDS)
def sql_database_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


@asynccontextmanager
async def started(database_url: str, **settings: Any) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """A freshly started app (dev features on, rate limits off, unless said otherwise) and a client
    of it. The suites play at machine speed from one address; `tests/edge` tests the limits."""
    options: dict[str, Any] = {
        "dev_features": True,
        "log_level": "WARNING",
        "rate_limit_enabled": False,
        **settings,
    }
    app = create_app(Settings(database_url=database_url, **options))
    async with app.router.lifespan_context(app):
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
