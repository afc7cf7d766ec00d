"""The server's frames as JSON text, one function per frame type (`hello_frame`, `commit_frame`, …).

Each writes a frame of the committed schema (`app.api.frames`; a test checks every one). A
`commit` frame's text is built once per viewer and commit by `app.service.streams`, which the edge
hands `commit_frame`.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from app.api.chat_schemas import message_json
from app.api.frames import PROTOCOL
from app.games.codec import JSON
from app.matches.views import timestamp
from app.service import errors as svc
from app.service.chat_ports import ChatMessage
from app.service.ports import StoredNotice


def dumps(value: object) -> str:
    """Compact JSON text, as the HTTP responses are rendered (UTF-8), by orjson (~5× the stdlib's
    speed), which also embeds JSON already encoded (`orjson.Fragment`) as it is."""
    return orjson.dumps(value).decode()


PING = '{"type":"ping"}'
PONG = '{"type":"pong"}'


def hello_frame(
    match_id: str,
    seat: int | None,
    seq: int,
    after: int,
    views: bool,
    heartbeat: float,
    view: bytes,
    protocol: int = PROTOCOL,
    chat_seq: int = 0,
) -> str:
    """`hello` on a match stream, with the viewer's `view` at `seq` as JSON already encoded."""
    frame = {
        "type": "hello",
        "protocol": protocol,
        "match_id": match_id,
        "seat": seat,
        "seq": seq,
        "after": after,
        "views": views,
        "heartbeat": heartbeat,
        "view": orjson.Fragment(view),  # embedded as it is: the view is encoded once per state
        "chat_seq": chat_seq,
    }
    return dumps(frame)


def chat_frame(message: ChatMessage) -> str:
    """`chat`: one message of a room the viewer may read, at its `chat_seq`."""
    return dumps({"type": "chat", "chat_seq": message.chat_seq, "message": message_json(message)})


def commit_frame(seq: int, events: Sequence[JSON], view: bytes | None) -> str:
    """`commit`: one commit's events (redacted for the viewer) and, when given, the viewer's view
    at `seq` as JSON already encoded (the actor's HTTP reply embeds the same bytes)."""
    frame: dict[str, object] = {"type": "commit", "seq": seq, "events": events}
    if view is not None:
        frame["view"] = orjson.Fragment(view)
    return dumps(frame)


def player_hello_frame(
    player_id: str, cursor: int, after: int, heartbeat: float, protocol: int = PROTOCOL
) -> str:
    """`hello` on a player's personal stream."""
    frame = {
        "type": "hello",
        "protocol": protocol,
        "player_id": player_id,
        "cursor": cursor,
        "after": after,
        "heartbeat": heartbeat,
    }
    return dumps(frame)


def notice_frame(notice: StoredNotice) -> str:
    """`notice`: one of a player's notices, at its cursor."""
    body = {"type": notice.type, **notice.data, "recorded_at": timestamp(notice.recorded_at)}
    return dumps({"type": "notice", "cursor": notice.cursor, "notice": body})


def error_frame(frame_id: str | int | None, error: svc.ServiceError) -> str:
    """`error`: a refused action (its `id`) or a refused connection (`id` null, then the close)."""
    return dumps({"type": "error", "id": frame_id, **error.to_json()})


def ack_frame(frame_id: str | int, seq: int) -> str:
    """`ack`: the action with this `id` was applied; the match is at `seq`."""
    return dumps({"type": "ack", "id": frame_id, "seq": seq})
