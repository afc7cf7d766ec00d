"""Broadcaster fixtures: one backend per parameter, and a factory of broadcasters sharing it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from app.broadcast.memory import MemoryBroadcaster
from app.broadcast.postgres import PostgresBroadcaster
from app.broadcast.redis import RedisBroadcaster
from app.service.ports import Broadcaster

Factory = Callable[[], Broadcaster]

BACKENDS = [
    pytest.param("memory", id="memory"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    pytest.param("redis", id="redis", marks=pytest.mark.redis),
]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_broadcaster(request: pytest.FixtureRequest, backend: str, channel_prefix: str) -> Factory:
    """New broadcasters on the backend: like separate processes for PostgreSQL and Redis."""
    if backend == "postgres":
        url = request.getfixturevalue("postgres_url")
        return lambda: PostgresBroadcaster(url, prefix=channel_prefix)
    if backend == "redis":
        url = request.getfixturevalue("redis_url")
        return lambda: RedisBroadcaster(url, prefix=channel_prefix)
    return MemoryBroadcaster


@pytest.fixture
async def stopper() -> AsyncIterator[Callable[[Callable[[], Awaitable[None]]], None]]:
    """Register stop callbacks that run at teardown even if the test failed."""
    stops: list[Callable[[], Awaitable[None]]] = []
    yield stops.append
    for stop in reversed(stops):
        await stop()
