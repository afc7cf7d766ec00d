"""Client fixtures: the real app in-process (`httpx.ASGITransport`) and a real server process.

`server_url` starts `python -m app` (memory store, dev features on) on a free loopback port once per
module, waits for `/readyz`, and stops it with SIGTERM at the end.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from clients.drago_client import AsyncClient
from tests.api.conftest import started

ROOT = Path(__file__).resolve().parents[2]
GUARD = 60.0  # seconds: only a hang guard


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
async def client() -> AsyncIterator[AsyncClient]:
    """The async client of a fresh in-process app over `httpx.ASGITransport`."""
    async with (
        started("memory://") as (app, _),
        AsyncClient("http://test", transport=httpx.ASGITransport(app=app)) as c,
    ):
        yield c


def _wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + GUARD
    with httpx.Client(base_url=url) as http:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
            try:
                if http.get("/readyz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
    raise AssertionError(f"server not ready:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
    env.update(
        DRAGO_DATABASE_URL="memory://",
        PORT=str(port),
        DRAGO_HOST="127.0.0.1",
        DRAGO_LOG_LEVEL="WARNING",
        DRAGO_DEV_FEATURES="1",
        DRAGO_RATE_LIMIT_ENABLED="0",  # the tests play at machine speed from one address
    )
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "app"], env=env, stdout=out, stderr=out, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc, log)
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(GUARD)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(GUARD)
