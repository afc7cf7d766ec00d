"""Pure ASGI middleware: request context (id, access log, metrics) and the request body limit.

`BodyLimit` refuses a body over the limit before the app sees it: at once from `Content-Length`,
otherwise while counting the streamed bytes (it buffers at most the limit, which is small). The
refusal is the error envelope with 413 `payload_too_large`.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import render
from app.api.logs import request_id
from app.api.metrics import Metrics
from app.service.errors import PayloadTooLarge

access_log = logging.getLogger("app.access")

REQUEST_ID = "x-request-id"
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = PayloadTooLarge(
            f"the request body exceeds {self.max_bytes} bytes", {"max_bytes": self.max_bytes}
        )
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await render(too_large)(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await render(too_large)(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


class RequestContext:
    """Request id (`X-Request-ID` in and out), one access log line and metrics per request."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, REQUEST_ID.encode())
        rid = incoming if incoming is not None and _VALID_ID.match(incoming) else uuid.uuid4().hex
        token = request_id.set(rid)
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((REQUEST_ID.encode(), rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            if scope["type"] == "http":
                await self.app(scope, receive, send_with_id)
            else:  # a WebSocket: its frames pass untouched (no per-frame wrapper); 101 = a session ran
                await self.app(scope, receive, send)
                status = 101
        finally:
            elapsed = time.perf_counter() - started
            route = _route_template(scope)
            if scope["type"] == "http":
                self.metrics.observe(scope["method"], route, status, elapsed)
            access_log.info(
                "request",
                extra={
                    "request_id": rid,
                    "method": scope.get("method", "WS"),
                    "route": route,
                    "path": scope.get("path", ""),  # never the query string
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 2),
                },
            )
            request_id.reset(token)


def _route_template(scope: Scope) -> str:
    route: Any = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "<unmatched>"
