"""`advance` (a decision folded in one pass) is exactly `decide` then `evolve` of each event.

Both games decide on a mutable draft of the state and fold events through the same mutators, so
`advance` with a log must give `decide`'s events and the state that folding them gives, and
`advance` without a log the same state; over random games with every option off its default,
with the same dice. `app.games.playout.advancer` falls back to `decide` and `evolve` for a game
without its own `advance`. `frozen.thaw`/`freeze` refuse a twin that is not one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from app.games import frozen
from app.games.core import IllegalAction
from app.games.playout import advancer, play_random
from app.games.registry import GAMES

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("mount_drago", 2, {}),
    ("mount_drago", 3, {"explicit_end_turn": True, "zero_scoring_counts": False}),
    ("mount_drago", 5, {"negative_floor": False, "refill_after_discard_empty": False}),
    ("yutaka", 2, {}),
    ("yutaka", 2, {"mode": "tactika", "stacked": True, "explicit_end_turn": True}),
    ("yutaka", 2, {"mode": "mixed", "first_player": "random", "tie_break": "shared"}),
]


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_advance_is_decide_then_evolve(name: str, players: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    advance = game.advance  # type: ignore[attr-defined]
    decisions = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.initial_state(game.start(players, game.parse_options(players, options), rng))
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            dice = rng.getstate()
            events = game.decide(state, seat, action, rng)
            folded = state
            for event in events:
                folded = game.evolve(folded, event)
            rng.setstate(dice)
            log: list[Any] = []
            assert advance(state, seat, action, rng, log) == folded
            assert tuple(log) == events
            rng.setstate(dice)
            quiet = advance(state, seat, action, rng)
            assert quiet == folded and type(quiet) is type(folded)
            state = folded
            decisions += 1
    assert decisions > 12 * 40


@pytest.mark.parametrize("name", sorted(GAMES))
def test_advance_refuses_what_decide_refuses(name: str) -> None:
    game = GAMES[name]
    advance = game.advance  # type: ignore[attr-defined]
    start = game.initial_state(game.start(2, game.parse_options(2, {}), random.Random(1)))
    seat = game.to_act(start)[0]
    action = game.legal_actions(start, seat)[0]
    with pytest.raises(IllegalAction) as refused:
        advance(start, 1 - seat, action, random.Random())
    assert refused.value.code == "not_your_turn"
    over = play_random(game, 2, 3, log=False).state
    with pytest.raises(IllegalAction) as refused:
        advance(over, seat, action, random.Random())
    assert refused.value.code == "match_over"


class _Without:
    """A game object without `advance`: `advancer` goes through `decide` and `evolve`."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        if name == "advance":
            raise AttributeError(name)
        return getattr(self._game, name)


def test_advancer_falls_back_to_decide_and_evolve() -> None:
    game = GAMES["mount_drago"]
    plain = _Without(game)
    assert advancer(game) == game.advance  # type: ignore[attr-defined]
    ours = play_random(game, 3, 9)
    theirs = play_random(plain, 3, 9)
    assert ours.state == theirs.state and ours.events == theirs.events
    assert play_random(plain, 3, 9, log=False).events == []


@dataclass(frozen=True, slots=True)
class _Point:
    x: int
    y: int


class _PointDraft:
    __slots__ = ("x", "y")
    x: int
    y: int


class _Other:
    __slots__ = ("x", "z")


def test_thaw_and_freeze() -> None:
    p = _Point(1, 2)
    d = frozen.thaw(p, _PointDraft)
    d.x = 5
    q = frozen.freeze(d, _Point)
    assert q == _Point(5, 2) and type(q) is _Point and p == _Point(1, 2)
    with pytest.raises(AttributeError):
        q.x = 6  # type: ignore[misc]
    with pytest.raises(TypeError, match="twin"):
        frozen.thaw(p, _Other)
