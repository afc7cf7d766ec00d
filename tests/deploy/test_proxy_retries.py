"""The committed `deploy/haproxy.cfg` retries a request whose server dies before answering, on
another server, whatever way the request's body arrived: with its headers, or after them (as
httpx and most clients send a POST: headers, then body, in two writes).

Three stand-in servers on loopback (raw asyncio, so the test decides exactly when one "dies"):
each answers the health check; the first request that is not a health check, whichever server
gets it, is read and its connection dropped unanswered (a server killed mid-request); every later
one is answered 200 with the body it carried. A client that gets 502 would have met a proxy that
could not retry: HAProxy disables its retries of a request sent to a server before its body was
in, unless it waits for the body first (`option http-buffer-request`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fleet.instances import PROXY_CONFIG, OwnHaproxy, haproxy_binary

GUARD = 30.0


class StandIns:
    """The three servers' shared behaviour: the first request (not a health check) dies."""

    def __init__(self) -> None:
        self.requests: list[bytes] = []  # the bodies that arrived, in order, dropped ones included
        self.dropped = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                length = next(
                    (
                        int(line.split(":", 1)[1])
                        for line in lines
                        if line.lower().startswith("content-length:")
                    ),
                    0,
                )
                if lines[0].startswith("GET /readyz"):
                    writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
                    await writer.drain()
                    continue
                if self.dropped == 0:  # dies with the request read (headers, or all of it) unanswered
                    self.dropped += 1
                    self.requests.append(b"")
                    writer.transport.abort()
                    return
                body = await reader.readexactly(length)
                self.requests.append(body)
                reply = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: %d\r\n\r\n%s"
                writer.write(reply % (len(body), body))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


@contextlib.asynccontextmanager
async def proxy_before(stand_ins: StandIns, tmp_path: Path) -> AsyncIterator[int]:
    """HAProxy running the committed config in front of three stand-ins; yields its port."""
    haproxy_binary()  # skip (or fail in CI) before starting anything
    servers = [await asyncio.start_server(stand_ins.serve, "127.0.0.1", 0) for _ in range(3)]
    log = tmp_path / "haproxy.log"
    proxy = OwnHaproxy([s.sockets[0].getsockname()[1] for s in servers], log)
    proxy.start()
    try:
        deadline = asyncio.get_running_loop().time() + GUARD
        while True:  # listening, and every server seen up by a first round of health checks
            with contextlib.suppress(OSError):
                _, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
                writer.close()
                break
            assert asyncio.get_running_loop().time() < deadline, log.read_text()
            await asyncio.sleep(0.05)
        yield proxy.port
    finally:
        await asyncio.to_thread(proxy.stop)
        for server in servers:
            server.close()


async def post(port: int, body: bytes, *, body_later: bool) -> bytes:
    """POST `body` through the proxy, in one write or as headers then (a moment later) body;
    the whole reply."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        b"POST /v1/matches/m/actions HTTP/1.1\r\nhost: drago\r\ncontent-type: application/json\r\n"
        b"idempotency-key: k1\r\ncontent-length: %d\r\nconnection: close\r\n\r\n" % len(body)
    )
    if body_later:
        writer.write(head)
        await writer.drain()
        await asyncio.sleep(0.3)  # the proxy has the headers alone meanwhile
        writer.write(body)
    else:
        writer.write(head + body)
    await writer.drain()
    reply = await asyncio.wait_for(reader.read(), GUARD)
    writer.close()
    return reply


@pytest.mark.parametrize("body_later", [False, True], ids=["body-with-headers", "body-after-headers"])
async def test_a_request_whose_server_dies_unanswered_is_retried_on_another(
    tmp_path: Path, body_later: bool
) -> None:
    stand_ins = StandIns()
    async with proxy_before(stand_ins, tmp_path) as port:
        body = b'{"action": {"type": "pass"}}'
        reply = await post(port, body, body_later=body_later)
    assert reply.startswith(b"HTTP/1.1 200"), reply.decode("latin-1")
    assert reply.endswith(body)
    assert stand_ins.dropped == 1 and stand_ins.requests == [b"", body]  # one died, one answered


def test_the_proxy_config_waits_for_a_request_body_before_choosing_a_server() -> None:
    lines = [line.split("#")[0].strip() for line in PROXY_CONFIG.read_text().splitlines()]
    assert "option http-buffer-request" in lines
