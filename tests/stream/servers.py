"""Real servers for stream tests: uvicorn subprocesses on free loopback ports, and a client socket.

`serving(...)` starts `python -m app` (the container's command) or `python -m uvicorn` with the app
factory — both through `tests.api.bots`, which gives the server bots a chooser while `app.bots` does
not exist — waits for `/readyz`, and at exit sends SIGTERM and waits for the process to end.
`in_this_loop(app)` serves an app object with uvicorn in the test's own event loop instead.
`RealSocket` wraps a `websockets` client connection with the interface of `AsgiSocket`, so
`Reader` works over both.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.stream.asgi import GUARD, Closed

ROOT = Path(__file__).resolve().parents[2]
STARTUP_GUARD = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def terminate(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)

    async def wait(self) -> int:
        try:
            return await asyncio.to_thread(self.proc.wait, GUARD)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            await asyncio.to_thread(self.proc.wait, GUARD)
            raise AssertionError(f"server did not stop on SIGTERM:\n{self.output()}") from None


@contextlib.asynccontextmanager
async def serving(
    log_dir: Path, name: str, env: Mapping[str, str], *, uvicorn_cli: bool = False
) -> AsyncIterator[Server]:
    port = free_port()
    settings = {
        "DRAGO_HOST": "127.0.0.1",
        "DRAGO_PORT": str(port),
        "DRAGO_LOG_LEVEL": "WARNING",
        "DRAGO_DEV_FEATURES": "1",
        "DRAGO_RATE_LIMIT_ENABLED": "0",  # tests play at machine speed from one address
        "DRAGO_BOT_WORKERS": "0",
        "DRAGO_BOT_DEFAULT_LEVEL": "random",
        "DRAGO_BOT_TAKEOVER_LEVEL": "random",
        **env,
    }
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
    full_env["DRAGO_STREAM_FAST_LANE"] = os.environ.get("DRAGO_STREAM_FAST_LANE", "1")  # the suite runs both
    full_env.update(settings)
    if uvicorn_cli:
        cmd = [sys.executable, "-m", "uvicorn", "tests.api.bots:create", "--factory", "--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--ws-per-message-deflate", "false", "--no-access-log"]
    else:
        cmd = [sys.executable, "-m", "tests.api.bots"]
    log = log_dir / f"{name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=full_env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)  # noqa: ASYNC220
    server = Server(proc, port, log)
    try:
        await _ready(server)
        yield server
    finally:
        server.terminate()
        await server.wait()


@contextlib.asynccontextmanager
async def in_this_loop(app: Any, **config: Any) -> AsyncIterator[int]:
    """`app` under a real uvicorn in the test's own event loop (its state stays reachable); the port."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, **config))
    serve = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(STARTUP_GUARD):
            while not server.started:  # noqa: ASYNC110  # uvicorn offers a flag, not an event
                await asyncio.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        await asyncio.wait_for(serve, GUARD)


async def _ready(server: Server) -> None:
    async def poll() -> None:
        async with httpx.AsyncClient(base_url=server.url) as client:
            while True:
                if server.proc.poll() is not None:
                    raise AssertionError(f"server exited with {server.proc.returncode}:\n{server.output()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/readyz")).status_code == 200:
                        return
                await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), STARTUP_GUARD)


class RealSocket:
    """A `websockets` client connection with `AsgiSocket`'s interface."""

    def __init__(self, server: Server, match_id: str | None, **query: Any) -> None:
        """A match's stream, or (`match_id` None) the personal stream of the key in `token`."""
        params = {k: ("1" if v is True else v) for k, v in query.items() if v is not None and v is not False}
        path = "/v1/players/me/stream" if match_id is None else f"/v1/matches/{match_id}/stream"
        self.url = f"ws://127.0.0.1:{server.port}{path}?{urlencode(params)}"
        self.conn: ClientConnection | None = None

    async def __aenter__(self) -> RealSocket:
        self.conn = await asyncio.wait_for(connect(self.url, compression=None), GUARD)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def recv(self) -> Any:
        assert self.conn is not None
        try:
            return json.loads(await asyncio.wait_for(self.conn.recv(), GUARD))
        except ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd is not None else 1006
            raise Closed(code, e.rcvd.reason if e.rcvd is not None else "") from None

    async def closed(self) -> Closed:
        while True:
            try:
                await self.recv()
            except Closed as closed:
                return closed

    async def send(self, frame: Any) -> None:
        assert self.conn is not None
        await self.conn.send(frame if isinstance(frame, str) else json.dumps(frame))

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
