"""Pure ASGI middleware: request context (id, access log, metrics, contained 500s), the input
guard and the request body limit.

`RequestContext` is the outermost layer: it stamps the request id, writes one access line, and
contains any exception that escapes the app — one log line with the request id and the traceback
(the log filter removes secrets), the error envelope with 500 `internal_error` if no response had
started — and never re-raises, so the server neither logs it again nor resets the connection.

`InputGuard` refuses, before routing, a path or query string that is not valid UTF-8 once
percent-decoded or that holds a control character (NUL included): 422 `validation_error` over
HTTP; over a WebSocket an `error` frame then close 4400, as the stream reports bad query
parameters. No such value can reach a database (PostgreSQL refuses NUL in text).

`SchemaGate` answers 503 `unavailable` (with `Retry-After`) to every `/v1/` request while the
database schema is not the newest migration (`Readiness`), instead of letting queries fail with
500s; operations (`/healthz`, `/readyz`, `/metrics`) and the docs stay served.

`BodyLimit` refuses a body over the limit before the app sees it: at once from `Content-Length`
(a body within its declared length passes through untouched: the server delivers no more), otherwise
while counting the streamed bytes (it buffers at most the limit, which is small). The refusal is the
error envelope with 413 `payload_too_large`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.closes import close_code, close_reason
from app.api.errors import render
from app.api.frame_text import error_frame
from app.api.logs import request_id
from app.api.metrics import Metrics
from app.service.errors import InternalError, PayloadTooLarge, ServiceError, Unavailable, ValidationFailed

access_log = logging.getLogger("app.access")
error_log = logging.getLogger("app.api")

REQUEST_ID = "x-request-id"
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_DIGITS = re.compile(r"[0-9]{1,20}")  # ASCII only: str.isdigit() also takes "²"

# Bytes that need a closer look: percent escapes, controls, anything not ASCII. Most requests have
# none, so the guard costs one regex search per request on the hot path.
_SUSPECT = re.compile(rb"[%\x00-\x1f\x7f-\xff]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _problem(raw: bytes, plus_is_space: bool) -> str | None:
    """Why a raw path or query string is refused, or None."""
    if not _SUSPECT.search(raw):
        return None
    data = unquote_to_bytes(raw.replace(b"+", b" ") if plus_is_space else raw)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "is not valid UTF-8"
    if _CONTROL.search(text):
        return "holds a control character"
    return None


class InputGuard:
    """422 `validation_error` for a path or query string with invalid UTF-8 or control characters."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            raw_path = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
            problem = _problem(raw_path, plus_is_space=False)
            field = "path"
            if problem is None:
                problem = _problem(scope.get("query_string", b""), plus_is_space=True)
                field = "query"
            if problem is not None:
                error = ValidationFailed(f"the {field} {problem}", {"field": field})
                if scope["type"] == "http":
                    await render(error)(scope, receive, send)
                else:
                    await _refuse_socket(WebSocket(scope, receive, send), error)
                return
        await self.app(scope, receive, send)


async def _refuse_socket(ws: WebSocket, error: ServiceError) -> None:
    """As the stream refuses a connection: accept, one `error` frame, close with the error's code."""
    with contextlib.suppress(Exception):  # the client went away first: nothing left to tell it
        await ws.accept()
        await ws.send_text(error_frame(None, error))
        await ws.close(close_code(error), close_reason(error))


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared, encoding = _headers(scope, b"content-length", b"transfer-encoding")
        if declared is not None and _DIGITS.fullmatch(declared):
            if int(declared) > self.max_bytes:
                await render(self._too_large())(scope, receive, send)
                return
            if encoding is None:
                # The server delivers no more than the declared length: nothing left to count, and
                # the app reads the body as the server hands it (most requests, the moves included).
                await self.app(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                await self.app(scope, replay_body([message], receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await render(self._too_large())(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replay_body([whole], receive), send)

    def _too_large(self) -> PayloadTooLarge:  # built only when refusing: not once per request
        return PayloadTooLarge(
            f"the request body exceeds {self.max_bytes} bytes", {"max_bytes": self.max_bytes}
        )


def replay_body(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that hands out `messages` (a body already read) first, then the real one."""
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


def _headers(scope: Scope, *names: bytes) -> list[str | None]:
    """The first value of each header of `names` (None where absent), in one pass over them."""
    found: dict[bytes, str] = {}
    for key, value in scope.get("headers", ()):
        if key in names and key not in found:
            found[key] = value.decode("latin-1")
    return [found.get(name) for name in names]


# Request ids: a random prefix per process and a counter, unique across processes and restarts for
# all practical purposes, and cheaper than a `uuid4()` (an `os.urandom` system call) per request.
_REQUEST_IDS = (f"{prefix}-{n}" for prefix in [secrets.token_hex(8)] for n in itertools.count(1))


class RequestContext:
    """Request id (`X-Request-ID` in and out), one access log line and metrics per request."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        (incoming,) = _headers(scope, REQUEST_ID.encode())
        rid = incoming if incoming is not None and _VALID_ID.match(incoming) else next(_REQUEST_IDS)
        token = request_id.set(rid)
        status = 500
        responded = False
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status, responded
            if message["type"] == "http.response.start":
                status = message["status"]
                responded = True
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
        except Exception as e:
            if scope["type"] == "websocket" and isinstance(e, OSError):
                # A stream whose connection went away under it (its client left during the handshake:
                # uvicorn's ClientDisconnected, a reset): nothing was sent to anyone and nothing is
                # wrong here, so no error line and no 500 (1006: "closed abnormally").
                error_log.info("stream ended: the connection went away (%s)", type(e).__name__,
                               extra={"request_id": rid, "path": scope.get("path", "")})  # fmt: skip
                status = 1006
                return
            # Contained here, logged once: re-raising would make the server log it a second time
            # and drop the connection. The log filter strips secrets from the traceback too.
            error_log.exception("unhandled error", extra={"request_id": rid, "path": scope.get("path", "")})
            status = 500
            if scope["type"] == "http" and not responded:
                await render(InternalError())(scope, receive, send_with_id)
            elif scope["type"] == "websocket":
                await _close_quietly(send)
        finally:
            elapsed = time.perf_counter() - started
            route = _route_template(scope)
            if scope["type"] == "http":
                self.metrics.observe(scope["method"], route, status, elapsed)
            if access_log.isEnabledFor(logging.INFO):  # its record is built only when written
                access_log.info(
                    "request",
                    extra={
                        "request_id": rid,
                        "method": scope.get("method", "WS"),
                        "route": route,
                        "path": scope.get("path", ""),  # never the query string
                        "client": _client(scope),  # as a trusted proxy named it (`app.api.forwarded`)
                        "status": status,
                        "duration_ms": round(elapsed * 1000, 2),
                    },
                )
            request_id.reset(token)


async def _close_quietly(send: Send) -> None:
    """Close a WebSocket whose handler failed: 1011 (before the handshake the server answers 403)."""
    with contextlib.suppress(Exception):  # already closed: nothing to do
        await send({"type": "websocket.close", "code": 1011, "reason": "internal error"})


class Readiness:
    """Whether the database schema is the newest: `probe()` asked at most once a second until it
    says yes, then never again (a schema at head stays at head for this process's code)."""

    RECHECK = 1.0

    def __init__(self, probe: Callable[[], Awaitable[bool]] | None = None) -> None:
        self.probe = probe
        self.ready = probe is None
        self._checked = -math.inf
        self._lock = asyncio.Lock()

    async def check(self) -> bool:
        if self.ready or self.probe is None:
            return True
        async with self._lock:
            if not self.ready and time.monotonic() - self._checked >= self.RECHECK:
                self._checked = time.monotonic()
                try:
                    self.ready = await self.probe()
                except Exception:
                    error_log.warning("the database schema cannot be read", exc_info=True)
        return self.ready


class SchemaGate:
    """503 `unavailable` for `/v1/` requests until `readiness` says the schema is the newest."""

    def __init__(self, app: ASGIApp, readiness: Readiness) -> None:
        self.app = app
        self.readiness = readiness

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            not self.readiness.ready
            and scope["type"] in ("http", "websocket")
            and scope["path"].startswith("/v1/")
            and not await self.readiness.check()
        ):
            error = Unavailable("the database schema is not the newest: run `python -m app migrate`")
            if scope["type"] == "http":
                await render(error, {"Retry-After": "5"})(scope, receive, send)
            else:
                await _refuse_socket(WebSocket(scope, receive, send), error)
            return
        await self.app(scope, receive, send)


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _route_template(scope: Scope) -> str:
    route: object = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "<unmatched>"
