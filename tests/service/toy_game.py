"""A tiny test-only game with hidden hands and chance in `decide`, for unit tests of the service.

Two players hold three cards each from a deck of 1…12 (each card once). On a turn a player plays a
card face up and draws a random card from the deck (the draw is decided with the injected RNG and
written into a `Drew` event that only the drawer sees). After `rounds` plays each the higher sum
of played cards wins. With the option `explicit_end_turn` the play does not end the turn: the
player sends `end_turn`, which draws and passes the turn (so a turn can be drafted and undone).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from app.games.codec import JSON
from app.games.core import ErrorCode, GameInfo, IllegalAction, InvalidOptions, Outcome, Seat

DECK = tuple(range(1, 13))
HAND = 3


@dataclass(frozen=True, slots=True)
class Play:
    TYPE: ClassVar[str] = "play"
    card: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    TYPE: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class Dealt:
    TYPE: ClassVar[str] = "dealt"
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    rounds: int
    explicit: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    TYPE: ClassVar[str] = "played"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Drew:
    TYPE: ClassVar[str] = "drew"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class Passed:
    TYPE: ClassVar[str] = "passed"
    seat: int


Event = Dealt | Played | Drew | Passed


@dataclass(frozen=True, slots=True)
class State:
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    turn: int
    rounds: int
    explicit: bool = False
    pending: bool = False  # explicit mode: played this turn, waiting for end_turn


class ToyGame:
    info = GameInfo(name="toy", title="Toy", min_players=2, max_players=2, max_actions=100)
    action_types: Mapping[str, type[Any]] = {"play": Play, "end_turn": EndTurn}
    event_types: Mapping[str, type[Any]] = {"dealt": Dealt, "played": Played, "drew": Drew, "passed": Passed}

    view_type: type[Any] = dict  # views and redacted events are plain dicts here

    def schemas(self) -> Mapping[str, JSON]:
        return {
            "view": {"type": "object"},
            "action": {"type": "object"},
            "event": {"type": "object"},
            "options": {
                "type": "object",
                "properties": {
                    "rounds": {"type": "integer", "minimum": 1, "maximum": 6},
                    "explicit_end_turn": {"type": "boolean"},
                },
            },
            "setup": {
                "type": "object",
                "properties": {"order": {"type": "array", "items": {"type": "integer"}}},
            },
        }

    def catalogue(self) -> JSON:
        return {"deck": list(DECK)}

    def parse_options(self, players: int, raw: Mapping[str, Any]) -> JSON:
        extra = set(raw) - {"rounds", "explicit_end_turn"}
        if extra:
            raise InvalidOptions(f"unknown option {sorted(extra)[0]}", f"options.{sorted(extra)[0]}")
        rounds = raw.get("rounds", 3)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 6:
            raise InvalidOptions("rounds must be an integer from 1 to 6", "options.rounds")
        explicit = raw.get("explicit_end_turn", False)
        if not isinstance(explicit, bool):
            raise InvalidOptions("explicit_end_turn must be a boolean", "options.explicit_end_turn")
        return {"rounds": rounds, "explicit_end_turn": explicit}

    def start(
        self, players: int, options: JSON, rng: random.Random, setup: Mapping[str, Any] | None = None
    ) -> Dealt:
        if setup is not None:
            order = setup.get("order")
            if not isinstance(order, list) or sorted(order) != list(DECK):
                raise InvalidOptions("setup.order must list the cards 1 to 12 once each", "setup.order")
            cards = list(order)
        else:
            cards = list(DECK)
            rng.shuffle(cards)
        hands = (tuple(cards[:HAND]), tuple(cards[HAND : 2 * HAND]))
        return Dealt(hands, tuple(cards[2 * HAND :]), options["rounds"], options["explicit_end_turn"])

    def initial_state(self, started: Dealt) -> State:
        return State(started.hands, started.deck, ((), ()), 0, started.rounds, started.explicit)

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, Played):
            hands = list(state.hands)
            hand = list(hands[event.seat])
            hand.remove(event.card)
            hands[event.seat] = tuple(hand)
            played = list(state.played)
            played[event.seat] = (*played[event.seat], event.card)
            if state.explicit:
                return dataclasses.replace(state, hands=tuple(hands), played=tuple(played), pending=True)
            return dataclasses.replace(state, hands=tuple(hands), played=tuple(played), turn=1 - state.turn)
        if isinstance(event, Drew):
            hands = list(state.hands)
            hands[event.seat] = (*hands[event.seat], event.card)
            deck = tuple(c for c in state.deck if c != event.card)
            return dataclasses.replace(state, hands=tuple(hands), deck=deck)
        if isinstance(event, Passed):
            return dataclasses.replace(state, turn=1 - event.seat, pending=False)
        raise TypeError(event)

    def to_act(self, state: State) -> tuple[Seat, ...]:
        return () if self.outcome(state) is not None else (state.turn,)

    def legal_actions(self, state: State, seat: Seat) -> tuple[Any, ...]:
        if seat not in self.to_act(state):
            return ()
        if state.pending:
            return (EndTurn(),)
        return tuple(Play(c) for c in sorted(state.hands[seat]))

    def decide(self, state: State, seat: Seat, action: Any, rng: random.Random) -> tuple[Event, ...]:
        if self.outcome(state) is not None:
            raise IllegalAction(ErrorCode.MATCH_OVER, "the game is over")
        if seat != state.turn:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
        if isinstance(action, EndTurn):
            if not state.pending:
                raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "play a card first", "wrong_phase")
            drew = (Drew(seat, _pick(rng, sorted(state.deck))),) if state.deck else ()
            return (*drew, Passed(seat))
        if state.pending:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "you have played this turn: end it", "wrong_phase")
        if action.card not in state.hands[seat]:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "you do not hold that card", "card_not_in_hand")
        events: list[Event] = [Played(seat, action.card)]
        if state.deck and not state.explicit:
            events.append(Drew(seat, _pick(rng, sorted(state.deck))))
        return tuple(events)

    def is_barrier(self, state: State, event: Event) -> bool:
        return isinstance(event, (Drew, Passed))

    def finish_action(self, state: State, seat: Seat) -> EndTurn | None:
        return EndTurn() if state.pending and seat == state.turn and self.outcome(state) is None else None

    def outcome(self, state: State) -> Outcome | None:
        if sum(len(p) for p in state.played) < 2 * state.rounds:
            return None
        scores = tuple(sum(p) for p in state.played)
        best = max(scores)
        return Outcome(scores, tuple(s for s, v in enumerate(scores) if v == best))

    def view(self, state: State, seat: Seat | None) -> JSON:
        return {
            "hand": None if seat is None else list(state.hands[seat]),
            "hand_sizes": [len(h) for h in state.hands],
            "played": [list(p) for p in state.played],
            "deck_size": len(state.deck),
            "turn": state.turn,
        }

    def redact(self, event: Event, seat: Seat | None) -> JSON:
        if isinstance(event, Dealt):
            return {
                "type": "dealt",
                "hand": None if seat is None else list(event.hands[seat]),
                "deck_size": len(event.deck),
                "rounds": event.rounds,
            }
        if isinstance(event, Drew):
            return {"type": "drew", "seat": event.seat, "card": event.card if seat == event.seat else None}
        if isinstance(event, Passed):
            return {"type": "passed", "seat": event.seat}
        return {"type": "played", "seat": event.seat, "card": event.card}


TOY = ToyGame()
GAMES = {"toy": TOY}


def _pick(rng: random.Random, items: list[Any]) -> Any:
    """One of `items`, through the one primitive every match's dice have (`randrange`)."""
    return items[rng.randrange(len(items))]
