"""Pairs of true worlds that a seat cannot tell apart, built through the real deal pipeline.

A world is a deal (an explicit setup passed to the game's `start`, exactly as a development match
is created) and the decisions played on it, folded with `decide` and `evolve`. `twin` takes a random
match, cuts it where `seat` is to act, and exchanges hidden pieces of its deal (other seats' cards,
the draw-pile or deck order, face-down and set-aside tiles) one transposition at a time, keeping an
exchange only if replaying the same decisions still gives `seat` exactly the same redacted history
and legal actions: the two worlds then differ only in what `seat` cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.games.codec import JSON, to_json
from app.games.core import Game, IllegalAction
from app.games.registry import GAMES
from tests.bots.support import history

Decision = tuple[int, Any]


@dataclass(frozen=True, slots=True)
class World:
    events: tuple[Any, ...]
    state: Any


def setup_of(name: str, first: Any) -> dict[str, Any]:
    """The explicit setup that deals exactly `first` (a game_started event)."""
    data = to_json(first)
    keys = (
        ("riders", "hands", "draw_pile", "first_player")
        if name == "mount_drago"
        else ("decks", "islands", "set_aside", "first_player")
    )
    return {k: data[k] for k in keys}


def places(name: str, setup: dict[str, Any], seat: int) -> list[tuple[str, int, int | None]]:
    """Where hidden pieces lie in a setup: (member, index, sub-index). A seat's own opening hand is
    known to it; a Yutakâ deck only exchanges within itself."""
    if name == "mount_drago":
        out: list[tuple[str, int, int | None]] = [
            ("hands", s, i) for s, hand in enumerate(setup["hands"]) if s != seat for i in range(len(hand))
        ]
        return out + [("draw_pile", i, None) for i in range(len(setup["draw_pile"]))]
    out = [("decks", s, i) for s in (0, 1) for i in range(24) if s != seat or i >= 6]
    out += [("islands", i, j) for i in range(5) for j in range(4)]
    return out + [("set_aside", i, None) for i in range(5)]


def compatible(name: str, a: tuple[str, int, int | None], b: tuple[str, int, int | None]) -> bool:
    if name == "yutaka":
        deck_a, deck_b = a[0] == "decks", b[0] == "decks"
        return deck_a == deck_b and (not deck_a or a[1] == b[1])
    return True


def _get(setup: dict[str, Any], place: tuple[str, int, int | None]) -> JSON:
    member, i, j = place
    return setup[member][i] if j is None else setup[member][i][j]


def _set(setup: dict[str, Any], place: tuple[str, int, int | None], value: JSON) -> None:
    member, i, j = place
    if j is None:
        setup[member][i] = value
    else:
        setup[member][i][j] = value


def replay(
    game: Game[Any, Any, Any], players: int, options: Any, setup: Any, decisions: Sequence[Decision]
) -> World | None:
    """Deal `setup` and play `decisions`; None when one of them is not legal there."""
    rng = random.Random(0)  # only Mount Drago's reshuffles use it, and their pool is public
    first = game.start(players, options, rng, setup)
    state = game.initial_state(first)
    events = [first]
    for seat, action in decisions:
        if action not in game.legal_actions(state, seat):
            return None
        try:
            produced = game.decide(state, seat, action, rng)
        except IllegalAction:
            return None
        for event in produced:
            state = game.evolve(state, event)
            events.append(event)
    return World(tuple(events), state)


def twin(
    name: str, players: int, options: Any, seed: int, cut: float, swaps: int = 40
) -> tuple[int, World, World]:
    """A random match cut at about `cut` (0…1) of its decisions, where some seat is to act and has
    a choice; that seat and two worlds it cannot tell apart (see the module docstring)."""
    game = GAMES[name]
    rng = random.Random(seed)
    opts = game.parse_options(players, options)
    first = game.start(players, opts, rng)
    state = game.initial_state(first)
    decisions: list[Decision] = []
    target = None
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if target is None and len(decisions) >= cut * 60 and len(legal) > 1:
            target = seat
            break
        action = rng.choice(legal)
        decisions.append((seat, action))
        for event in game.decide(state, seat, action, rng):
            state = game.evolve(state, event)
    assert target is not None, "no decision with a choice after the cut"
    setup = setup_of(name, first)
    original = replay(game, players, opts, setup, decisions)
    assert original is not None
    seen = history(game, original.events, target)
    legal = game.legal_actions(original.state, target)
    spots = places(name, setup, target)
    other = {
        k: [list(x) if isinstance(x, list) else x for x in v] if isinstance(v, list) else v
        for k, v in setup.items()
    }
    for _ in range(swaps):
        a, b = rng.sample(spots, 2)
        if not compatible(name, a, b) or _get(other, a) == _get(other, b):
            continue
        va, vb = _get(other, a), _get(other, b)
        _set(other, a, vb)
        _set(other, b, va)
        world = replay(game, players, opts, other, decisions)
        if (
            world is None
            or history(game, world.events, target) != seen
            or game.legal_actions(world.state, target) != legal
        ):
            _set(other, a, va)
            _set(other, b, vb)
    alternative = replay(game, players, opts, other, decisions)
    assert alternative is not None
    return target, original, alternative
