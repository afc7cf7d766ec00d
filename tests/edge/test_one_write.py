"""HTTP replies in one write (`app.api.one_write`): the same bytes as uvicorn's two writes, in one.

Each case is sent over a raw socket to the real app under a real uvicorn, once with one-write
replies and once without (`DRAGO_HTTP_ONE_WRITE=0`); the replies must be byte for byte the same
(the `date` line aside), and with one-write every reply with a `content-length` must reach the
transport in a single write.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from app.api import one_write
from app.api.one_write import UVICORN_CYCLE_INTERNALS, OneWrite, uvicorn_cycle_problem
from app.main import create_app
from app.settings import Settings
from tests.api.conftest import TEST_SETTINGS
from tests.stream.servers import in_this_loop

GUARD = 10.0


def _request(method: str, path: str, body: bytes = b"", close: bool = False, **headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: test", "X-Request-ID: same-id-both-ways"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


CASES: list[tuple[str, bytes]] = [
    ("ready", _request("GET", "/readyz")),
    ("not found", _request("GET", "/v1/matches/m_doesnotexist")),
    ("created", _request("POST", "/v1/matches", b'{"game": "yutaka", "players": 2, "seed": "7"}')),
    ("refused", _request("POST", "/v1/matches", b'{"game": "yutaka", "players": 2, "seed": 7}')),
    ("bad body", _request("POST", "/v1/matches", b'{"game": ')),
    ("head", _request("HEAD", "/readyz")),
    ("closing", _request("GET", "/readyz", close=True)),
]


async def _reply(port: int, raw: bytes, method: str) -> bytes:
    """One request's whole reply (up to the connection's close for `Connection: close`)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(raw)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), GUARD)
        length = re.search(rb"(?im)^content-length: *(\d+)\r$", head)
        if b"connection: close" in head.lower():
            return head + await asyncio.wait_for(reader.read(), GUARD)
        size = 0 if method == "HEAD" or length is None else int(length.group(1))
        return head + await asyncio.wait_for(reader.readexactly(size), GUARD)
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


def _without_date(reply: bytes) -> bytes:
    return re.sub(rb"(?im)^date: [^\r]*\r\n", b"", reply)


def _shape(reply: bytes) -> tuple[bytes, object]:
    """A reply that names a new match (its ids and tokens are random): its head, its body's keys."""
    head, _, body = reply.partition(b"\r\n\r\n")
    return re.sub(rb"/v1/matches/\w+", b"/v1/matches/<id>", _without_date(head)), sorted(json.loads(body))


@contextlib.asynccontextmanager
async def _server(on: bool) -> AsyncIterator[int]:
    settings = Settings(database_url="memory://", **{**TEST_SETTINGS, "http_one_write": on})
    async with in_this_loop(create_app(settings)) as port:
        yield port


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many transport writes each reply took (counted around uvicorn's own send)."""
    counts: list[int] = []
    original = RequestResponseCycle.send

    async def counted(self: Any, message: Any) -> None:
        transport = self.transport
        if message["type"] == "http.response.start" and not isinstance(transport, _Counting):
            self.transport = _Counting(transport, counts)
        await original(self, message)

    monkeypatch.setattr(RequestResponseCycle, "send", counted)
    return counts


class _Counting:
    def __init__(self, real: Any, counts: list[int]) -> None:
        self.real = real
        counts.append(0)
        self.counts, self.index = counts, len(counts) - 1

    def write(self, data: bytes) -> None:
        self.counts[self.index] += 1
        self.real.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


async def test_replies_are_the_same_bytes_with_and_without_one_write() -> None:
    async with _server(on=True) as fast, _server(on=False) as plain:
        for name, raw in CASES:
            method = raw.split(b" ", 1)[0].decode()
            got, expected = await _reply(fast, raw, method), await _reply(plain, raw, method)
            if name == "created":
                assert got.startswith(b"HTTP/1.1 201 Created\r\n"), got
                assert _shape(got) == _shape(expected), name
            else:
                assert _without_date(got) == _without_date(expected), name
            assert b"x-request-id: same-id-both-ways" in got.lower(), name


async def test_a_reply_with_a_length_is_written_once(writes: list[int]) -> None:
    async with _server(on=True) as port:
        for _, raw in CASES:
            await _reply(port, raw, raw.split(b" ", 1)[0].decode())
    assert len(writes) == len(CASES)
    assert writes == [1] * len(CASES), writes  # head and body together (HEAD: the head alone)


async def test_without_one_write_uvicorn_writes_head_and_body_apart(writes: list[int]) -> None:
    """The control: the counting above sees uvicorn's two writes when the lane is off."""
    async with _server(on=False) as port:
        await _reply(port, CASES[0][1], "GET")
    assert writes == [2]


async def test_the_uvicorn_internals_one_write_reads_are_still_there() -> None:
    """Fails when a uvicorn upgrade renames or drops what one-write replies swap, with what to check."""
    seen: list[object] = []
    original = OneWrite.wrap

    def spy(send: Any) -> Any:
        seen.append(getattr(send, "__self__", None))
        return original(send)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(OneWrite, "wrap", staticmethod(spy))
        async with _server(on=True) as port:
            await _reply(port, CASES[0][1], "GET")
    assert seen, "RequestContext no longer wraps the server's send with OneWrite"
    cycle = seen[0]
    assert isinstance(cycle, RequestResponseCycle), (
        "uvicorn's HTTP send is no longer a bound method of its RequestResponseCycle: one-write "
        "replies (app/api/one_write.py) cannot find the transport; check uvicorn's httptools_impl "
        "and update OneWrite.wrap, or run with DRAGO_HTTP_ONE_WRITE=0"
    )
    problem = uvicorn_cycle_problem(cycle)
    assert problem is None, problem


def test_changed_internals_are_named_and_replies_go_through_send() -> None:
    class Changed:  # a uvicorn cycle that lost the transport one-write replies swap
        disconnected = False

    problem = uvicorn_cycle_problem(Changed())
    assert problem is not None
    assert (
        "transport" in problem and "app/api/one_write.py" in problem and "DRAGO_HTTP_ONE_WRITE=0" in problem
    )
    assert set(UVICORN_CYCLE_INTERNALS) == {"transport", "disconnected"}

    async def send(message: Any) -> None:  # not uvicorn's: passed through untouched
        return None

    assert OneWrite.wrap(send) is send
    assert one_write.OneWrite.wrap.__doc__
