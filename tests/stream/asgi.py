"""A WebSocket client of an ASGI app in the test's own event loop: no network, no threads.

`AsgiSocket` runs the app's WebSocket handler as a task and exchanges ASGI messages with it through
queues. `gate` lets a test stall the server's sends (a client that does not read), which is how
the slow-consumer test fills the live hub's bounded queue deterministically.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from types import TracebackType
from typing import Any
from urllib.parse import urlencode

from starlette.types import ASGIApp, Message

GUARD = 20.0  # seconds: a guard against hangs, never an expectation of speed


class Closed(Exception):
    """The server closed the stream."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"closed {code}: {reason}")
        self.code = code
        self.reason = reason


class AsgiSocket:
    def __init__(
        self,
        app: ASGIApp,
        path: str,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.app = app
        self.scope: dict[str, Any] = {
            "type": "websocket",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "scheme": "ws",
            "server": ("test", 80),
            "client": ("127.0.0.1", 50000),
            "root_path": "",
            "path": path,
            "raw_path": path.encode(),
            "query_string": urlencode(dict(query or {})).encode(),
            "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
            "subprotocols": [],
        }
        self.gate = asyncio.Event()  # cleared: the server's sends wait (a client that does not read)
        self.gate.set()
        self.close_code: int | None = None
        self.close_reason = ""
        self._to_app: asyncio.Queue[Message] = asyncio.Queue()
        self._from_app: asyncio.Queue[Message] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> AsgiSocket:
        self._to_app.put_nowait({"type": "websocket.connect"})
        self._task = asyncio.create_task(self._serve())
        first = await self._next()
        if first["type"] == "websocket.close":
            await self.close()
            raise Closed(first.get("code", 1000), first.get("reason", ""))
        assert first["type"] == "websocket.accept", first
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _serve(self) -> None:
        await self.app(self.scope, self._to_app.get, self._send)

    async def _send(self, message: Message) -> None:
        await self.gate.wait()
        await self._from_app.put(message)

    async def _next(self) -> Message:
        if self.close_code is not None:
            raise Closed(self.close_code, self.close_reason)
        return await asyncio.wait_for(self._from_app.get(), GUARD)

    async def recv_text(self) -> str:
        """The next text frame; raises `Closed` when the server closed instead."""
        message = await self._next()
        if message["type"] == "websocket.close":
            self.close_code = message.get("code", 1000)
            self.close_reason = message.get("reason") or ""
            raise Closed(self.close_code, self.close_reason)
        assert message["type"] == "websocket.send", message
        text = message["text"]
        assert isinstance(text, str)
        return text

    async def recv(self) -> Any:
        return json.loads(await self.recv_text())

    async def closed(self) -> Closed:
        """Read frames until the server closes; the close."""
        while True:
            try:
                await self.recv_text()
            except Closed as closed:
                return closed

    async def send(self, frame: Any) -> None:
        if isinstance(frame, bytes):
            await self._to_app.put({"type": "websocket.receive", "bytes": frame})
        else:
            text = frame if isinstance(frame, str) else json.dumps(frame)
            await self._to_app.put({"type": "websocket.receive", "text": text})

    async def close(self) -> None:
        """Leave (if the server has not closed) and wait for the handler to finish."""
        self.gate.set()
        if self._task is None:
            return
        if not self._task.done():
            self._to_app.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(asyncio.shield(self._task), GUARD)
