"""Random playouts through the rules, and `advance`: one decision folded into a state.

`advancer(game)` gives `advance(state, seat, action, rng, log)`: `decide` then `evolve` of each
event; a game that has its own `advance` (both games here: `rules.advance`) does it in one pass
and builds the events only when a `log` list is given. Playouts, searches and the training
environments use it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.games.core import AnyGame

Advance = Callable[[object, int, object, random.Random, "list[object] | None"], object]


def advancer(game: AnyGame) -> Advance:
    """`game`'s own `advance(state, seat, action, rng, log=None)` if it has one, else the same
    through `decide` and `evolve`: the state after `seat`'s `action`, exactly as folding the
    events `decide` returns, which are appended to `log` when one is given. Raises
    `IllegalAction` as `decide` does."""
    own: Advance | None = getattr(game, "advance", None)
    if own is not None:
        return own

    def through_events(
        state: object, seat: int, action: object, rng: random.Random, log: list[object] | None
    ) -> object:
        for event in game.decide(state, seat, action, rng):
            state = game.evolve(state, event)
            if log is not None:
                log.append(event)
        return state

    return through_events


@dataclass(frozen=True, slots=True)
class Playout:
    state: Any
    events: list[Any]  # empty unless the playout kept its log
    decisions: int  # how many actions were decided (each produced one or more events)


def play_random(
    game: AnyGame,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    log: bool = True,
) -> Playout:
    """Play one game by uniformly random legal actions to its end (`log`: keep every event).

    The dice and the choices come from one `random.Random(seed)`, through `randrange` and
    `shuffle` only."""
    rng = random.Random(seed)
    opts = game.parse_options(players, options or {})
    first = game.start(players, opts, rng)
    state = game.initial_state(first)
    events = [first] if log else []
    kept = events if log else None
    outcome, to_act, legal_actions, advance = game.outcome, game.to_act, game.legal_actions, advancer(game)
    for decisions in range(game.info.max_actions + 1):  # the last pass only checks the outcome
        acting = to_act(state)  # nobody: the game is over
        if not acting and outcome(state) is not None:
            return Playout(state, events, decisions)
        if decisions == game.info.max_actions or not acting:
            break
        seat = acting[0]
        legal = legal_actions(state, seat)
        state = advance(state, seat, legal[rng.randrange(len(legal))], rng, kept)
    raise RuntimeError(f"{game.info.name}: no outcome after {decisions} actions")
