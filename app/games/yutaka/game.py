"""The Yutakâ engine behind the `Game` protocol of `app.games.core`: metadata, the catalogue a
frontend draws from, and thin methods delegating to the rules modules of this package.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping

from app.games.codec import JSON, to_json
from app.games.core import GameInfo, game_schemas
from app.games.yutaka import deal, options, redaction, rules, state, views
from app.games.yutaka.actions import ACTION_TYPES, Action
from app.games.yutaka.components import (
    DECK,
    DECK_SIZE,
    HAND_SIZE,
    ISLAND_NAMES,
    ISLANDS,
    MAX_CARDS_PER_SIDE,
    OPENING_REVEALS,
    PLAYERS,
    RECONSTRUCTED_TILE_VALUES,
    SET_ASIDE,
    SLOTS_PER_ISLAND,
    TILE_COLOURS,
    TILE_COUNTS,
    TILE_TYPES,
    CardKind,
)
from app.games.yutaka.events import EVENT_TYPES, Event, GameStarted
from app.games.yutaka.options import Mode, Options
from app.games.yutaka.redaction import SeenEvent
from app.games.yutaka.scoring import TIE_BREAKS
from app.games.yutaka.state import State

# The exact maximum number of decisions in a game: the opening reveals, every card of both decks,
# and one reveal per tile left face down after the opening (68; tests check no game exceeds it).
MAX_DECISIONS = OPENING_REVEALS + PLAYERS * DECK_SIZE + (ISLANDS * SLOTS_PER_ISLAND - OPENING_REVEALS)
# With explicit_end_turn, one end_turn more for every card but equipment (108).
MAX_DECISIONS_EXPLICIT = MAX_DECISIONS + PLAYERS * sum(
    1 for card in DECK if card.kind is not CardKind.EQUIPMENT
)
# The bound declared to loops: a round margin above both, because `play_random` checks the outcome
# only *before* each of its `max_actions` decisions and so needs one more than the maximum.
DECISION_BOUND = 150

INFO = GameInfo(
    name="yutaka",
    title="Yutakâ",
    min_players=PLAYERS,
    max_players=PLAYERS,
    hidden_information=True,
    chance=True,
    max_actions=DECISION_BOUND,
)

MODE_DESCRIPTIONS = {
    Mode.MYSTERIA: "Every face-down tile shows a black cube: type and value hidden.",
    Mode.TACTIKA: "Every face-down tile shows its type's colour: type public, value hidden.",
    Mode.MIXED: "The types listed in known_types show their colour; the others are hidden.",
}


def catalogue() -> JSON:
    def card_kind(kind: CardKind) -> JSON:
        dynamite = kind is CardKind.DYNAMITE
        return {
            "kind": kind.value,
            "values": sorted({c.value for c in DECK if c.kind is kind}),
            "count": sum(1 for c in DECK if c.kind is kind),
            "placed_on": "opponent" if dynamite else "own",
            "then_reveals": "opponent" if dynamite else "self" if kind is CardKind.EQUIPMENT else None,
        }

    return {
        "game": INFO.name,
        "title": INFO.title,
        "players": {"min": PLAYERS, "max": PLAYERS},
        "islands": [{"island": i, "name": name} for i, name in enumerate(ISLAND_NAMES)],
        "slots_per_island": SLOTS_PER_ISLAND,
        "max_cards_per_side": MAX_CARDS_PER_SIDE,
        "hand_size": HAND_SIZE,
        "set_aside": SET_ASIDE,
        "opening_reveals": OPENING_REVEALS,
        "tile_types": [
            {
                "type": t.value,
                "colour": TILE_COLOURS[t],
                "count": TILE_COUNTS[t],
                "values": list(RECONSTRUCTED_TILE_VALUES[t]),
            }
            for t in TILE_TYPES
        ],
        "tile_values_reconstructed": True,
        "deck": to_json(DECK),
        "card_kinds": [card_kind(k) for k in CardKind],
        "modes": [{"mode": m.value, "description": MODE_DESCRIPTIONS[m]} for m in Mode],
        "variants": {
            "stacked": "Only the uppermost face-down tile of an island (lowest slot) may be revealed."
        },
        "tie_breaks": [t.value for t in TIE_BREAKS],
        "actions": {
            "reveal": {"type": "reveal", "island": 0, "slot": 0},
            "play": {"type": "play", "card": {"kind": "dagger", "value": 3}, "island": 0},
            "end_turn": {"type": "end_turn"},
        },
        "default_options": options.options_to_json(options.parse_options(PLAYERS, {})),
    }


class YutakaGame:
    """Yutakâ for exactly two seats; see docs/rules.md §2."""

    info: GameInfo = INFO
    action_types: Mapping[str, type[Action]] = ACTION_TYPES
    event_types: Mapping[str, type[Event]] = EVENT_TYPES

    view_type: type[views.YutakaView] = views.YutakaView

    def schemas(self) -> Mapping[str, JSON]:
        return _schemas()

    def catalogue(self) -> JSON:
        return catalogue()

    def parse_options(self, players: int, raw: Mapping[str, object]) -> JSON:
        return options.options_to_json(options.parse_options(players, raw))

    def start(
        self, players: int, options_json: JSON, rng: random.Random, setup: Mapping[str, object] | None = None
    ) -> Event:
        return deal.deal(options.parse_options(players, options_json), rng, setup)

    def initial_state(self, started: Event) -> State:
        if not isinstance(started, GameStarted):
            raise ValueError("a Yutakâ event stream starts with game_started")
        return state.initial_state(started)

    def evolve(self, s: State, event: Event) -> State:
        return state.evolve(s, event)

    # What playouts, searches and environments call once or more per decision are the rules'
    # functions themselves, not methods wrapping them (a call less each: ~5 % of a random game).
    to_act = staticmethod(state.to_act)
    legal_actions = staticmethod(rules.legal_actions)
    decide = staticmethod(rules.decide)
    advance = staticmethod(rules.advance)
    outcome = staticmethod(rules.outcome)

    def view(self, s: State, seat: int | None) -> views.YutakaView:
        return views.view(s, seat)

    def redact(self, event: Event, seat: int | None) -> SeenEvent:
        return redaction.redact(event, seat)

    def is_barrier(self, s: State, event: Event) -> bool:
        return rules.is_barrier(s, event)

    def finish_action(self, s: State, seat: int) -> Action | None:
        return rules.finish_action(s, seat)


@functools.cache
def _schemas() -> Mapping[str, JSON]:
    return game_schemas(
        INFO.title, view=views.YutakaView, action=Action, event=SeenEvent, options=Options, setup=deal.Setup
    )


GAME = YutakaGame()
