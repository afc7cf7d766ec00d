"""The Mount Drago engine as one object implementing `app.games.core.Game`, plus its catalogue.

This module only wires the pieces together: options and setup (`options`, `deal`), the folded
state (`state`), the decider (`rules`), the per-viewer output (`views`, `redaction`) and the
published schemas, generated from those modules' dataclasses.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Final

from app.games.codec import JSON, to_json
from app.games.core import GameInfo, game_schemas
from app.games.mount_drago import deal, redaction, rules, state, views
from app.games.mount_drago.actions import ACTION_TYPES, Action
from app.games.mount_drago.cards import CARD_VALUES, DECK, DRAGONS, HAND_SIZE
from app.games.mount_drago.events import EVENT_TYPES, Event, GameStarted
from app.games.mount_drago.options import MAX_PLAYERS, MIN_PLAYERS, Options, parse_options
from app.games.mount_drago.redaction import SeenEvent
from app.games.mount_drago.state import State
from app.games.mount_drago.track import SUMMIT_VALUES, TRACKS, side_for, spaces_to_json

INFO: Final = GameInfo(
    name="mount_drago",
    title="Mount Drago",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    hidden_information=True,
    chance=True,
)


class MountDrago:
    """Mount Drago (Leo Colovini, 2011) for 2–5 players; docs/rules.md §1."""

    info: GameInfo = INFO
    action_types: Mapping[str, type[Action]] = ACTION_TYPES
    event_types: Mapping[str, type[Event]] = EVENT_TYPES

    view_type: type[views.MountDragoView] = views.MountDragoView

    def schemas(self) -> Mapping[str, JSON]:
        return _schemas()

    def catalogue(self) -> JSON:
        return {
            "dragons": [d.value for d in DRAGONS],
            "cards": {"values_per_dragon": list(CARD_VALUES), "total": len(DECK)},
            "hand_size": HAND_SIZE,
            "tracks": {name: spaces_to_json(spaces) for name, spaces in TRACKS.items()},
            "track_by_players": {str(n): side_for(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)},
            "summit_values": list(SUMMIT_VALUES),
            "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        }

    def parse_options(self, players: int, raw: Mapping[str, object]) -> JSON:
        return to_json(parse_options(players, raw))

    def start(
        self, players: int, options: JSON, rng: random.Random, setup: Mapping[str, object] | None = None
    ) -> Event:
        return deal.start(players, options, rng, setup)

    def initial_state(self, started: Event) -> State:
        if not isinstance(started, GameStarted):
            raise ValueError("a Mount Drago match starts with game_started")
        return state.initial_state(started)

    def evolve(self, s: State, event: Event) -> State:
        return state.evolve(s, event)

    # What playouts, searches and environments call once or more per decision are the rules'
    # functions themselves, not methods wrapping them (a call less each: ~5 % of a random game).
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(rules.legal_actions)
    decide = staticmethod(rules.decide)
    advance = staticmethod(rules.advance)
    outcome = staticmethod(rules.outcome)

    def view(self, s: State, seat: int | None) -> views.MountDragoView:
        return views.view(s, seat)

    def redact(self, event: Event, seat: int | None) -> SeenEvent:
        return redaction.redact(event, seat)

    def is_barrier(self, s: State, event: Event) -> bool:
        return rules.is_barrier(event)

    def finish_action(self, s: State, seat: int) -> Action | None:
        return rules.finish_action(s, seat)


@functools.cache
def _schemas() -> Mapping[str, JSON]:
    return game_schemas(
        INFO.title,
        view=views.MountDragoView,
        action=Action,
        event=SeenEvent,
        options=Options,
        setup=deal.Setup,
    )


GAME: Final = MountDrago()
