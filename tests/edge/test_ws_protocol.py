"""The server's WebSocket protocol (`app.api.ws_protocol`): an ordinary text frame that arrives alone
is read without `websockets`' parser, and every connection goes exactly as under uvicorn's own
protocol — the messages the app receives, every byte written back (pongs, closes), and when reading
pauses and resumes — whatever frames the client sends and however the reads cut them: split,
coalesced, fragmented, binary, control frames, too big, not UTF-8. Each case runs an app through
both protocols on a recording transport and compares the transcripts."""

from __future__ import annotations

import asyncio
import logging
import os
import random
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.protocol import SERVER, Protocol, State
from websockets.utils import apply_mask

from app.api import uvicorn_internals, ws_protocol
from app.api.ws_protocol import DirectTextWs, direct_payload, protocol_class
from app.settings import Settings
from tests.edge.recording import Socket
from tests.edge.serving import served

HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: example.org\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)
MAX_SIZE = 4096


class Connection:
    """One connection of a protocol class, accepted by an app that records what it receives."""

    def __init__(self, protocol: type[WebSocketsSansIOProtocol]) -> None:
        self.received: list[dict[str, Any]] = []

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            while True:
                message = await receive()
                self.received.append(message)
                if message["type"] == "websocket.disconnect":
                    return

        config = Config(
            app=app, ws=protocol, ws_max_size=MAX_SIZE, ws_ping_interval=None, lifespan="off", log_config=None
        )
        config.load()
        self.state = ServerState()
        self.protocol = protocol(
            config=config, server_state=self.state, app_state={}, _loop=asyncio.get_running_loop()
        )
        self.socket = Socket(flow=True)
        self.protocol.connection_made(self.socket)  # type: ignore[arg-type]  # a recording stand-in

    async def feed(self, data: bytes) -> None:
        """One read of the socket, then the app's turn (it takes what was queued)."""
        if self.protocol.transport.is_closing():
            return
        self.protocol.data_received(data)
        for _ in range(5):
            await asyncio.sleep(0)

    async def end(self) -> list[Any]:
        self.protocol.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        for task in list(self.state.tasks):
            task.cancel()
        return [self.socket.log, self.received]


def frame(opcode: Opcode, data: bytes, fin: bool = True, mask: bool = True) -> bytes:
    return Frame(opcode, data, fin).serialize(mask=mask)


def text(value: str, fin: bool = True) -> bytes:
    return frame(Opcode.TEXT, value.encode(), fin)


async def transcripts(reads: list[bytes]) -> tuple[list[Any], list[Any]]:
    """What uvicorn's own protocol and `DirectTextWs` did with the same reads, after the handshake."""
    out = []
    for protocol in (WebSocketsSansIOProtocol, DirectTextWs):
        conn = Connection(protocol)
        await conn.feed(HANDSHAKE)
        for data in reads:
            await conn.feed(data)
        out.append(await conn.end())
    return out[0], out[1]


@pytest.fixture
def direct(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The payloads read without `websockets`' parser, in order."""
    taken: list[bytes] = []

    def spy(protocol: Any, data: bytes) -> bytes | None:
        payload = real(protocol, data)
        if payload is not None:
            taken.append(payload)
        return payload

    real = ws_protocol.direct_payload
    monkeypatch.setattr(ws_protocol, "direct_payload", spy)
    return taken


async def test_ordinary_text_frames_are_read_directly_and_received_as_uvicorn_receives_them(
    direct: list[bytes],
) -> None:
    messages = ['{"type":"ping"}', "", "é" * 70, "x" * 125, "y" * 126, "z" * 3000, "🐉 " * 40]
    own, ours = await transcripts([text(m) for m in messages])
    assert ours == own
    assert [m.get("text") for m in ours[1][:-1]] == messages
    assert direct == [m.encode() for m in messages]  # every one of them without the parser
    assert ours[0].count("pause") == len(messages)  # reading pauses until the app takes each, as uvicorn's


async def test_other_frames_and_cuts_go_through_websockets_and_come_out_the_same(direct: list[bytes]) -> None:
    hello = text("hello")
    cases = [
        [hello[:3], hello[3:]],  # split between reads
        [hello + text("two")],  # two in one read
        [text("part ", fin=False), frame(Opcode.CONT, b"one")],  # fragmented
        [text("part ", fin=False), text("not a continuation")],  # a protocol error: closed 1002
        [frame(Opcode.BINARY, b"\x00\x01")],
        [frame(Opcode.PING, b"are you there"), hello],  # answered with a pong
        [frame(Opcode.PONG, b"unasked")],
        [text("x" * (MAX_SIZE + 1))],  # too big: closed 1009
        [frame(Opcode.TEXT, b"\xff\xfe")],  # not UTF-8: closed 1007
        [frame(Opcode.TEXT, b"unmasked", mask=False)],  # a client's frames are masked: closed 1002
        [frame(Opcode.CLOSE, b"\x03\xe8bye"), hello],  # nothing after the close
        [hello[:1], hello[1:] + hello],  # the parser mid-frame, then a whole frame in the same read
    ]
    for reads in cases:
        direct.clear()
        own, ours = await transcripts(reads)
        assert ours == own, reads
    assert await transcripts([hello[:2], hello[2:6], hello[6:]]) == await transcripts([hello])


async def test_after_a_frame_split_between_reads_the_next_whole_one_is_read_directly(
    direct: list[bytes],
) -> None:
    hello = text("hello")
    own, ours = await transcripts([hello[:2], hello[2:], text("again")])
    assert ours == own
    assert direct == [b"again"]  # the split one by the parser, which was back at a boundary after it


async def test_the_rest_of_a_frame_that_looks_like_a_frame_is_left_to_the_parser(direct: list[bytes]) -> None:
    """A read that ends right after a frame's header leaves the parser waiting for the mask with
    nothing buffered; the next read, the mask and the payload, can be one well-formed text frame
    byte for byte (here it is: its mask key is chosen so). It is the rest of the first frame."""
    payload = b"a" * 300
    key = bytes([0x81, 0xFE]) + (len(payload) - 4).to_bytes(2, "big")  # "a text frame of 296 bytes"
    whole = bytes([0x81, 0xFE]) + len(payload).to_bytes(2, "big") + key + apply_mask(payload, key)
    assert direct_payload.__module__ == "app.api.ws_protocol"
    own, ours = await transcripts([whole[:4], whole[4:]])
    assert ours == own
    assert [m.get("text") for m in ours[1][:-1]] == ["a" * 300] and direct == []


async def test_random_conversations_go_as_under_uvicorns_own_protocol() -> None:
    rng = random.Random(int(os.environ.get("WS_PROTOCOL_SEED", "38")))
    for _ in range(60):
        frames: list[bytes] = []
        for _ in range(rng.randint(1, 12)):
            kind = rng.random()
            if kind < 0.6:
                size = rng.choice([0, 5, 125, 126, 200, 2000, MAX_SIZE, MAX_SIZE + 1])
                frames.append(text("".join(rng.choice('aé🐉{}"') for _ in range(size // 4 + 1))[:size]))
            elif kind < 0.7:
                frames.append(frame(Opcode.BINARY, rng.randbytes(rng.randint(0, 300))))
            elif kind < 0.8:
                frames.append(frame(Opcode.PING, rng.randbytes(rng.randint(0, 20))))
            elif kind < 0.9:
                frames += [text("first ", fin=False), frame(Opcode.CONT, b"second")]
            else:
                frames.append(frame(Opcode.TEXT, rng.randbytes(rng.randint(1, 8))))  # UTF-8 or not
        data = b"".join(frames)
        reads, at = [], 0
        while at < len(data):  # cut anywhere: most reads whole frames, some split or joined
            step = len(frames[0]) if rng.random() < 0.5 and frames else rng.randint(1, 400)
            reads.append(data[at : at + step])
            at += step
            frames = frames[1:]
        own, ours = await transcripts(reads)
        assert ours == own, reads


def test_the_boundary_check_reads_the_parser_as_websockets_leaves_it() -> None:
    conn = Protocol(SERVER, state=State.OPEN)
    assert ws_protocol._at_boundary(conn.parser)
    hello = text("hello")
    conn.receive_data(hello[:2])  # the header, taken: the parser waits for the mask, nothing buffered
    assert not conn.reader.buffer and not ws_protocol._at_boundary(conn.parser)
    conn.receive_data(hello[2:])
    assert [getattr(e, "data", None) for e in conn.events_received()] == [b"hello"]
    assert ws_protocol._at_boundary(conn.parser)


def test_the_server_runs_it_unless_turned_off(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    options, _ = served(
        monkeypatch,
        Settings(database_url="memory://"),
        Settings(database_url="memory://", stream_fast_lane=False),
    )
    assert [each["ws"] for each in options] == [DirectTextWs, "websockets-sansio"]
    # the private names it reads are checked: one gone, the server says so and runs uvicorn's own
    monkeypatch.setattr(ws_protocol, "_CONN_NAMES", (*ws_protocol._CONN_NAMES, "gone_in_websockets"))
    uvicorn_internals.warn_once.cache_clear()
    with caplog.at_level(logging.WARNING, logger="app.api"):
        assert protocol_class(True) == "websockets-sansio"
    assert "gone_in_websockets" in caplog.text and "DRAGO_STREAM_FAST_LANE=0" in caplog.text


async def test_the_internals_it_reads_are_still_there() -> None:
    """Fails when an upgrade of uvicorn or websockets renames what the direct read uses."""
    uvicorn_internals.warn_once.cache_clear()
    assert protocol_class(True) is DirectTextWs
    conn = Connection(DirectTextWs)
    await conn.feed(HANDSHAKE)
    assert hasattr(conn.protocol, "conn") and callable(conn.protocol.handle_text)
    assert all(hasattr(conn.protocol.conn, name) for name in ws_protocol._CONN_NAMES)
    assert direct_payload(conn.protocol, text("hi")) == b"hi"
    await conn.end()
