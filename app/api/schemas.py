"""Request and response models of the HTTP API, separate from the service's results and the tables.

Responses are built from the service's typed results (`from_attributes`), never from dicts; the hot
ones (views, action replies) are rendered straight from the results by `app.api.render` and these
models only document them. Input is bounded here, before anything reaches a query: seqs fit the
store's 64-bit columns, paging stays small, envelope fields are strict (`players` is a JSON integer,
not `"2"` or `2.0`). Game-specific members (options, setup, actions, views, event payloads) have
the JSON Schemas each game publishes at `GET /v1/games/{game}`, referenced from `openapi.json`.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from app.games.codec import JSON
from app.games.registry import GAMES
from app.matches.fold import Status
from app.matches.settings import MAX_DECISION_S, MAX_INCREMENT_S, MAX_TAKEOVER_AFTER
from app.service.names import MAX_PLAYER_NAME
from app.service.ports import MAX_SEQ

MAX_OFFSET = 1_000_000
"""Paging goes this deep at most (listing further is a scan, not a use case)."""
MAX_LIMIT = 10_000
"""A page size asked for; the server caps it further (`DRAGO_MAX_PAGE_SIZE`…)."""
MIN_PLAYERS = min((g.info.min_players for g in GAMES.values()), default=1)
MAX_PLAYERS = max((g.info.max_players for g in GAMES.values()), default=1)
MAX_NAME = 40
MAX_SEED = 64
NAME_PATTERN = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"
# A player's name (`app.service.names`): no space at either end.
PLAYER_NAME_PATTERN = r"^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$"
"""No control character, and not blank (the server trims the name it keeps)."""
SEED_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]+$"
"""No control character (the service checks the rest of "printable")."""
SEQ_LIMIT = MAX_SEQ + 1
"""Seqs a request names are below this: the store's seq columns are signed 64-bit integers."""
Seq = Annotated[StrictInt, Field(ge=0, lt=SEQ_LIMIT)]
"""In a body: FastAPI writes component schemas' bounds through floats, where 2**63 - 1 is 2**63 and
`maximum` would admit one seq too many; `exclusiveMaximum: 2**63` is exact."""
_DIGITS = re.compile(r"[0-9]{1,30}")


def _ascii_digits(value: object) -> object:
    """Query and path integers are written in ASCII digits: not "1.0", " 1", "1_0" or "١"."""
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError("must be a whole number written with the digits 0-9")
    return value


ASCII_DIGITS = BeforeValidator(_ascii_digits)
"""For integers in a URL (path or query): `Annotated[int, Query(...), ASCII_DIGITS]`, parsed as the
stream parses `after`. (Placed after `Query`, so the bounds still reach the OpenAPI schema.)"""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Out(BaseModel):
    """A response model, filled from a service result's attributes."""

    model_config = ConfigDict(extra="forbid", from_attributes=True)


# Games


class GameOut(Out):
    name: str = Field(description="The id used in URLs and in `createMatch`.")
    title: str
    min_players: int
    max_players: int
    hidden_information: bool
    chance: bool


class GameList(Out):
    items: list[GameOut]


class GameDetail(GameOut):
    options_schema: dict[str, JSON] = Field(description="JSON Schema of `options` in `createMatch`.")
    setup_schema: dict[str, JSON] = Field(
        description="JSON Schema of the development-only `setup` in `createMatch` (an explicit deal)."
    )
    schemas: dict[str, JSON] = Field(
        description="Draft 2020-12 JSON Schemas of this game's payloads: `view` (what `getView` returns), "
        "`action` (one of), `event` (every event as any viewer receives it), `options`, `setup`."
    )
    catalogue: JSON = Field(
        description="Static data a frontend needs to draw the game (board, cards, tiles)."
    )


# Creating and listing matches


class PerDecisionClock(Model):
    per_decision_s: StrictInt = Field(ge=1, le=MAX_DECISION_S, description="Seconds for every decision.")


class BankClock(Model):
    initial_s: StrictInt = Field(ge=1, le=MAX_DECISION_S, description="Each seat's bank of seconds.")
    increment_s: StrictInt = Field(0, ge=0, le=MAX_INCREMENT_S, description="Seconds added per commit.")


class BotSeat(Model):
    seat: StrictInt = Field(ge=0, le=MAX_PLAYERS - 1)
    level: Literal["random", "greedy", "ismcts"] | None = Field(
        None, description="Null: the server's default."
    )


class CreateMatch(Model):
    game: StrictStr = Field(
        min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$", description="A game name from `listGames`.",
        examples=["mount_drago"],
    )  # fmt: skip
    players: StrictInt = Field(
        ge=MIN_PLAYERS,
        le=MAX_PLAYERS,
        description="Number of seats, within the game's player counts.",
        examples=[3],
    )
    options: dict[str, JSON] = Field(
        default_factory=dict, description="Game options; see `schemas.options` of `getGame`."
    )
    bots: list[Annotated[StrictInt, Field(ge=0, le=MAX_PLAYERS - 1)] | BotSeat] = Field(
        default_factory=list,
        max_length=MAX_PLAYERS,
        description="Seats server bots take at creation: a seat number (the default level) or "
        '`{"seat": 1, "level": "ismcts"}`; levels `random`, `greedy`, `ismcts`.',
        examples=[[2], [{"seat": 1, "level": "ismcts"}]],
    )
    clock: PerDecisionClock | BankClock | None = Field(
        None, description="A turn clock: none (default), per decision, or a bank with an increment."
    )
    on_timeout: Literal["bot", "forfeit"] = Field(
        "bot",
        description="When a clock runs out: `bot` (a server bot that sees only that seat decides; after "
        "`takeover_after` timeouts in a row it plays the seat for good) or `forfeit` (the seat loses).",
    )
    takeover_after: StrictInt = Field(3, ge=1, le=MAX_TAKEOVER_AFTER)
    visibility: Literal["public", "unlisted"] = Field(
        "public", description="`unlisted`: not in the lobby, and seats are joined only with the invite code."
    )
    drafts: StrictBool = Field(False, description="Private turn drafts with `undo` and `finish_turn`.")
    allow_samples: StrictBool = Field(
        True, description="Whether seats may ask for determinizations (`samples`)."
    )
    rated: StrictBool = Field(
        False,
        description="The match counts for ratings: people join its seats only with a player key "
        "(403 `player_key_required`); server bots are rated as one built-in player per level.",
    )
    spectator_chat: StrictBool = Field(
        True,
        description="Whether the match has a spectators' chat room (docs/chat.md); off, writing there "
        "is 403 `chat_closed` and reading it gives nothing. The players' room always exists.",
    )
    seed: str | None = Field(
        None, min_length=1, max_length=256, pattern=r"^[^\x00-\x1f\x7f]+$",
        description="Development only (403 `forbidden` unless the server enables dev features): the "
        "match's secret, which seeds every roll, instead of a random one.",
    )  # fmt: skip
    setup: dict[str, JSON] | None = Field(
        None,
        description="Development only (403 `forbidden` unless the server enables dev features): an explicit "
        "deal instead of a shuffled one; its format is the game's `schemas.setup`.",
    )


class SeatClockOut(Out):
    seat: int
    deadline: str = Field(description="When this seat's time runs out (UTC, `Z`).")
    bank_s: float | None = Field(None, description="Seconds left in the seat's bank (bank clocks).")


class SeatOut(Out):
    seat: int
    name: str | None = Field(description="The player's name; null while the seat is free.")
    taken: bool
    bot: bool = Field(description="A server bot plays this seat (from the start, or after a takeover).")
    level: str | None
    player_id: str | None = Field(description="The player holding this seat with a player key, if any.")
    resigned: bool


class MatchOut(Out):
    id: str
    game: str
    players: int
    options: dict[str, JSON]
    settings: dict[str, JSON] = Field(
        description="clock, on_timeout, takeover_after, visibility, drafts, allow_samples, rated, "
        "spectator_chat."
    )
    status: Status
    seq: int = Field(description="The last event's seq.")
    to_act: list[int] = Field(description="Seats whose decision it is (empty unless active).")
    clock: list[SeatClockOut] = Field(description="Deadlines of the seats to act, under a clock.")
    scores: list[int] | None = Field(
        description="Final scores, once finished (null if the game was not played out)."
    )
    winners: list[int] | None = Field(description="Winning seats, once finished.")
    commitment: str = Field(
        description="The commitment to the match's secret, published at creation (docs/fairness.md): "
        "drago-fair-2, SHA-256 (hex) of the server seed and the algorithm's name; older matches, of the "
        "canonical JSON of {deal, secret}. See `revealMatch`."
    )
    created_at: datetime
    updated_at: datetime
    seats: list[SeatOut]
    visibility: Literal["public", "unlisted"]


class CreatedMatchOut(MatchOut):
    host_token: str = Field(
        description="The host's secret (shown this once): abort before the start, reissue a seat's token, "
        "hand a silent seat to a bot. Send it as `Authorization: Bearer <host token>`."
    )
    invite: str | None = Field(
        description="Unlisted matches: the code a seat is joined with (shown this once)."
    )


class MatchPage(Out):
    items: list[MatchOut]
    total: int
    limit: int
    offset: int


# Seats


class JoinSeat(Model):
    name: StrictStr = Field(
        min_length=1, max_length=MAX_NAME, pattern=NAME_PATTERN,
        description=f"The player's display name: 1 to {MAX_NAME} printable characters, not blank; leading "
        "and trailing spaces are trimmed.",
    )  # fmt: skip
    invite: StrictStr | None = Field(
        None, max_length=200, description="The invite code of an unlisted match."
    )
    client_seed: StrictStr | None = Field(
        None, min_length=1, max_length=MAX_SEED, pattern=SEED_PATTERN,
        description=f"The seat's own seed for the deal (docs/fairness.md): 1 to {MAX_SEED} printable "
        "characters, used exactly as sent. Absent: the server chooses one and returns it.",
    )  # fmt: skip


class SeatToken(Out):
    match_id: str
    seat: int
    token: str = Field(description="The seat's secret bearer token, shown this once.")
    client_seed: str | None = Field(
        None,
        description="The seat's seed (sent, or chosen by the server), mixed into the deal; revealed to "
        "everyone after the end. Null when the reply is a reissued token.",
    )


# Playing


class SubmitAction(Model):
    action: dict[str, JSON] = Field(
        description="One action object with a `type`, as listed in `legal_actions` of the seat's view "
        "(each game's `schemas.action`; with drafts also `undo` and `finish_turn`).",
        examples=[{"type": "play", "card": {"dragon": "red", "value": 3}}],
    )
    expected_seq: Seq | None = Field(
        None,
        description="If set, the action applies only while the match is at this seq "
        "(else 409 `version_conflict`).",
    )


class EventOut(Out):
    seq: int
    type: str
    data: dict[str, JSON] = Field(description="The event's payload, redacted for the caller.")
    recorded_at: datetime
    commit: int = Field(description="The seq of the last event of this event's commit.")


class OutcomeOut(Out):
    reason: str
    winners: list[int]
    scores: list[int] | None
    details: dict[str, JSON]


class DraftOut(Out):
    steps: int
    can_finish: bool


class ViewOut(BaseModel):
    """The caller's view: these envelope members beside the game's own (see the game's `schemas.view`)."""

    model_config = ConfigDict(extra="allow")

    match_id: str
    game: str
    seq: int
    status: Status
    seat: int | None = Field(description="The caller's seat; null for a spectator.")
    to_act: list[int]
    legal_actions: list[dict[str, JSON]] = Field(
        description="The caller's legal actions (empty unless to act)."
    )
    outcome: OutcomeOut | None
    clock: list[SeatClockOut]
    draft: DraftOut | None = Field(description="The caller's own open turn draft (drafts only).")


class ActionReply(BaseModel):
    seq: int = Field(description="The match's seq after this commit.")
    events: list[EventOut] = Field(description="The events of this commit, redacted for the caller.")
    view: ViewOut


class EventPage(Out):
    match_id: str
    game: str
    seq: int = Field(description="The match's current seq; page on with `after` = the last event's seq.")
    events: list[EventOut]


class RevealOut(Out):
    match_id: str
    game: str
    players: int
    options: dict[str, JSON]
    secret: str
    commitment: str
    commitment_scheme: str
    outcome: dict[str, JSON]
    events: list[EventOut] = Field(description="The full, unredacted event log.")
    algorithm: Literal["drago-fair-1", "drago-fair-2"] = Field(
        description="How the match's dice were rolled (docs/fairness.md); `secret` is its server seed."
    )
    seat_seeds: list[str] | None = Field(
        description="drago-fair-2: every seat's seed in seat order (null for drago-fair-1)."
    )


class SampleRequest(Model):
    n: StrictInt = Field(1, ge=1, le=100, description="How many determinizations.")
    seed: StrictInt | None = Field(None, ge=0, le=2**63 - 1, description="Seed of the sampler's own RNG.")


class SamplesOut(Out):
    match_id: str
    seat: int
    seq: int = Field(description="The seq of the information the samples are consistent with.")
    samples: list[dict[str, JSON]] = Field(
        description="Complete hidden states consistent with the seat's view."
    )


# Players


class CreatePlayer(Model):
    name: StrictStr = Field(
        min_length=1,
        max_length=MAX_PLAYER_NAME,
        pattern=PLAYER_NAME_PATTERN,
        description=f"1 to {MAX_PLAYER_NAME} printable characters, no space at either end; unique "
        "regardless of case (409 `name_taken`); `random`, `greedy` and `ismcts` are the built-in bots'.",
    )


class PlayerOut(Out):
    player_id: str
    name: str
    created_at: datetime


class PlayerKeyOut(Out):
    player_id: str
    name: str
    key: str = Field(description="The player's secret key (`pk_…`), shown this once.")


class PlayerMatchOut(Out):
    match: MatchOut
    seat: int = Field(description="The seat the player holds.")
    my_turn: bool
    deadline: str | None


class PlayerMatchPage(Out):
    items: list[PlayerMatchOut]
    total: int
    limit: int
    offset: int


class Health(Model):
    status: Literal["ok"] = "ok"
