"""The stream fast lane: commit frames sent by the live hub's own push, written as bytes built once.

Two shortcuts serve a fan-out to many connections, and both live here, behind `FastLane`:

- **No task wake-up per connection and commit.** The hub hands a match session each commit as it
  arrives (`app.service.subscription.LiveSink`), and the session sends it at once: `send_now` runs
  the send coroutine synchronously as far as it goes (a WebSocket send that only buffers its bytes,
  as uvicorn's does, finishes there) and leaves only a send that must wait to a task.
- **Bytes serialized once per frame, not per connection.** A server's WebSocket frames are not
  masked, so a text frame's bytes are the same for every connection that gets that text:
  `text_frame` builds them (what `websockets`' own `Frame.serialize`, the code uvicorn's protocol
  uses, writes for the text: a test compares them), the stream keeps them with the frame for all
  the connections of its viewer, and `FastLane` writes them to a connection's transport under
  exactly the conditions in which uvicorn's `websocket.send` would write at once: handshake done,
  nothing closing or closed, no extension negotiated, no fragmented message under way, and the
  transport not paused (back-pressure). Otherwise the frame goes through the server's `send` as
  usual, which waits or raises as it always did; the order of frames is kept because both write
  synchronously into the same transport buffer.

The second shortcut reads private attributes of uvicorn's sans-I/O WebSocket protocol
(`--ws websockets-sansio`, its default; `UVICORN_INTERNALS` lists them). Under any other server, or
when `uvicorn_internals_problem()` finds them changed, only the first shortcut is taken.
`DRAGO_STREAM_FAST_LANE=0` turns both off: each session's own task then sends every frame through
the server's `send` (the plain send loop), the same frames in the same order.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable, Coroutine
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Opcode
from websockets.protocol import State

from app.api import uvicorn_internals
from app.service import eager
from app.service.streams import ViewerFrame

_FIN_TEXT: Final = 0x80 | Opcode.TEXT.value  # the first byte of an unfragmented text frame
_TEXT_7: Final = struct.Struct("!BB")
_TEXT_16: Final = struct.Struct("!BBH")
_TEXT_64: Final = struct.Struct("!BBQ")

UVICORN_INTERNALS: Final = (
    "conn",
    "writable",
    "transport",
    "disconnected",
    "close_sent",
    "initial_response",
    "handshake_complete",
)
"""What the direct write reads of a `WebSocketsSansIOProtocol` (and of its `conn`, a `websockets`
`ServerProtocol`: `state`, `extensions`, `expect_continuation_frame`)."""

_CONN_INTERNALS: Final = ("state", "extensions", "expect_continuation_frame")

SendText = Callable[[str], Coroutine[object, None, None]]


def text_frame(text: str) -> bytes:
    """A complete, unmasked WebSocket text frame of `text`, as a server writes it (RFC 6455 5.2:
    FIN and the text opcode, then the payload's length in 7, 7+16 or 7+64 bits, no mask), built
    directly: a third of the time of `websockets`' general `Frame.serialize`."""
    data = text.encode()
    size = len(data)
    if size < 126:
        return _TEXT_7.pack(_FIN_TEXT, size) + data
    if size < 1 << 16:
        return _TEXT_16.pack(_FIN_TEXT, 126, size) + data
    return _TEXT_64.pack(_FIN_TEXT, 127, size) + data


def uvicorn_internals_problem(protocol: object) -> str | None:
    """What is missing from a live uvicorn protocol object for the direct write, or None."""
    missing = [name for name in UVICORN_INTERNALS if not hasattr(protocol, name)]
    conn = getattr(protocol, "conn", None)
    missing += [f"conn.{name}" for name in _CONN_INTERNALS if conn is not None and not hasattr(conn, name)]
    if not hasattr(getattr(protocol, "transport", None), "write"):
        missing.append("transport.write")
    if not hasattr(getattr(protocol, "writable", None), "is_set"):
        missing.append("writable.is_set")
    return uvicorn_internals.problem(
        "WebSocketsSansIOProtocol",
        missing,
        "the stream fast lane (app/api/fast_lane.py) writes frames directly only under the conditions "
        "in which uvicorn's own send() would;",
        "compare them with that send() in the installed uvicorn and update `_DirectWire.write`",
        "DRAGO_STREAM_FAST_LANE",
    )


class _DirectWire:
    """Writes serialized frames straight to one uvicorn WebSocket connection's transport."""

    __slots__ = ("_conn", "_protocol", "_writable", "_write")

    def __init__(self, protocol: Any) -> None:
        # What `write` reads per frame, looked up once: the protocol keeps these objects for the
        # connection's life (its `conn`, its `writable` event, the transport it was made with).
        self._protocol = protocol
        self._conn = protocol.conn
        self._writable = protocol.writable
        self._write = protocol.transport.write

    @classmethod
    def of(cls, send: object) -> _DirectWire | None:
        """The direct wire behind a server's ASGI `send` after the handshake, or None when that
        server is not uvicorn's sans-I/O protocol (as it was when this was written) or the
        connection negotiated an extension."""
        protocol = uvicorn_internals.behind(
            send, WebSocketsSansIOProtocol, uvicorn_internals_problem, "stream frames"
        )
        if protocol is None:
            return None
        if not protocol.handshake_complete or protocol.conn.extensions:
            return None
        return cls(protocol)

    def ready(self) -> bool:
        """Whether uvicorn's `send` would write a frame now (the handshake is complete: `of`, and
        that never changes)."""
        p = self._protocol
        conn = self._conn
        return (
            self._writable.is_set()
            and not p.disconnected
            and not p.close_sent
            and p.initial_response is None
            and conn.state is State.OPEN
            and not conn.expect_continuation_frame
        )

    def write(self, wire: bytes) -> bool:
        """Write one serialized frame now if `send` would (True); False: send it the usual way."""
        if self.ready():
            self._write(wire)
            return True
        return False

    def write_held(self, wire: bytes) -> None:
        """Write frames accepted earlier (when `ready`), unless the connection has gone since."""
        p = self._protocol
        if not p.disconnected and not p.close_sent and self._conn.state is State.OPEN:
            self._write(wire)


class FastLane:
    """One connection's fast lane: `send_soon` sends a commit frame without waiting if it can.

    While a seat's own action is under way over its stream, `hold` keeps the frames the lane would
    write (its commit's frame among them), and `flush` writes them with the action's `ack` in one
    write: one system call and one wake-up of the client per action, not two. Every other send of
    the session flushes first, so the order of frames is kept. `ack_with` lets the lane write the
    ack itself the moment its commit's frame comes, before the frames of the match's other
    viewers are built, rather than when the acting session runs again after all of them."""

    __slots__ = ("_ack", "_acked", "_held", "wire")

    def __init__(self, server_send: object) -> None:
        self.wire = _DirectWire.of(server_send)  # None: every frame through `send_text`
        self._held: list[bytes] | None = None
        self._ack: tuple[int, str] | None = None  # an ack to write with the frame of its commit
        self._acked = False  # that ack went out so

    @property
    def holding(self) -> bool:
        return self._held is not None

    def hold(self) -> None:
        """Keep the frames written directly from now until `flush` (with a direct wire only)."""
        if self.wire is not None:
            self._held = []
            self._acked = False

    def ack_with(self, seq: int, text: str) -> None:
        """While holding: write `text`, the ack of the commit that ends at `seq`, with what is held
        as soon as that commit's frame is held (`flush` then finds nothing held: `acked` says the
        ack is out). Not holding: nothing."""
        if self._held is not None:
            self._ack = (seq, text)

    @property
    def acked(self) -> bool:
        """Whether the ack given to `ack_with` since the last `hold` went out with its commit's frame."""
        return self._acked

    def flush(self, text: str | None = None) -> bool:
        """Stop holding: write what was held and, after it, `text` as a frame, in one write. True
        when `text` went out with them; False: the caller sends it the usual way (after these)."""
        held, self._held = self._held, None
        self._ack = None
        wire = self.wire
        if wire is None:
            return False
        parts = held or []
        sent = False
        if text is not None and wire.ready():
            parts.append(text_frame(text))
            sent = True
        if parts:
            wire.write_held(b"".join(parts))
        return sent

    def send_soon(self, frame: ViewerFrame, send_text: SendText) -> asyncio.Task[None] | None:
        """Send a commit frame now if the connection takes it at once (None), else a task that
        finishes sending it with `send_text`. Where the server allows writing directly, the frame's
        bytes are serialized once, kept with the frame, for all the connections that get it. (The
        session passes its `send_text` per call: a lane holding it would be a reference cycle.)"""
        wire = self.wire
        if wire is not None:
            data = frame.encoded
            if data is None:
                data = frame.encoded = text_frame(frame.text)
            held = self._held
            if held is not None:
                if wire.ready():
                    held.append(data)
                    ack = self._ack
                    if ack is not None and frame.seq >= ack[0]:  # the acted commit's frame: out now
                        self._acked = self.flush(ack[1])
                    return None
                self.flush()  # what is held goes first; this frame the usual way, after it
            elif wire.write(data):
                return None
        return send_now(send_text(frame.text))


def send_now(send: Coroutine[object, None, None]) -> asyncio.Task[None] | None:
    """Run a send coroutine synchronously as far as it goes: None when it finished (a WebSocket
    send that only buffers its bytes, as uvicorn's does), else a task that finishes it. Errors it
    meets synchronously are raised here."""
    stepped = eager.step(send)
    return None if isinstance(stepped, eager.Done) else asyncio.ensure_future(stepped.run())
