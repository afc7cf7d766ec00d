"""The live stream's protocol: its frames, close codes and the JSON Schema of both.

`WS /v1/matches/{id}/stream` speaks JSON text frames, each an object with a `type`. The models
here describe every frame in both directions; `frames_schema()` renders them as the committed
`openapi/stream-frames.schema.json` (written by `python -m app.openapi`), where views, event data
and actions refer to the games' own schemas, named as in `openapi.json` (`app.api.components`).
The server's frames are encoded here too, one function per frame type (`hello_frame`,
`commit_frame`, …), each checked against this schema in a test. A `commit` frame's text is built
once per viewer and commit by `app.service.streams`, which the edge hands `commit_frame`.
`docs/streams.md` is the prose version.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter, ValidationError

from app.api import examples
from app.api.components import prune, reference_games
from app.api.errors import ErrorBody, validation_failed
from app.api.schemas import SEQ_LIMIT, EventOut, ViewOut
from app.games.codec import JSON
from app.games.registry import GAMES
from app.matches.views import timestamp
from app.service import errors as svc
from app.service.ports import StoredNotice

PROTOCOL = 2


class Close(enum.IntEnum):
    """Close codes of the stream. 4xxx mirror the HTTP status of the same error."""

    NORMAL = 1000  # the client closed
    GOING_AWAY = 1001  # the server is shutting down: reconnect (to another process) with `after`
    UNSUPPORTED_DATA = 1003  # a binary frame: frames are JSON text
    TOO_BIG = 1009  # a frame over the size limit (the HTTP body limit)
    INTERNAL_ERROR = 1011  # an unexpected server error: reconnect with `after`
    TRY_AGAIN_LATER = 1013  # the service reported itself unavailable
    SLOW_CONSUMER = 4008  # fell too far behind the live feed: reconnect with `after` = last seq seen
    BAD_REQUEST = 4400  # a malformed frame, an unknown frame type, a bad query parameter or `after`
    UNAUTHORIZED = 4401  # a bad token, or no `auth` frame in time
    FORBIDDEN = 4403  # a token of another match
    NOT_FOUND = 4404  # no such match
    RATE_LIMITED = 4429  # over the stream-connection or frame budget: wait, then reconnect with `after`


CLOSE_CODES: dict[int, str] = {
    Close.NORMAL: "normal closure (the client closed)",
    Close.GOING_AWAY: "the server is shutting down; reconnect (to another process) with after = last seq",
    Close.UNSUPPORTED_DATA: "a binary frame; frames are JSON text",
    Close.TOO_BIG: "a frame larger than the server's body limit",
    Close.INTERNAL_ERROR: "unexpected server error (a failing database too); reconnect with after = last seq",
    Close.TRY_AGAIN_LATER: "the service reported itself unavailable; reconnect later",
    Close.SLOW_CONSUMER: "slow consumer: the client fell too far behind; reconnect with after = last seq",
    Close.BAD_REQUEST: "bad request: malformed frame, unknown frame type, bad query parameter or after",
    Close.UNAUTHORIZED: "unauthorized: bad token, or no auth frame in time",
    Close.FORBIDDEN: "forbidden: the token belongs to another match",
    Close.NOT_FOUND: "no such match",
    Close.RATE_LIMITED: "rate limited: too many stream connections or frames; wait (the reason says how "
    "long), then reconnect with after = last seq",
}


def close_code(error: svc.ServiceError) -> int:
    """The close code for an error that ends a stream: the one error tree, mapped once more."""
    status = error.http_status
    if status in (400, 422):
        return Close.BAD_REQUEST
    if 400 <= status < 500:
        return 4000 + status
    if status == 503:
        return Close.TRY_AGAIN_LATER
    return Close.INTERNAL_ERROR


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


ClientId = Annotated[StrictStr, Field(min_length=1, max_length=64)] | StrictInt

# -- client → server ---------------------------------------------------------------------------


class AuthFrame(Frame):
    """The first frame, when the URL carries neither `token` nor `spectate=1` (browsers cannot set
    headers): within the auth timeout, else the stream closes with 4401."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"type": "auth", "token": "q3X…"}, {"type": "auth", "token": None}]}
    )
    type: Literal["auth"]
    token: str | None = Field(description="The seat token from `joinSeat`, or null to watch as a spectator.")


class ActionFrame(Frame):
    """An action for the connection's seat; answered by `ack` or `error` with the same `id`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "action",
                    "id": 1,
                    "action": {"type": "play", "card": {"dragon": "red", "value": 3}},
                    "expected_seq": 12,
                }
            ]
        }
    )
    type: Literal["action"]
    id: ClientId = Field(description="Chosen by the client; echoed in the answer.")
    action: dict[str, Any] = Field(description="One of `legal_actions` of the seat's view.")
    expected_seq: StrictInt | None = Field(
        None,
        ge=0,
        lt=SEQ_LIMIT,
        description="Apply only while the match is at this seq (else `version_conflict`).",
    )
    idempotency_key: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="As the HTTP `Idempotency-Key`: a retry answers with the first outcome.",
    )


class PingFrame(Frame):
    """Sent by the server every heartbeat interval; a client may send one too (answered by `pong`)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"type": "ping"}]})
    type: Literal["ping"]


class PongFrame(Frame):
    """The answer to a `ping` (optional from clients)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"type": "pong"}]})
    type: Literal["pong"]


ClientFrame = Annotated[AuthFrame | ActionFrame | PingFrame | PongFrame, Field(discriminator="type")]

# -- server → client ---------------------------------------------------------------------------


def _hello_examples(schema: dict[str, Any]) -> None:
    """A real view (`app.api.examples`): the example must fit the game's exact view schema."""
    first = examples.opening()
    hello = {
        "type": "hello",
        "protocol": PROTOCOL,
        "match_id": examples.MATCH_ID,
        "seat": first.seat,
        "seq": examples.STARTED_SEQ,
        "after": examples.STARTED_SEQ - 1,
        "views": True,
        "heartbeat": 20.0,
        "view": first.view,
    }
    schema["examples"] = [hello]


def _commit_examples(schema: dict[str, Any]) -> None:
    """A real commit: the events of a first move, as its own seat receives them."""
    events = examples.opening().events
    schema["examples"] = [{"type": "commit", "seq": events[-1]["seq"], "events": events}]


class HelloFrame(Frame):
    """The first server frame, once authenticated: who the connection is and the view now."""

    model_config = ConfigDict(json_schema_extra=_hello_examples)
    type: Literal["hello"]
    protocol: Literal[2]
    match_id: str
    seat: int | None = Field(description="The connection's seat; null for a spectator.")
    seq: int = Field(description="The match's seq now; `view` is the view at this seq.")
    after: int = Field(description="Events with a greater seq follow, in order (`after` asked, else `seq`).")
    views: bool = Field(description="Whether each `commit` frame carries the viewer's view (`views=1`).")
    heartbeat: float = Field(description="Seconds between the server's `ping` frames.")
    view: ViewOut


class CommitFrame(Frame):
    """One commit: its events in seq order, redacted for the connection's viewer (the last one's
    `seq` is the frame's `seq`, and every event's `commit`). With `views=1` it also carries the
    viewer's view at `seq`, when that is the newest state the server knows (so a client catching up
    gets the view with the last commit of its backlog)."""

    model_config = ConfigDict(json_schema_extra=_commit_examples)
    type: Literal["commit"]
    seq: int
    events: list[EventOut]
    view: ViewOut | None = Field(None, description="With `views=1`: the viewer's view at `seq`.")


class PlayerHelloFrame(Frame):
    """The first frame of a personal stream: the player and its notice cursor now."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "player_id": "a1",
                    "cursor": 7,
                    "after": 5,
                    "heartbeat": 20.0,
                }
            ]
        }
    )
    type: Literal["hello"]
    protocol: Literal[2]
    player_id: str
    cursor: int = Field(description="The player's last notice cursor now.")
    after: int = Field(description="Notices with a greater cursor follow, in order.")
    heartbeat: float


class Notice(BaseModel):
    """A public fact for the player: `match_started`, `your_turn` (with `deadline`), `seat_taken_over`
    or `match_ended` (with `reason`, `winners`), in the match `match_id` at `seq`; `seek_matched`
    (with `seek_id`): a seek of the player's was seated in the match; `challenge_received` (from
    `player_id` named `name`, for `game`), `challenge_accepted` (by `player_id`; with the match once
    everyone has accepted) and `challenge_declined` (by `player_id`, with an optional `reason`) of
    the challenge `challenge_id` (docs/matchmaking.md)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal[
        "match_started",
        "your_turn",
        "seat_taken_over",
        "match_ended",
        "seek_matched",
        "challenge_received",
        "challenge_accepted",
        "challenge_declined",
    ]
    match_id: str | None = None
    seat: int | None = None
    seq: int | None = None
    recorded_at: str
    deadline: str | None = None
    reason: str | None = None
    winners: list[int] | None = None
    seek_id: str | None = None
    challenge_id: str | None = None
    player_id: str | None = None
    name: str | None = None
    game: str | None = None


class NoticeFrame(Frame):
    """One notice; cursors follow each other without gaps."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "notice",
                    "cursor": 8,
                    "notice": {
                        "type": "your_turn",
                        "match_id": "5f0c9a3e",
                        "seat": 1,
                        "seq": 31,
                        "deadline": None,
                        "recorded_at": "2026-01-01T12:00:00Z",
                    },
                }
            ]
        }
    )
    type: Literal["notice"]
    cursor: int
    notice: Notice


class AckFrame(Frame):
    """The action with this `id` was applied; the match is at `seq` (its events come in a `commit`
    frame, before or after this one)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"type": "ack", "id": 1, "seq": 13}]})
    type: Literal["ack"]
    id: ClientId
    seq: int


class ErrorFrame(Frame):
    """A refused action (`id` is its id) or a refused connection (`id` null, then the close)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "error",
                    "id": 1,
                    "error": {
                        "code": "not_your_turn",
                        "message": "it is not your turn",
                        "details": {"to_act": [1]},
                    },
                },
                {
                    "type": "error",
                    "id": None,
                    "error": {"code": "unauthorized", "message": "this token is not valid", "details": None},
                },
            ]
        }
    )
    type: Literal["error"]
    id: ClientId | None
    error: ErrorBody


ServerFrame = Annotated[
    HelloFrame | CommitFrame | AckFrame | ErrorFrame | PingFrame | PongFrame,
    Field(discriminator="type"),
]
PlayerServerFrame = Annotated[
    PlayerHelloFrame | NoticeFrame | ErrorFrame | PingFrame | PongFrame, Field(discriminator="type")
]

CLIENT_FRAMES: dict[str, type[Frame]] = {
    "auth": AuthFrame,
    "action": ActionFrame,
    "ping": PingFrame,
    "pong": PongFrame,
}

# -- encoding server frames (one function per type; the tests check each against the schema) -------


def dumps(value: Any) -> str:
    """Compact JSON text, as the HTTP responses are rendered (UTF-8), by orjson (~5× the stdlib's
    speed), which also embeds JSON already encoded (`orjson.Fragment`) as it is."""
    return orjson.dumps(value).decode()


PING = '{"type":"ping"}'
PONG = '{"type":"pong"}'


def hello_frame(
    match_id: str, seat: int | None, seq: int, after: int, views: bool, heartbeat: float, view: bytes
) -> str:
    """`hello` on a match stream, with the viewer's `view` at `seq` as JSON already encoded."""
    frame = {
        "type": "hello",
        "protocol": PROTOCOL,
        "match_id": match_id,
        "seat": seat,
        "seq": seq,
        "after": after,
        "views": views,
        "heartbeat": heartbeat,
        "view": orjson.Fragment(view),  # embedded as it is: the view is encoded once per state
    }
    return dumps(frame)


def commit_frame(seq: int, events: Sequence[JSON], view: bytes | None) -> str:
    """`commit`: one commit's events (redacted for the viewer) and, when given, the viewer's view
    at `seq` as JSON already encoded (the actor's HTTP reply embeds the same bytes)."""
    frame: dict[str, Any] = {"type": "commit", "seq": seq, "events": events}
    if view is not None:
        frame["view"] = orjson.Fragment(view)
    return dumps(frame)


def player_hello_frame(player_id: str, cursor: int, after: int, heartbeat: float) -> str:
    """`hello` on a player's personal stream."""
    frame = {
        "type": "hello",
        "protocol": PROTOCOL,
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


# -- parsing client frames ---------------------------------------------------------------------


class ProtocolError(Exception):
    """A frame the server cannot take at all: the stream closes with `code`."""

    def __init__(self, reason: str, code: int = Close.BAD_REQUEST) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class InvalidAction(Exception):
    """An `action` frame with a usable `id` but invalid members: answered by an error frame."""

    def __init__(self, frame_id: str | int, error: svc.ValidationFailed) -> None:
        super().__init__(error.message)
        self.frame_id = frame_id
        self.error = error


def parse_client_frame(text: str) -> Frame:
    try:
        raw = json.loads(text)
    except ValueError:
        raise ProtocolError("a frame is one JSON object") from None
    kind = raw.get("type") if isinstance(raw, dict) else None
    model = CLIENT_FRAMES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError(f"frames are JSON objects with a type in {sorted(CLIENT_FRAMES)}")
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        error = validation_failed(e.errors())
        frame_id = raw.get("id")
        if model is ActionFrame and _usable_id(frame_id):
            raise InvalidAction(frame_id, error) from None
        raise ProtocolError(f"invalid {kind} frame: {error.message}") from None


def _usable_id(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, str) and 1 <= len(value) <= 64)


# -- the schema file ---------------------------------------------------------------------------


_GAME_MEMBERS = (("EventOut", "data", "event"), ("ActionFrame", "action", "action"))
"""Frame members whose schema is a game's (`component`, `member`, kind of `wire_schemas`)."""


def frames_schema() -> dict[str, Any]:
    """JSON Schema (2020-12) of every frame: `#/$defs/ClientFrame` and `#/$defs/ServerFrame`."""
    defs: dict[str, Any] = {}
    adapters: tuple[tuple[str, TypeAdapter[Any]], ...] = (
        ("ClientFrame", TypeAdapter(ClientFrame)),
        ("ServerFrame", TypeAdapter(ServerFrame)),
        ("PlayerServerFrame", TypeAdapter(PlayerServerFrame)),
    )
    for name, adapter in adapters:
        schema = adapter.json_schema(ref_template="#/$defs/{model}")
        for key, value in schema.pop("$defs", {}).items():
            if defs.setdefault(key, value) != value:
                raise RuntimeError(f"two different schemas are both named {key}")
        defs[name] = schema
    root = [
        {"$ref": "#/$defs/ClientFrame"},
        {"$ref": "#/$defs/ServerFrame"},
        {"$ref": "#/$defs/PlayerServerFrame"},
    ]
    games = [GAMES[name] for name in sorted(GAMES)]
    reference_games(defs, games, "#/$defs/", _GAME_MEMBERS, discriminator=False)
    prune(defs, root, "#/$defs/")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Drago live stream frames",
        "description": "Frames of WS /v1/matches/{id}/stream: JSON text, one object per frame. The "
        "client sends ClientFrame, the server ServerFrame; x-close-codes lists the close codes. "
        "See docs/streams.md.",
        # anyOf, not oneOf: `ping` and `pong` are both client and server frames.
        "anyOf": root,
        "$defs": dict(sorted(defs.items())),
        "x-close-codes": {str(int(code)): text for code, text in sorted(CLOSE_CODES.items())},
    }


def render_frames_schema() -> str:
    return json.dumps(frames_schema(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
