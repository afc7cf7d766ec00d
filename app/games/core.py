"""The vocabulary every game speaks: seats, the `Game` protocol, errors and outcomes.

A game is a *decider over frozen data*:

- `start(players, options, rng, setup)` rolls the dice of the setup and returns the first event
  (a fact holding the whole deal, secret parts included); `initial_state(first_event)` folds it.
- `to_act(state)` names the seats whose decision it is (in Yutakâ this may be the player who is
  *not* on turn); `legal_actions(state, seat)` lists what that seat may send.
- `decide(state, seat, action, rng) -> events` checks an action and returns the facts it causes,
  raising `IllegalAction`; every chance outcome (draws, reshuffles) is written into those events.
- `evolve(state, event) -> state` is deterministic and never rolls dice, so replaying the events
  of a game reproduces its state exactly.
- `outcome(state)` is `None` while the game runs.
- `view(state, seat | None)` and `redact(event, seat | None)` return JSON-ready data for one
  viewer (`None` is a spectator) and are the only way game data leaves the engine.

Seats are numbered `0 … players-1`. Actions and events are frozen dataclasses with a
`TYPE: ClassVar[str]` tag; `app.games.codec` turns them into JSON and back.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from app.games.codec import JSON, DecodeError, decode_tagged

Seat = int

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")

# Machine codes of `IllegalAction`; the HTTP edge maps each to a status.
NOT_YOUR_TURN = "not_your_turn"
GAME_OVER = "match_over"
ILLEGAL = "illegal_action"


class IllegalAction(Exception):
    """An action the rules refuse.

    `code` is one of `NOT_YOUR_TURN`, `GAME_OVER`, `ILLEGAL`; `reason` is a finer machine code
    (e.g. `card_not_in_hand`) and `message` explains it in words a player understands. Messages
    go to the acting seat only and must never name anything that seat may not see.
    """

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or code


class InvalidOptions(ValueError):
    """Match options (or an explicit setup) that a game refuses; `path` names the bad member."""

    def __init__(self, message: str, path: str = "options") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Metadata a game declares up front (shown in the games catalogue)."""

    name: str
    title: str
    min_players: int
    max_players: int
    hidden_information: bool = True
    chance: bool = True
    max_actions: int = 10_000  # a bound on decisions in one game, for loops and sanity checks


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result: `scores[seat]` and the winning seats (several on a shared win)."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"scores": list(self.scores), "winners": list(self.winners), "details": dict(self.details)}


class Game(Protocol[S, A, E]):
    """The rules protocol; see the module docstring for the meaning of each member."""

    info: GameInfo
    action_types: Mapping[str, type[A]]
    event_types: Mapping[str, type[E]]

    def options_schema(self) -> JSON:
        """JSON Schema of the match options."""
        ...

    def setup_schema(self) -> JSON:
        """JSON Schema of an explicit (development) setup."""
        ...

    def catalogue(self) -> JSON:
        """Static data a frontend needs to draw the game (board, tiles, cards)."""
        ...

    def parse_options(self, players: int, raw: Mapping[str, Any]) -> JSON:
        """Validate options for `players` seats and return them normalised with defaults filled.

        Raises `InvalidOptions`.
        """
        ...

    def start(
        self, players: int, options: JSON, rng: random.Random, setup: Mapping[str, Any] | None = None
    ) -> E:
        """Deal: return the first event. `setup` (validated here) fixes the deal instead of `rng`."""
        ...

    def initial_state(self, started: E) -> S: ...

    def evolve(self, state: S, event: E) -> S: ...

    def to_act(self, state: S) -> tuple[Seat, ...]: ...

    def legal_actions(self, state: S, seat: Seat) -> tuple[A, ...]: ...

    def decide(self, state: S, seat: Seat, action: A, rng: random.Random) -> tuple[E, ...]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: Seat | None) -> JSON: ...

    def redact(self, event: E, seat: Seat | None) -> JSON: ...


def decode_action(game: Game[Any, A, Any], data: JSON) -> A:
    """Decode a player's JSON action; raises `DecodeError` with a readable message."""
    return decode_tagged(game.action_types, data, "action")


def decode_event(game: Game[Any, Any, E], data: JSON) -> E:
    """Decode a stored event."""
    return decode_tagged(game.event_types, data, "event")


def replay(game: Game[S, Any, E], events: Iterable[E]) -> S:
    """Fold a whole event stream (first event = the deal) into a state."""
    it = iter(events)
    try:
        first = next(it)
    except StopIteration:
        raise ValueError("an event stream starts with the deal event") from None
    state = game.initial_state(first)
    for event in it:
        state = game.evolve(state, event)
    return state


__all__ = [
    "GAME_OVER",
    "ILLEGAL",
    "NOT_YOUR_TURN",
    "DecodeError",
    "Game",
    "GameInfo",
    "IllegalAction",
    "InvalidOptions",
    "Outcome",
    "Seat",
    "decode_action",
    "decode_event",
    "replay",
]
