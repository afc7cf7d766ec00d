"""SIGTERM on a real server: every stream gets 1001 — authenticated ones and those still waiting
for their `auth` frame alike — over many repetitions; in-flight HTTP requests finish."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.api.closes import Close
from tests.api.helpers import new_table
from tests.stream.servers import ROOT, Server, free_port, serving

pytestmark = pytest.mark.slow

REPETITIONS = 20
AUTHENTICATED = 30  # per repetition, half of them with `views=1`
WAITING = 25  # connected, no `auth` frame sent
SPECTATORS = 5
GUARD = 30.0


async def _close_code(ws: ClientConnection) -> int:
    try:
        while True:
            await ws.recv()
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd is not None else 1006


async def _one_shutdown(tmp_path: Path, run: int) -> collections.Counter[int]:
    env = {"DRAGO_DATABASE_URL": "memory://", "DRAGO_STREAM_AUTH_TIMEOUT_SECONDS": "120"}
    async with (
        serving(tmp_path, f"shutdown-{run}", env) as server,
        httpx.AsyncClient(base_url=server.url) as c,
    ):
        table = await new_table(c, "mount_drago", 3)
        url = f"ws://127.0.0.1:{server.port}/v1/matches/{table.match_id}/stream"
        sockets: list[ClientConnection] = []
        hellos = []
        for i in range(AUTHENTICATED):
            query = f"token={table.tokens[i % 3]}" + ("&views=1" if i % 2 else "")
            sockets.append(await connect(f"{url}?{query}", compression=None))
            hellos.append(sockets[-1])
        for _ in range(SPECTATORS):
            sockets.append(await connect(f"{url}?spectate=1", compression=None))
            hellos.append(sockets[-1])
        for _ in range(WAITING):
            sockets.append(await connect(url, compression=None))  # handshake done, no auth frame
        for ws in hellos:
            assert json.loads(await asyncio.wait_for(ws.recv(), GUARD))["type"] == "hello"
        codes = asyncio.gather(*(_close_code(ws) for ws in sockets))
        server.terminate()
        result = await asyncio.wait_for(codes, GUARD)
        assert await server.wait() in (0, -signal.SIGTERM)
    return collections.Counter(result)


async def test_sigterm_closes_every_stream_with_going_away_every_time(tmp_path: Path) -> None:
    total: collections.Counter[int] = collections.Counter()
    for run in range(REPETITIONS):
        codes = await _one_shutdown(tmp_path, run)
        assert sum(codes.values()) == AUTHENTICATED + WAITING + SPECTATORS
        total += codes
    assert dict(total) == {Close.GOING_AWAY: REPETITIONS * (AUTHENTICATED + WAITING + SPECTATORS)}


SLOW_APP = textwrap.dedent(
    """
    import asyncio
    from app.main import create_app

    def create():
        app = create_app()

        @app.get("/slow")
        async def slow() -> dict[str, str]:
            await asyncio.sleep(1.5)
            return {"done": "yes"}

        return app
    """
)


async def test_in_flight_http_requests_finish_on_sigterm(tmp_path: Path) -> None:
    (tmp_path / "slow_app.py").write_text(SLOW_APP)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
    env.update(DRAGO_DATABASE_URL="memory://", DRAGO_LOG_LEVEL="WARNING", PYTHONPATH=f"{tmp_path}:{ROOT}")
    cmd = [sys.executable, "-m", "uvicorn", "slow_app:create", "--factory", "--port", str(port)]
    log = tmp_path / "slow.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)  # noqa: ASYNC220
    server = Server(proc, port, log)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=GUARD) as client:
            for _ in range(600):
                try:
                    if (await client.get("/readyz")).status_code == 200:
                        break
                except httpx.TransportError:
                    await asyncio.sleep(0.05)
            in_flight = asyncio.create_task(client.get("/slow"))
            await asyncio.sleep(0.5)
            server.terminate()
            r = await in_flight
            assert r.status_code == 200 and r.json() == {"done": "yes"}
    finally:
        server.terminate()
        await server.wait()
