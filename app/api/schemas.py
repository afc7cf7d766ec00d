"""Request and response models of the HTTP API, separate from the service's data and the tables.

Game-specific parts (options, setup, actions, views, event payloads) are JSON objects whose
schemas each game publishes at `GET /v1/games/{game}`.

Input is bounded here, before anything reaches a query: seqs fit the store's 64-bit column, paging
stays small, and envelope fields are strict (`players` is a JSON integer, not `"2"` or `2.0`;
`bots` are integers, not booleans), so the OpenAPI schema says exactly what the server accepts.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr

from app.games.registry import GAMES

Status = Literal["waiting", "active", "finished"]

SEQ_LIMIT = 2**63
"""Seqs a request names are below this: the store's `seq` column is a signed 64-bit integer."""
MAX_OFFSET = 1_000_000
"""Paging goes this deep at most (listing further is a scan, not a use case)."""
MAX_LIMIT = 10_000
"""A page size asked for; the server caps it further (`DRAGO_MAX_PAGE_SIZE`…)."""
_DIGITS = re.compile(r"[0-9]{1,30}")


def _ascii_digits(value: Any) -> Any:
    """Query and path integers are written in ASCII digits: not "1.0", " 1", "1_0" or "١"."""
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError("must be a whole number written with the digits 0-9")
    return value


ASCII_DIGITS = BeforeValidator(_ascii_digits)
"""For integers in a URL (path or query): `Annotated[int, Query(...), ASCII_DIGITS]`, parsed as the
stream parses `after`. (Placed after `Query`, so the bounds still reach the OpenAPI schema.)"""

MIN_PLAYERS = min((g.info.min_players for g in GAMES.values()), default=1)
MAX_PLAYERS = max((g.info.max_players for g in GAMES.values()), default=1)
MAX_NAME = 40
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"
"""No control character, and not blank (the server trims the name it keeps)."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameOut(Model):
    name: str = Field(description="The id used in URLs and in `createMatch`.")
    title: str
    min_players: int
    max_players: int
    hidden_information: bool
    chance: bool


class GameList(Model):
    items: list[GameOut]


class GameDetail(GameOut):
    options_schema: dict[str, Any] = Field(description="JSON Schema of `options` in `createMatch`.")
    setup_schema: dict[str, Any] = Field(
        description="JSON Schema of the development-only `setup` in `createMatch` (an explicit deal)."
    )
    catalogue: Any = Field(description="Static data a frontend needs to draw the game (board, cards, tiles).")


class CreateMatch(Model):
    game: StrictStr = Field(
        min_length=1,
        max_length=64,
        pattern=r"^[a-z0-9_]+$",
        description="A game name from `listGames`.",
        examples=["mount_drago"],
    )
    players: StrictInt = Field(
        ge=MIN_PLAYERS,
        le=MAX_PLAYERS,
        description="Number of seats, within the game's `min_players`..`max_players`.",
        examples=[3],
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="Game options; see `options_schema` of `getGame`."
    )
    bots: list[Annotated[StrictInt, Field(ge=0, le=MAX_PLAYERS - 1)]] = Field(
        default_factory=list,
        max_length=MAX_PLAYERS,
        description="Seats (0-based, distinct, each below `players`) that server bots fill at creation.",
        examples=[[2]],
    )
    seed: str | None = Field(
        None,
        min_length=1,
        max_length=256,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="Development only (refused with 403 `forbidden` unless the server enables dev features): "
        "the match's secret, which seeds every roll, instead of a random one.",
    )
    setup: dict[str, Any] | None = Field(
        None,
        description="Development only (refused with 403 `forbidden` unless the server enables dev features): "
        "an explicit deal (deck order, riders, tile layout…) instead of a shuffled one. Its format is the "
        "game's `setup_schema`, published by `getGame` (`GET /v1/games/{game}`).",
    )


class SeatOut(Model):
    seat: int
    name: str | None = Field(description="The player's name; null while the seat is free.")
    bot: bool
    taken: bool


class MatchItem(Model):
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: Status
    seq: int = Field(description="The last event's seq (1 = the deal).")
    to_act: list[int] = Field(description="Seats whose decision it is (empty unless active).")
    scores: list[int] | None = Field(description="Final scores, once finished.")
    winners: list[int] | None = Field(description="Winning seats, once finished.")
    commitment: str = Field(
        description="SHA-256 (hex) of the canonical JSON of {deal, secret}; check it against `revealMatch`."
    )
    created_at: datetime
    updated_at: datetime


class MatchOut(MatchItem):
    seats: list[SeatOut]


class MatchPage(Model):
    items: list[MatchItem]
    total: int
    limit: int
    offset: int


class JoinSeat(Model):
    name: StrictStr = Field(
        min_length=1,
        max_length=MAX_NAME,
        pattern=NAME_PATTERN,
        description=f"The player's display name: 1 to {MAX_NAME} printable characters, no control "
        "characters, not blank; leading and trailing spaces are trimmed.",
    )


class SeatToken(Model):
    match_id: str
    seat: int
    token: str = Field(
        description="The seat's secret bearer token, shown this once: send `Authorization: Bearer <token>`."
    )


class SubmitAction(Model):
    action: dict[str, Any] = Field(
        description="One action object with a `type` member, as listed in `legal_actions` of the "
        "seat's view.",
        examples=[{"type": "play", "card": {"dragon": "red", "value": 3}}],
    )
    expected_seq: StrictInt | None = Field(
        None,
        ge=0,
        lt=SEQ_LIMIT,
        description="If set, the action applies only while the match is at this seq "
        "(else 409 `version_conflict`).",
    )


class EventOut(Model):
    seq: int
    type: str
    data: Any = Field(description="The event's payload, redacted for the caller.")
    recorded_at: datetime


class ViewOut(BaseModel):
    """The game's view for the caller, plus these envelope members."""

    model_config = ConfigDict(extra="allow")

    match_id: str
    seq: int
    status: Status
    seat: int | None = Field(description="The caller's seat; null for a spectator.")
    to_act: list[int]
    legal_actions: list[dict[str, Any]] = Field(
        description="The caller's legal actions (empty unless to act)."
    )


class ActionReply(Model):
    seq: int = Field(description="The match's seq after this action.")
    events: list[EventOut] = Field(description="The events this action caused, redacted for the caller.")
    view: ViewOut


class EventPage(Model):
    match_id: str
    seq: int = Field(description="The match's current seq; page on with `after` = the last event's seq.")
    events: list[EventOut]


class RevealOut(Model):
    match_id: str
    game: str
    players: int
    options: dict[str, Any]
    secret: str
    commitment: str
    commitment_scheme: str
    outcome: dict[str, Any]
    events: list[EventOut] = Field(description="The full, unredacted event log.")


class Health(Model):
    status: Literal["ok"] = "ok"
