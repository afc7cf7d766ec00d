"""The HTTP protocol the server runs: uvicorn's httptools protocol, with each reply of a known length
written to the socket once (status line, headers and body together) instead of twice.

uvicorn writes a reply's head when the app sends `http.response.start` and its body when the app
sends `http.response.body`: two `send` system calls, and two TCP segments that the client reads
one by one, for every action, view and join. `OneWriteCycle` holds the head of a reply that says
its `content-length` until the body comes and writes both at once; a reply without a length (a
chunked one, streamed) is written as uvicorn writes it. Everything else is uvicorn's own code: the
cycle runs uvicorn's `send` against a stand-in transport that keeps what it would write (and a
close it would make), then writes that to the socket. `OneWriteHttp` makes each request's cycle a
`OneWriteCycle` as soon as uvicorn has built it, before it runs.

Both read uvicorn's private names (`cycle`, `transport`, `chunked_encoding`, `disconnected`);
`protocol_class` checks them and, if an upgrade of uvicorn dropped one, logs that once and serves
with uvicorn's own protocol (`DRAGO_HTTP_ONE_WRITE=0` does too).
"""

from __future__ import annotations

import asyncio

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from app.api.uvicorn_internals import problem, unmentioned, warn_once

_CYCLE_NAMES = ("transport", "chunked_encoding", "disconnected")  # set in its __init__
_PROTOCOL_NAMES = ("cycle", "RequestResponseCycle")  # what its on_headers_complete sets and builds


class _Kept:
    """A stand-in transport: keeps what uvicorn's `send` writes, and whether it closed."""

    __slots__ = ("closing", "data")

    def __init__(self) -> None:
        self.data: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.data.append(data)

    def close(self) -> None:
        self.closing = True


class OneWriteCycle(RequestResponseCycle):
    """uvicorn's request–response cycle, with the head of a reply of known length held until its
    body is written with it."""

    _head: list[bytes] | None = None  # a head not yet written (an instance attribute once set)

    async def send(self, message: ASGISendEvent) -> None:
        socket = self.transport
        kept = _Kept()
        self.transport = kept  # type: ignore[assignment]  # it has the two methods `send` calls
        try:
            await super().send(message)
        finally:
            self.transport = socket
        head, self._head = self._head, None
        if self.disconnected:  # the client has gone: nothing more to write (as uvicorn's `send`)
            return
        data = kept.data if head is None else [*head, *kept.data]
        if message["type"] == "http.response.start" and data and not (self.chunked_encoding or kept.closing):
            self._head = data  # a head with a length: written with the body's first part
            return
        if data:
            socket.write(b"".join(data))
        if kept.closing:
            socket.close()


class OneWriteHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol whose cycles are `OneWriteCycle`s."""

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        cycle = self.cycle
        if type(cycle) is RequestResponseCycle:  # built just now, and not yet run
            cycle.__class__ = OneWriteCycle


def protocol_class(enabled: bool) -> type[asyncio.Protocol] | str:
    """What `uvicorn.run(http=…)` takes: `OneWriteHttp`, or uvicorn's own when disabled or when
    uvicorn's private names have changed (logged once)."""
    if not enabled:
        return "httptools"
    missing = unmentioned(RequestResponseCycle.__init__, _CYCLE_NAMES)
    missing += unmentioned(HttpToolsProtocol.on_headers_complete, _PROTOCOL_NAMES)
    found = problem(
        "httptools protocol",
        missing,
        "replies are written head and body apart;",
        "update app.api.http_protocol",
        "DRAGO_HTTP_ONE_WRITE",
    )
    if found is not None:
        warn_once("HTTP replies", found)
        return "httptools"
    return OneWriteHttp
