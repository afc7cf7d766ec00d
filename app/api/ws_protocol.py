"""The WebSocket protocol the server runs: uvicorn's sans-I/O protocol, with a client's ordinary text
frame handed to the app without going through `websockets`' general frame parser.

Nearly every frame a client sends is one small text message in one frame (an `action`, a `ping`)
and arrives alone in one read of the socket. uvicorn's protocol feeds every read to `websockets`'
sans-I/O parser (generator coroutines: the header, the length, the mask, the payload, each read
apart; a `Frame` object; a list of events; then uvicorn's dispatch on the opcode), a fifth of what
the server spends receiving an action over a match stream. `DirectTextWs.data_received` reads such
a frame itself and hands it to uvicorn's `handle_text`, as `websockets` would have (uvicorn then
decodes it, queues it for the app and pauses reading until the app takes it, as for any frame),
when all of this holds (`direct_payload`), and otherwise hands the read to uvicorn and
`websockets` unchanged:

- the connection is open (`websockets`' state `OPEN`: past the handshake, no close sent or
  received), negotiated no extension, has no fragmented message under way, and `websockets`'
  parser is at a frame boundary (it waits for a frame's first byte with nothing buffered:
  `_at_boundary`);
- the read is exactly one complete frame: FIN, no reserved bit, the text opcode, masked (RFC 6455
  5.3: a client's frames are), a length in 7 or 7+16 bits within the connection's `max_size`;
- its payload is unmasked with `websockets`' own C helper.

So a frame that is fragmented, split between reads, coalesced with another, binary, a control
frame (ping, pong, close), too big or unmasked takes the usual path, which answers it
(or closes the connection) as it always did; `websockets`' state is not touched by a frame read
here, since after such a frame it would be where it was before (`recv_frame` changes nothing for a
complete text frame with no fragmented message under way).

This reads uvicorn's protocol's `conn` and the state of `websockets`' `Protocol` it holds
(`_CONN_NAMES`), and calls uvicorn's `handle_text`; `protocol_class` checks them and, if an
upgrade dropped one, logs that once and serves with uvicorn's own protocol.
`DRAGO_STREAM_FAST_LANE=0` serves with uvicorn's own too.
"""

from __future__ import annotations

import asyncio
from typing import Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol, State
from websockets.streams import StreamReader

from app.api.uvicorn_internals import problem, unmentioned, warn_once

try:  # the C helper `websockets` itself unmasks with, when built (its frames module does the same)
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - a build of websockets without its extension
    from websockets.utils import apply_mask

_FIN_TEXT: Final = 0x81  # FIN, no reserved bit, the text opcode
_MASKED: Final = 0x80
_AT_BOUNDARY: Final = StreamReader.at_eof.__code__  # what the parser waits in between frames
_CONN_NAMES: Final = (
    "state",
    "extensions",
    "current_size",
    "max_message_size",
    "max_fragment_size",
    "parser",
    "debug",
)


def direct_payload(protocol: WebSocketsSansIOProtocol, data: bytes) -> bytes | None:
    """The unmasked payload of `data` when it is one complete ordinary text frame that `protocol`
    may take without its parser (see the module); else None."""
    size = len(data)
    if size < 6 or data[0] != _FIN_TEXT:
        return None
    second = data[1]
    if not second & _MASKED:
        return None
    length = second & 0x7F
    head = 2
    if length == 126:
        if size < 8:
            return None
        length = int.from_bytes(data[2:4], "big")
        head = 4
    elif length == 127:  # 64 KiB or more: rare, the usual way
        return None
    if size != head + 4 + length:
        return None
    conn = protocol.conn
    if (
        conn.state is not State.OPEN
        or conn.extensions
        or conn.current_size is not None
        or conn.debug
        or (conn.max_message_size is not None and length > conn.max_message_size)
        or (conn.max_fragment_size is not None and length > conn.max_fragment_size)
        or not _at_boundary(conn.parser)
    ):
        return None
    return apply_mask(data[head + 4 :], data[head : head + 4])


def _at_boundary(parser: object) -> bool:
    """Whether `websockets`' parser generator waits for the first byte of a frame: it is suspended
    in `StreamReader.at_eof`, which yields only while nothing is buffered (a read that ended right
    after a header leaves it in `Frame.parse` instead, with nothing buffered either)."""
    while (inner := getattr(parser, "gi_yieldfrom", None)) is not None:
        parser = inner
    return getattr(parser, "gi_code", None) is _AT_BOUNDARY


class DirectTextWs(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, reading ordinary text frames directly."""

    def data_received(self, data: bytes) -> None:
        payload = direct_payload(self, data)
        if payload is None:
            super().data_received(data)
        else:  # what uvicorn does with the frame `websockets` would have parsed
            self.handle_text(Frame(Opcode.TEXT, payload))


def protocol_class(enabled: bool) -> type[asyncio.Protocol] | str:
    """What `uvicorn.run(ws=…)` takes: `DirectTextWs`, or uvicorn's own when disabled or when a
    private name it reads has changed (logged once)."""
    if not enabled:
        return "websockets-sansio"
    missing = unmentioned(WebSocketsSansIOProtocol.__init__, ("conn",))
    missing += unmentioned(Protocol.__init__, _CONN_NAMES)
    if not callable(getattr(WebSocketsSansIOProtocol, "handle_text", None)):
        missing.append("WebSocketsSansIOProtocol.handle_text")
    found = problem(
        "WebSocket protocol",
        missing,
        "text frames are read by websockets' parser;",
        "update app.api.ws_protocol",
        "DRAGO_STREAM_FAST_LANE",
    )
    if found is not None:
        warn_once("WebSocket frames", found)
        return "websockets-sansio"
    return DirectTextWs
