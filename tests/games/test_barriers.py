"""Undo barriers and `finish_action`, checked over random games of every registered game.

The match layer builds private turn drafts from these two members alone, so they must be right
for any game: an event that shows anybody something the others do not see, a decision that used
randomness, and a decision after which another seat (or nobody) is to act must each contain a
barrier; `finish_action` must be a legal action that ends the turn at a barrier. With
`explicit_end_turn` a turn must also leave something to undo. A control proves the check fails
for a game that declares no barriers.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.codec import to_json
from app.games.core import Game
from app.games.registry import GAMES
from tests.games.support import cases, random_game


def check(game: Game[Any, Any, Any], players: int, options: dict[str, Any], seeds: range) -> int:
    """Run the checks over random games; returns how many decisions had no barrier (undoable)."""
    viewers: list[int | None] = [*range(players), None]
    undoable = 0
    for seed in seeds:
        for step in random_game(game, players, options, seed):
            states = (step.before, *step.after)
            barriers = []
            for before, event in zip(states, step.events, strict=False):
                seen = {repr(to_json(game.redact(event, seat))) for seat in viewers}
                barrier = before is None or game.is_barrier(before, event)
                if len(seen) > 1:
                    assert barrier, f"{event.TYPE} shows some viewers more than others"
                barriers.append(barrier)
            after = step.after[-1]
            if step.rng_used:
                assert any(barriers), f"{step.action} used randomness without a barrier"
            if step.seat >= 0 and game.to_act(after) != (step.seat,):
                assert any(barriers), f"{step.action} handed the decision on without a barrier"
            if step.seat >= 0 and not any(barriers):
                undoable += 1
            for seat in range(players):
                _check_finish(game, after, seat)
    return undoable


def _check_finish(game: Game[Any, Any, Any], state: Any, seat: int) -> None:
    finish = game.finish_action(state, seat)
    if finish is None:
        return
    assert finish in game.legal_actions(state, seat)
    flags = []
    for event in game.decide(state, seat, finish, random.Random(0)):
        flags.append(game.is_barrier(state, event))
        state = game.evolve(state, event)
    assert any(flags), f"{finish} did not end the turn at a barrier"


@pytest.mark.parametrize(("name", "players", "options"), cases())
def test_barriers_and_finish_actions(name: str, players: int, options: dict[str, Any]) -> None:
    undoable = check(GAMES[name], players, options, range(3))
    if options.get("explicit_end_turn"):
        assert undoable > 20  # plays, rider choices and discards wait for end_turn


class NoBarriers:
    """A game that (wrongly) declares that nothing is a barrier."""

    def __init__(self, game: Game[Any, Any, Any]) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def is_barrier(self, state: Any, event: Any) -> bool:
        return False


@pytest.mark.parametrize("name", sorted(GAMES))
def test_control_the_check_catches_missing_barriers(name: str) -> None:
    players, options = next((p, o) for n, p, o in cases() if n == name)
    with pytest.raises(AssertionError, match=r"without a barrier|than others"):
        check(NoBarriers(GAMES[name]), players, options, range(1))
