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
- `view(state, seat | None)` returns a frozen `view_type` instance and `redact(event, seat | None)`
  a frozen tagged dataclass (the event itself, or a redacted variant with the same `TYPE`) for one
  viewer (`None` is a spectator); they are the only way game data leaves the engine. Neither holds
  match-envelope members (`ENVELOPE`): the match layer adds those.
- `is_barrier(state, event)` says whether an event may not be taken back by an undo: it reveals
  information to anyone, consumed randomness, or hands the decision to another seat.
  `finish_action(state, seat)` is the action that ends `seat`'s turn now (if any).
- `schemas()` publishes the JSON Schemas of the view, actions, events (as viewers receive them),
  options and explicit setup, all generated from the same dataclasses by `app.games.codec`.

Seats are numbered `0 … players-1`. Actions and events are frozen dataclasses with a
`TYPE: ClassVar[str]` tag; `app.games.codec` turns them into JSON and back.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Protocol, TypeVar

from app.games.codec import JSON, DecodeError, decode_tagged, json_schema
from app.games.codes import ErrorCode

Seat = int

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")


class Tagged(Protocol):
    """An event of a game or of the match layer: its class names its stored `type`."""

    TYPE: ClassVar[str]


class IllegalAction(Exception):
    """An action the rules refuse.

    `code` is `ErrorCode.NOT_YOUR_TURN`, `MATCH_OVER` or `ILLEGAL_ACTION`; `reason` is a finer machine code
    (e.g. `card_not_in_hand`) and `message` explains it in words a player understands. Messages
    go to the acting seat only and must never name anything that seat may not see.
    """

    def __init__(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or str(code)


class InvalidMember(ValueError):
    """A member of a request that a game or the match layer refuses; `path` names it."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


class InvalidOptions(InvalidMember):
    """Match options (or an explicit setup) that a game refuses; `path` names the bad member."""

    def __init__(self, message: str, path: str = "options") -> None:
        super().__init__(message, path)


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
    details: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"scores": list(self.scores), "winners": list(self.winners), "details": dict(self.details)}


class Game(Protocol[S, A, E]):
    """The rules protocol; see the module docstring for the meaning of each member."""

    info: GameInfo
    action_types: Mapping[str, type[A]]
    event_types: Mapping[str, type[E]]
    view_type: type  # the frozen dataclass `view` returns

    def schemas(self) -> Mapping[str, JSON]:
        """The JSON Schemas `SCHEMA_KINDS` (see `game_schemas`); shared objects, not to be mutated."""
        ...

    def catalogue(self) -> JSON:
        """Static data a frontend needs to draw the game (board, tiles, cards)."""
        ...

    def parse_options(self, players: int, raw: Mapping[str, JSON]) -> JSON:
        """Validate options for `players` seats and return them normalised with defaults filled.

        Raises `InvalidOptions`.
        """
        ...

    def start(
        self, players: int, options: JSON, rng: random.Random, setup: Mapping[str, JSON] | None = None
    ) -> E:
        """Deal: return the first event. `setup` (validated here) fixes the deal instead of `rng`."""
        ...

    def initial_state(self, started: E) -> S: ...

    def evolve(self, state: S, event: E) -> S: ...

    def to_act(self, state: S) -> tuple[Seat, ...]: ...

    def legal_actions(self, state: S, seat: Seat) -> tuple[A, ...]: ...

    def decide(self, state: S, seat: Seat, action: A, rng: random.Random) -> tuple[E, ...]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def view(self, state: S, seat: Seat | None) -> object:
        """What `seat` (or a spectator) sees: a `view_type` instance, encoded by `codec.to_json`."""
        ...

    def redact(self, event: E, seat: Seat | None) -> object:
        """`event` as `seat` (or a spectator) may see it: the event or a redacted tagged dataclass."""
        ...

    def is_barrier(self, state: S, event: E) -> bool:
        """True when `event`, applied to `state`, may not be undone: it reveals information to
        anyone, consumed randomness, ends the game or hands the decision to another seat."""
        ...

    def finish_action(self, state: S, seat: Seat) -> A | None:
        """The action that ends `seat`'s turn now (e.g. `end_turn` when it is legal), else None."""
        ...


# Members of the match envelope (`app.matches`); a game's view and events never use them.
ENVELOPE: Final = ("match_id", "game", "seq", "status", "seat", "to_act", "legal_actions", "outcome")
SCHEMA_KINDS: Final = ("view", "action", "event", "options", "setup")


def game_schemas(
    title: str, *, view: object, action: object, event: object, options: object, setup: object
) -> dict[str, JSON]:
    """The five schemas a game publishes, from its view class, action union, union of every event
    form a viewer may receive (public events and redacted variants), options and setup classes."""
    return {
        "view": json_schema(
            view,
            f"{title} view",
            f"What one seat (or a spectator) sees of a {title} match. The match envelope around it "
            f"({', '.join(ENVELOPE)}) is described by the API, not here.",
        ),
        "action": json_schema(
            action,
            f"{title} action",
            "An action a seat sends, chosen by its `type`. The view's legal_actions lists the legal "
            "ones; anything else is refused with a reason.",
        ),
        "event": json_schema(
            event,
            f"{title} event",
            "An event as one viewer receives it: public events as they happened, secret ones redacted "
            "for that viewer. Alternatives may share a `type` (an event and its redacted form).",
        ),
        "options": json_schema(options, f"{title} match options"),
        "setup": json_schema(
            setup,
            f"{title} explicit setup (development)",
            "Fixes the deal of a match instead of shuffling; accepted only on servers with "
            "development features on.",
        ),
    }


AnyGame = Game[Any, Any, Any]
"""A game whose state, action and event types are not known where it is used: the registry holds
games of different types, and `Game` is invariant in them (its methods take them as arguments), so
Python's types can only name this one erasure, here, rather than write `Any` wherever it happens."""


def decode_action(game: Game[Any, A, Any], data: JSON, path: str = "$") -> A:
    """Decode a player's JSON action; raises `DecodeError` naming the path (from root `path`)."""
    return decode_tagged(game.action_types, data, "action", path)


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
    "ENVELOPE",
    "SCHEMA_KINDS",
    "AnyGame",
    "DecodeError",
    "ErrorCode",
    "Game",
    "GameInfo",
    "IllegalAction",
    "InvalidOptions",
    "Outcome",
    "Seat",
    "decode_action",
    "decode_event",
    "game_schemas",
    "replay",
]
