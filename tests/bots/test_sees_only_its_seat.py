"""Every level decides from its seat's information only (a metamorphic test).

Two true worlds that differ only in what a seat cannot see (other hands, the draw-pile or deck
order, face-down and set-aside tiles; `worlds.twin` builds them through the real deal and rules)
are fed through the real redaction into the bot's input; with the same rng, every level must make
the same decision in both. A control shows the test can fail: a bot that peeks at the true state
(a greedy player reading the real cards) is caught.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from app.bots import LEVELS, Budget, InfoSet, make_bot, observe
from app.bots.kits import KITS
from app.bots.levels import Bot
from app.games.registry import GAMES
from tests.bots.worlds import World, twin

CASES = [
    ("mount_drago", 2, {}),
    ("mount_drago", 3, {}),
    ("mount_drago", 5, {}),
    ("mount_drago", 2, {"explicit_end_turn": True}),
    ("yutaka", 2, {}),
    ("yutaka", 2, {"mode": "tactika"}),
    ("yutaka", 2, {"mode": "mixed", "stacked": True}),
    ("yutaka", 2, {"explicit_end_turn": True}),
]
CUTS = (0.05, 0.3, 0.6, 0.9)
BUDGET = Budget(iterations=40, millis=None)

Pair = tuple[str, int, World, World]


def pairs(name: str, players: int, options: Any) -> list[Pair]:
    out = []
    for i, cut in enumerate(CUTS):
        seat, a, b = twin(name, players, options, seed=17 + i, cut=cut, swaps=80)
        out.append((name, seat, a, b))
    return out


def info(name: str, seat: int, world: World) -> InfoSet:
    game = GAMES[name]
    return observe(game, seat, world.events, game.legal_actions(world.state, seat))


def same_decisions(make: Callable[[World], Bot], cases: list[Pair], seed: int = 5) -> bool:
    """Whether the bot `make(world)` decides the same in both worlds of every case."""
    for name, seat, a, b in cases:
        first, second = info(name, seat, a), info(name, seat, b)
        assert first == second, "the worlds must look the same to the seat"
        if make(a).choose(first, random.Random(seed)) != make(b).choose(second, random.Random(seed)):
            return False
    return True


class PeekingBot:
    """A cheat for the control: two plies over the true state (its move, then the reply the next
    seat would choose with the real cards), the way a search over the full state would cheat."""

    name = "peeking"

    def __init__(self, true_state: Any) -> None:
        self.true_state = true_state

    def choose(self, info: InfoSet, rng: random.Random) -> Any:
        kit = KITS[info.game]
        game = kit.game

        def value(action: Any) -> float:
            state = kit.apply(self.true_state, info.seat, action, random.Random(0))
            acting = game.to_act(state)
            if acting:
                other = acting[0]
                replies = game.legal_actions(state, other)
                state = max(
                    (kit.apply(state, other, r, random.Random(0)) for r in replies),
                    key=lambda s: kit.lead(s, other),
                )
            return kit.lead(state, info.seat)

        return max(info.legal_actions, key=value)


@pytest.fixture(scope="module")
def all_pairs() -> dict[str, list[Pair]]:
    return {f"{n}-{p}-{json.dumps(o)}": pairs(n, p, o) for n, p, o in CASES}


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_decides_the_same_in_worlds_its_seat_cannot_tell_apart(
    level: str, all_pairs: dict[str, list[Pair]]
) -> None:
    bot = make_bot(level, BUDGET)
    for case in all_pairs.values():
        assert same_decisions(lambda world: bot, case)


def test_control_a_bot_that_peeks_at_the_true_state_is_caught(all_pairs: dict[str, list[Pair]]) -> None:
    def peeking(world: World) -> Bot:
        return PeekingBot(world.state)

    for name in sorted(GAMES):
        cases = [pair for key, case in all_pairs.items() if key.startswith(name) for pair in case]
        assert same_decisions(lambda world: make_bot("greedy"), cases)
        assert not same_decisions(peeking, cases)
