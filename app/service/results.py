"""What the use cases return: frozen, typed results the edges render (never dicts to re-validate).

The view and the event record come from `app.matches.views` (they are the per-viewer shapes);
everything here is public or belongs to its caller (a token is shown once, to whoever got it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from app.games.codec import JSON
from app.matches.views import EventRecord, SeatClock, View
from app.service.ports import MatchStatus, Visibility


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str | None  # None while free
    taken: bool
    bot: bool  # a server bot plays it (from the start, or after a takeover)
    level: str | None  # the bot's level
    player_id: str | None
    resigned: bool


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The public summary of a match (lobby items and `GET /v1/matches/{id}`)."""

    id: str
    game: str
    players: int
    options: Mapping[str, JSON]
    settings: Mapping[str, JSON]
    status: MatchStatus
    seq: int
    to_act: tuple[int, ...]
    clock: tuple[SeatClock, ...]
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    commitment: str
    created_at: datetime
    updated_at: datetime
    seats: tuple[SeatInfo, ...]
    visibility: Visibility


@dataclass(frozen=True, slots=True)
class MatchListing:
    items: tuple[MatchSummary, ...]
    total: int
    limit: int
    offset: int


@dataclass(frozen=True, slots=True)
class CreatedMatch:
    """A new match and its host's secrets, shown this once (`invite` for unlisted matches)."""

    match: MatchSummary
    host_token: str
    invite: str | None


@dataclass(frozen=True, slots=True)
class SeatGrant:
    """A seat's secret token, shown this once."""

    match_id: str
    seat: int
    token: str
    client_seed: str | None = None  # the seat's seed (drago-fair-2), shown to that seat only


@dataclass(frozen=True, slots=True)
class EventHistory:
    match_id: str
    game: str
    seq: int  # the match's seq now; page on with `after` = the last event's seq
    events: tuple[EventRecord, ...]


@dataclass(frozen=True, slots=True)
class ActionResult:
    """The caller's commit: the new seq, its events redacted for the caller, the caller's view."""

    seq: int
    events: tuple[EventRecord, ...]
    view: View
    events_json: bytes | None = field(default=None, compare=False)  # `events` encoded, when at hand


@dataclass(frozen=True, slots=True)
class MatchReveal:
    match_id: str
    game: str
    players: int
    options: Mapping[str, JSON]
    secret: str
    commitment: str
    commitment_scheme: str
    outcome: Mapping[str, JSON]
    events: tuple[EventRecord, ...]
    algorithm: str = "drago-fair-1"
    seat_seeds: tuple[str, ...] | None = None  # drago-fair-2: every seat's seed, in seat order


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    player_id: str
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerKey:
    """A player's secret key, shown this once (at creation and at each rotation)."""

    player_id: str
    name: str
    key: str


@dataclass(frozen=True, slots=True)
class PlayerMatchItem:
    match: MatchSummary
    seat: int
    my_turn: bool
    deadline: str | None  # when this seat's time runs out, if it is to act under a clock


@dataclass(frozen=True, slots=True)
class PlayerMatchListing:
    items: tuple[PlayerMatchItem, ...]
    total: int
    limit: int
    offset: int


@dataclass(frozen=True, slots=True)
class Samples:
    """Determinizations of the hidden state consistent with one seat's information."""

    match_id: str
    seat: int
    seq: int
    samples: tuple[Mapping[str, JSON], ...]
