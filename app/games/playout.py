"""Random playouts through the public protocol: used by tests, benchmarks and the random bot."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.core import Game


@dataclass(frozen=True, slots=True)
class Playout:
    state: Any
    events: list[Any]
    decisions: int  # how many actions were decided (each produced one or more events)


def play_random(
    game: Game[Any, Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Playout:
    """Play one game by uniformly random legal actions to its end."""
    rng = random.Random(seed)
    opts = game.parse_options(players, options or {})
    first = game.start(players, opts, rng)
    state = game.initial_state(first)
    events = [first]
    for decisions in range(game.info.max_actions + 1):  # the last pass only checks the outcome
        if game.outcome(state) is not None:
            return Playout(state, events, decisions)
        if decisions == game.info.max_actions:
            break
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        for event in game.decide(state, seat, action, rng):
            state = game.evolve(state, event)
            events.append(event)
    raise RuntimeError(f"{game.info.name}: no outcome after {game.info.max_actions} actions")


def random_playout(
    game: Game[Any, Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> tuple[Any, list[Any]]:
    """`play_random` returning just the final state and all events."""
    p = play_random(game, players, seed, options)
    return p.state, p.events
