"""Commit frames written to the socket as bytes serialized once per frame, not per connection.

A server's WebSocket frames are not masked, so a text frame's bytes are the same for every
connection that gets that text: with 1,000 spectators, uvicorn's `send` would encode the same
text, build the same frame and join it 1,000 times. `text_frame` builds those bytes (what
`websockets`' own `Frame.serialize`, the code uvicorn's protocol uses, writes for the text: a test
compares them), which the stream keeps with the frame for all the connections of its viewer, and
`DirectWire` writes them to a connection's transport under exactly the conditions in which
uvicorn's `websocket.send` would write at once: handshake done, nothing closing or closed, no
extension negotiated, no fragmented message under way, and the transport not paused
(back-pressure). Otherwise `write` returns False and the caller sends through the server's `send`
as usual, which waits or raises as it always did; the order of frames is kept because both write
synchronously into the same transport buffer.

Only uvicorn's sans-I/O WebSocket protocol (`--ws websockets-sansio`, its default) is served
directly; under any other server `DirectWire.of` gives None and every frame goes through `send`.
"""

from __future__ import annotations

import struct
from typing import Any, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Opcode
from websockets.protocol import State

_FIN_TEXT: Final = 0x80 | Opcode.TEXT.value  # the first byte of an unfragmented text frame
_TEXT_7: Final = struct.Struct("!BB")
_TEXT_16: Final = struct.Struct("!BBH")
_TEXT_64: Final = struct.Struct("!BBQ")


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


class DirectWire:
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
    def of(cls, send: Any) -> DirectWire | None:
        """The direct wire behind a server's ASGI `send` after the handshake, or None when that
        server is not uvicorn's sans-I/O protocol or the connection negotiated an extension."""
        protocol = getattr(send, "__self__", None)
        if not isinstance(protocol, WebSocketsSansIOProtocol):
            return None
        if not protocol.handshake_complete or protocol.conn.extensions:
            return None
        return cls(protocol)

    def write(self, wire: bytes) -> bool:
        """Write one serialized frame now if `send` would (True); False: send it the usual way."""
        p = self._protocol
        conn = self._conn
        if (  # the handshake is complete (`of`), and that never changes
            self._writable.is_set()
            and not p.disconnected
            and not p.close_sent
            and p.initial_response is None
            and conn.state is State.OPEN
            and not conn.expect_continuation_frame
        ):
            self._write(wire)
            return True
        return False
