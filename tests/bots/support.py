"""Helpers for the bot and sampler tests: random matches cut at every decision, and histories.

A `Match` is a game played to its end by random legal moves through the public protocol; its cuts
are the points between two decisions, where a seat's information is the events so far redacted for
it (`history`), exactly what the service hands a bot or the samples endpoint.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.games.codec import JSON, to_json
from app.games.core import Game
from app.games.registry import GAMES

YUTAKA_OPTIONS: tuple[Mapping[str, Any], ...] = (
    {},
    {"mode": "tactika"},
    {"mode": "mixed"},
    {"mode": "mixed", "known_types": ["crystal", "equipment", "amphora"], "first_player": 1},
    {"mode": "tactika", "stacked": True},
    {"stacked": True, "explicit_end_turn": True, "tie_break": "shared"},
    {"mode": "tactika", "explicit_end_turn": True, "first_player": "random", "tie_break": "equipment_points"},
)
DRAGO_OPTIONS: tuple[Mapping[str, Any], ...] = (
    {},
    {"explicit_end_turn": True, "negative_floor": False},
    {"refill_after_discard_empty": False, "zero_scoring_counts": False},
)


@dataclass(frozen=True, slots=True)
class Match:
    game: Game[Any, Any, Any]
    players: int
    events: tuple[Any, ...]
    cuts: tuple[tuple[int, Any], ...]  # (events so far, state) at the start and after each decision


def random_match(name: str, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Match:
    game = GAMES[name]
    rng = random.Random(seed)
    first = game.start(players, game.parse_options(players, options or {}), rng)
    state = game.initial_state(first)
    events = [first]
    cuts = [(1, state)]
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        for event in game.decide(state, seat, rng.choice(game.legal_actions(state, seat)), rng):
            state = game.evolve(state, event)
            events.append(event)
        cuts.append((len(events), state))
    return Match(game, players, tuple(events), tuple(cuts))


def history(game: Game[Any, Any, Any], events: Sequence[Any], seat: int) -> tuple[JSON, ...]:
    """The seat's information: every event redacted for it, as JSON."""
    return tuple(to_json(game.redact(e, seat)) for e in events)
