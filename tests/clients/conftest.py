"""Client fixtures: the real app in-process (`httpx.ASGITransport`, fast) and real server processes.

`api` is an `AsyncClient` of a fresh in-process app (memory store, dev features on). `server` is a
`python -m app` process shared by a module (memory store); tests that restart a server start their
own on an SQLite file (`sqlite_server`), since a restart must find the matches again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from drago_client import AsyncClient

from tests.api.conftest import started
from tests.clients.servers import ServerProcess


@dataclass(frozen=True)
class InProcess:
    api: AsyncClient  # the typed client
    http: httpx.AsyncClient  # plain JSON, to check what the typed client reads


@pytest.fixture
async def inproc() -> AsyncIterator[InProcess]:
    async with (
        started("memory://") as (app, http),
        AsyncClient("http://test", transport=httpx.ASGITransport(app=app)) as client,
    ):
        yield InProcess(client, http)


@pytest.fixture
def api(inproc: InProcess) -> AsyncClient:
    return inproc.api


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("server"), "memory://")
    try:
        process.start()  # inside: a start that fails still stops the process
        yield process
    finally:
        process.stop()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on its own SQLite file, not started yet: the test starts (and restarts) it."""
    process = ServerProcess(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'drago.db'}")
    try:
        yield process
    finally:
        process.stop()
