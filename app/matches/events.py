"""Match-level events: what happens to a match besides the game itself, in the match's own stream.

They share the stream and the `(match_id, seq)` rule with the game's events (DESIGN.md, "the match
lifecycle"): seats filling, the start, resignations, timeouts and takeovers, host decisions, the
end, the private turn drafts, and after a rated match's end its rating changes (`RatingsChanged`,
which the fold ignores: it is a fact about the players, not about the match). Each is a frozen
dataclass tagged by `TYPE` and encoded by `app.games.codec`, like game events; no game may use one
of these tags (checked by a test).

None of them ever holds a token, a key or a secret. `DraftStep` holds a seat's private draft (the
action and the game events it caused); `redact` shows it to its seat only — every other viewer gets
a `DraftChanged` that says only whose draft changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from app.games.codec import JSON, by_tag

TakeoverReason = Literal["timeout", "resigned", "forfeit", "host"]
EndReason = Literal["finished", "resigned", "timeout", "aborted"]
AbortReason = Literal["host", "expired"]
TimeoutPolicy = Literal["bot", "forfeit"]


@dataclass(frozen=True, slots=True)
class SeatJoined:
    """A seat was filled: by a person (`bot` false; `player_id` when a player key holds it) or a
    server bot of `level`. `seed` is the seat's seed (docs/fairness.md): shown to that seat only
    until the end (null for every other viewer, and in matches older than drago-fair-2)."""

    TYPE: ClassVar[str] = "seat_joined"
    seat: int
    name: str
    bot: bool = False
    level: str | None = None
    player_id: str | None = None
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """Every seat is filled: the game is on."""

    TYPE: ClassVar[str] = "match_started"


@dataclass(frozen=True, slots=True)
class SeatResigned:
    TYPE: ClassVar[str] = "seat_resigned"
    seat: int


@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """`seat`'s clock ran out; `policy` says what follows (a bot decides, or the seat forfeits)."""

    TYPE: ClassVar[str] = "turn_timed_out"
    seat: int
    policy: TimeoutPolicy


@dataclass(frozen=True, slots=True)
class SeatTakenOver:
    """A server bot of `level` plays `seat` for the rest of the match."""

    TYPE: ClassVar[str] = "seat_taken_over"
    seat: int
    reason: TakeoverReason
    level: str


@dataclass(frozen=True, slots=True)
class SeatTokenReissued:
    """The host issued `seat` a new token; the old one stopped working (no token in here)."""

    TYPE: ClassVar[str] = "seat_token_reissued"
    seat: int


@dataclass(frozen=True, slots=True)
class MatchAborted:
    TYPE: ClassVar[str] = "match_aborted"
    reason: AbortReason


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over. `scores` are the game's final scores (null when the game did not finish);
    `winners` exclude seats that resigned or forfeited."""

    TYPE: ClassVar[str] = "match_ended"
    reason: EndReason
    winners: tuple[int, ...]
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class SeatRating:
    """A player's rating in the game at one moment: `rating` is the displayed one, μ − 3σ;
    `provisional` while it has fewer rated games than `app.service.ratings.PROVISIONAL_GAMES`."""

    mu: float
    sigma: float
    rating: float
    provisional: bool


@dataclass(frozen=True, slots=True)
class RatingChange:
    """`seat`'s player (a built-in bot's is `bot-<level>`) before and after the match."""

    seat: int
    player_id: str
    before: SeatRating
    after: SeatRating


@dataclass(frozen=True, slots=True)
class RatingsChanged:
    """Public, after a rated match's `match_ended`: every seat's rating before and after, as the
    ratings projection applied them (`app.service.rating_events`). Appended once per rated match;
    the fold ignores it."""

    TYPE: ClassVar[str] = "ratings_changed"
    changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class DraftStep:
    """Private: one action of `seat`'s open turn draft and the game events it caused (JSON)."""

    TYPE: ClassVar[str] = "draft_step"
    seat: int
    action: Mapping[str, JSON]
    events: tuple[Mapping[str, JSON], ...]


@dataclass(frozen=True, slots=True)
class DraftUndone:
    """Private: `seat` took back the last step of its draft."""

    TYPE: ClassVar[str] = "draft_undone"
    seat: int


@dataclass(frozen=True, slots=True)
class DraftChanged:
    """What every other viewer sees of a `draft_step` or `draft_undone`: only whose draft changed."""

    TYPE: ClassVar[str] = "draft_changed"
    seat: int


@dataclass(frozen=True, slots=True)
class DraftPublished:
    """The first event of the commit that makes `seat`'s draft public: the game events of its `steps`
    steps follow, then those of the action that finished it."""

    TYPE: ClassVar[str] = "draft_published"
    seat: int
    steps: int


MatchEvent = (
    SeatJoined
    | MatchStarted
    | SeatResigned
    | TurnTimedOut
    | SeatTakenOver
    | SeatTokenReissued
    | MatchAborted
    | MatchEnded
    | RatingsChanged
    | DraftStep
    | DraftUndone
    | DraftPublished
)

MATCH_EVENT_TYPES: Final[Mapping[str, type[MatchEvent]]] = by_tag(MatchEvent)

RESERVED_TAGS: Final = frozenset(MATCH_EVENT_TYPES) | {DraftChanged.TYPE}
"""Event tags of the match layer; a game's events must use other names."""

PRIVATE: Final = (DraftStep, DraftUndone)


def redact(event: MatchEvent, seat: int | None) -> MatchEvent | DraftChanged:
    """What `seat` (None: a spectator) may see of a match-level event."""
    if isinstance(event, PRIVATE) and event.seat != seat:
        return DraftChanged(event.seat)
    if isinstance(event, SeatJoined) and event.seed is not None and event.seat != seat:
        return SeatJoined(event.seat, event.name, event.bot, event.level, event.player_id, None)
    return event
