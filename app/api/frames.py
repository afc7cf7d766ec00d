"""The live stream's protocol: its frames and their JSON Schema.

`WS /v1/matches/{id}/stream` speaks JSON text frames, each an object with a `type`. The models
here describe every frame in both directions; `frames_schema()` renders them as the committed
`openapi/stream-frames.schema.json` (written by `python -m app.openapi`), where views, event data
and actions refer to the games' own schemas, named as in `openapi.json` (`app.api.components`).
The server's frames are written as text by `app.api.frame_text` and client frames read by
`app.api.client_frames`, both checked against this schema in tests; the close codes are
`app.api.closes`. `docs/streams.md` is the prose version.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from app.api import examples
from app.api.chat_schemas import ChatMessageOut
from app.api.closes import CLOSE_CODES
from app.api.components import prune, reference_games
from app.api.errors import ErrorBody
from app.api.schemas import SEQ_LIMIT, EventOut, ViewOut
from app.games.registry import GAMES

PROTOCOL = 2
"""The newest protocol version: what a stream speaks when the client names none (`?protocol=`)."""
PROTOCOLS: tuple[int, ...] = (2,)
"""Every version served (`docs/streams.md`: a version stays served at least six months after its
successor ships); a stream asking for another is refused with 4400, these in the close reason."""


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


ClientId = Annotated[StrictStr, Field(min_length=1, max_length=64)] | StrictInt

# -- client → server ---------------------------------------------------------------------------


class AuthFrame(Frame):
    """The first frame, when the URL carries neither `token` nor `spectate=1` (browsers cannot set
    headers): within the auth timeout, else the stream closes with 4401. Only ever the first
    frame: a later one is answered by an `error` frame, then the close (4400)."""

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
        "chat_seq": 0,
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
    protocol: Literal[2] = Field(
        description="The protocol version this stream speaks (`?protocol=`, else the newest)."
    )
    match_id: str
    seat: int | None = Field(description="The connection's seat; null for a spectator.")
    seq: int = Field(description="The match's seq now; `view` is the view at this seq.")
    after: int = Field(description="Events with a greater seq follow, in order (`after` asked, else `seq`).")
    views: bool = Field(description="Whether each `commit` frame carries the viewer's view (`views=1`).")
    heartbeat: float = Field(description="Seconds between the server's `ping` frames.")
    view: ViewOut
    chat_seq: int = Field(
        description="The match's newest chat cursor now; `chat` frames follow after `chat_after` (asked), "
        "else after this one (docs/chat.md)."
    )


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
    protocol: Literal[2] = Field(
        description="The protocol version this stream speaks (`?protocol=`, else the newest)."
    )
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


class ChatFrame(Frame):
    """One chat message of a room the viewer may read now, at its `chat_seq` (docs/chat.md);
    resume with `?chat_after=` the last one received."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "chat",
                    "chat_seq": 3,
                    "message": {
                        "id": "5f0c1e8a9b7d4c2e8f1a3b5c7d9e0f12",
                        "chat_seq": 3,
                        "room": "players",
                        "author": {"seat": 1, "player_id": None, "name": "Ada"},
                        "text": "good luck!",
                        "at": "2026-12-05T17:00:00Z",
                    },
                }
            ]
        }
    )
    type: Literal["chat"]
    chat_seq: int
    message: ChatMessageOut


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
    HelloFrame | CommitFrame | ChatFrame | AckFrame | ErrorFrame | PingFrame | PongFrame,
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
    reference_games(defs, games, "#/$defs/", _GAME_MEMBERS)
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
