"""What the bots know of each game, by name: its rules engine, its sampler, its heuristics and
its search settings.

A `Kit` holds `potential` (each seat's estimated final total, exact once the game is over: the
heuristic greedy maximises, documented in `app.bots.mount_drago` and `app.bots.yutaka`),
`evaluation` (what ismcts scores where a rollout stops: the potential, or a finer estimate),
`scale` (the lead that makes a clear edge) and ismcts's `exploration` and `rollout_depth`, and
the operations the levels share: `apply` (one decision folded into a state, chance included),
`lead` (a seat's potential minus the best other's) and `rewards` (each seat's reward in [0, 1]: its
share of the win when the game is over, else a logistic of its evaluation lead).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.bots import mount_drago, yutaka
from app.games.core import AnyGame
from app.games.playout import Advance, advancer
from app.games.registry import GAMES
from app.games.samplers import SAMPLERS, Sampler


@dataclass(frozen=True, slots=True)
class Kit:
    """One game as the bots see it (see the module docstring)."""

    game: AnyGame
    sampler: Sampler
    potential: Callable[[Any], tuple[float, ...]]  # each seat's estimated (when over: exact) final total
    scale: float  # a lead in potential that makes a clear edge
    evaluation: Callable[[Any], tuple[float, ...]]  # what search rewards: the potential, or finer
    exploration: float  # ismcts's UCB constant
    rollout_depth: int  # ismcts's random decisions after the tree before evaluating
    prior_visits: int = 0  # ismcts's virtual visits per root action, seeded with greedy's view

    def apply(self, state: object, seat: int, action: object, rng: random.Random) -> object:
        """The state after `seat`'s `action`, chance included (the game's `advance`, no events)."""
        return self.advance(state, seat, action, rng, None)

    @property
    def advance(self) -> Advance:
        return advancer(self.game)

    def lead(self, state: object, seat: int) -> float:
        """`seat`'s potential minus the best other seat's: what greedy maximises."""
        values = self.potential(state)
        return values[seat] - max(v for s, v in enumerate(values) if s != seat)

    def rewards(self, state: object) -> tuple[float, ...]:
        values = self.evaluation(state)
        n = len(values)
        if not self.game.to_act(state):  # over: the potential is the final score
            best = max(values)
            winners = [s for s in range(n) if values[s] == best]
            if len(winners) > 1:  # equal totals: the game's tie-breaks decide
                result = self.game.outcome(state)
                assert result is not None
                winners = list(result.winners)
            return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(n))
        out = []
        for s, v in enumerate(values):
            edge = (v - max(w for o, w in enumerate(values) if o != s)) / self.scale
            out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, edge)))))
        return tuple(out)


# Tuned in tournaments against greedy (bench/bots.py): in Mount Drago short random rollouts help
# (they play out the next draws and moves), long ones drown the heuristic in noise: at 35 ms of CPU
# per decision, 40 games on the same deals, depth 0 won 76 %, 3 won 95 %, 8 won 70 %. In Yutakâ
# the finer evaluation at the leaf beats rollouts.
KITS: Mapping[str, Kit] = {
    "mount_drago": Kit(
        game=GAMES["mount_drago"],
        sampler=SAMPLERS["mount_drago"],
        potential=mount_drago.potential,
        scale=mount_drago.SCALE,
        evaluation=mount_drago.potential,
        exploration=0.5,
        rollout_depth=3,
    ),
    "yutaka": Kit(
        game=GAMES["yutaka"],
        sampler=SAMPLERS["yutaka"],
        potential=yutaka.potential,
        scale=yutaka.SCALE,
        evaluation=yutaka.evaluation,
        exploration=0.15,
        rollout_depth=0,
    ),
}
