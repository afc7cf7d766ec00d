"""The server's HTTP protocol (`app.api.http_protocol`): a reply of known length reaches the socket in
one write, byte for byte what uvicorn's own protocol writes in two; replies without a length, long
bodies, HEAD, `connection: close`, keep-alive and pipelined requests, and an app that fails after
the head, as uvicorn serves them. Each case runs an app through both protocols on a recording
transport and compares what reached the socket."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from app.api import http_protocol, uvicorn_internals
from app.api.http_protocol import OneWriteCycle, OneWriteHttp, protocol_class
from app.settings import Settings
from tests.edge.recording import Socket
from tests.edge.serving import served

App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]
GET = b"GET /x HTTP/1.1\r\nHost: example.org\r\n\r\n"


def connect(
    protocol: type[HttpToolsProtocol], app: App, request: bytes
) -> tuple[Socket, HttpToolsProtocol, ServerState]:
    """A connection of `protocol` running `app` on a recording socket, given `request` (one or
    several, pipelined): the socket, the protocol and the server state holding the requests' tasks."""
    config = Config(app=app, ws="none", lifespan="off", log_config=None)
    config.load()
    state = ServerState()
    server = protocol(config=config, server_state=state, app_state={}, _loop=asyncio.get_running_loop())
    socket = Socket()
    server.connection_made(socket)  # type: ignore[arg-type]  # a recording stand-in
    server.data_received(request)
    return socket, server, state


async def settle(state: ServerState) -> None:
    """Until every request's task is done (the next pipelined one starts when one ends)."""
    while state.tasks:
        await asyncio.wait(set(state.tasks))


async def serve_once(
    protocol: type[HttpToolsProtocol], app: App, request: bytes
) -> tuple[Socket, HttpToolsProtocol]:
    """`request` through `protocol` running `app`, until every reply is done."""
    socket, server, state = connect(protocol, app, request)
    await settle(state)
    return socket, server


async def both(app: App, request: bytes = GET) -> tuple[Socket, Socket]:
    ours, _ = await serve_once(OneWriteHttp, app, request)
    theirs, _ = await serve_once(HttpToolsProtocol, app, request)
    return ours, theirs


def reply(body: bytes = b'{"ok":true}', *, length: bool = True, parts: int = 1, status: int = 200) -> App:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        headers = [(b"content-type", b"application/json")]
        if length:
            headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        size = max(1, -(-len(body) // parts))
        chunks = [body[i : i + size] for i in range(0, len(body), size)] or [b""]
        for i, chunk in enumerate(chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": i < len(chunks) - 1})

    return app


async def test_a_reply_of_known_length_is_one_write_of_uvicorns_two() -> None:
    ours, theirs = await both(reply())
    assert len(theirs.writes()) == 2  # what this module saves: the head, then the body
    assert ours.writes() == [b"".join(theirs.writes())]
    assert ours.writes()[0].startswith(b"HTTP/1.1 200 OK\r\n") and ours.writes()[0].endswith(b'{"ok":true}')


@pytest.mark.parametrize("status", [204, 304, 404])
async def test_replies_without_a_body_are_one_write_too(status: int) -> None:
    ours, theirs = await both(reply(b"" if status != 404 else b"{}", status=status))
    assert ours.writes() == [b"".join(theirs.writes())]


async def test_a_reply_without_a_length_is_written_as_it_comes() -> None:
    ours, theirs = await both(reply(b"x" * 30, length=False, parts=3))
    assert ours.log == theirs.log
    assert len(ours.writes()) == 4  # the head, two chunks, the last chunk with the terminator


async def test_a_long_body_in_parts_is_not_held_back() -> None:
    """Only the head waits, for the body's first part: the parts after it are written as they come."""
    ours, theirs = await both(reply(b"y" * 3000, parts=3))
    assert len(theirs.writes()) == 4
    assert ours.writes() == [theirs.writes()[0] + theirs.writes()[1], *theirs.writes()[2:]]


async def test_head_requests_and_connection_close() -> None:
    head = b"HEAD /x HTTP/1.1\r\nHost: example.org\r\n\r\n"
    ours, theirs = await both(reply(), head)
    assert ours.writes() == [b"".join(theirs.writes())] and not ours.writes()[0].endswith(b"}")
    closing = b"GET /x HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n"
    ours, theirs = await both(reply(), closing)
    assert ours.log == [b"".join(theirs.writes()), "close"] and theirs.log[-1] == "close"


async def test_keep_alive_and_pipelined_requests_each_get_one_write() -> None:
    ours, theirs = await both(reply(), GET * 3)
    assert len(theirs.writes()) == 6
    assert ours.writes() == [b"".join(theirs.writes()[i : i + 2]) for i in (0, 2, 4)]


async def test_an_app_that_fails_after_the_head_closes_the_connection() -> None:
    """uvicorn writes the head and then closes; here the head was held, so the client reads a closed
    connection without a reply: neither is a reply it could use."""

    async def broken(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"5")]})
        raise RuntimeError("the app failed")

    ours, theirs = await both(broken)
    assert theirs.log[-1] == "close" and len(theirs.writes()) == 1
    assert ours.log == ["close"]


@pytest.mark.parametrize("protocol", [OneWriteHttp, HttpToolsProtocol])
async def test_a_client_gone_before_the_body_gets_nothing_more(protocol: type[HttpToolsProtocol]) -> None:
    """The connection is lost between the head and the body: uvicorn had written the head, the held
    head is dropped; neither writes after the loss."""
    started, go_on = asyncio.Event(), asyncio.Event()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        started.set()
        await go_on.wait()
        await send({"type": "http.response.body", "body": b"{}"})

    socket, server, state = connect(protocol, app, GET)
    await started.wait()
    written = socket.writes()
    server.connection_lost(None)
    go_on.set()
    await settle(state)
    assert socket.writes() == written
    assert len(written) == (0 if protocol is OneWriteHttp else 1)


async def test_each_request_runs_in_a_one_write_cycle() -> None:
    _, server = await serve_once(OneWriteHttp, reply(), GET)
    assert type(server.cycle) is OneWriteCycle


def test_the_server_runs_it_unless_turned_off(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    options, _ = served(
        monkeypatch,
        Settings(database_url="memory://"),
        Settings(database_url="memory://", http_one_write=False),
    )
    given = [each["http"] for each in options]
    assert given == [OneWriteHttp, "httptools"]
    # uvicorn's private names are checked: one gone, the server says so and runs uvicorn's own
    monkeypatch.setattr(http_protocol, "_CYCLE_NAMES", (*http_protocol._CYCLE_NAMES, "gone_in_uvicorn"))
    uvicorn_internals.warn_once.cache_clear()
    with caplog.at_level(logging.WARNING, logger="app.api"):
        assert protocol_class(True) == "httptools"
    assert "gone_in_uvicorn" in caplog.text and "DRAGO_HTTP_ONE_WRITE=0" in caplog.text
