"""The greedy level: one ply, the legal action with the best immediate evaluation.

Each legal action is applied to the same few determinizations, sampled from the seat's information
(`app.games.samplers`), and the states it leads to are scored with the game's heuristic: the seat's
potential minus the best other seat's (`Kit.lead`; the heuristics are documented in
`app.bots.mount_drago` and `app.bots.yutaka`). The action with the best mean wins; ties are broken
by the rng. The determinizations only matter where an action meets chance or hidden cards (draws,
a revealed tile); everything else the heuristic reads is public or the seat's own.
"""

from __future__ import annotations

import random
from typing import Final

from app.bots.infoset import InfoSet
from app.bots.kits import KITS

SAMPLES: Final = 4  # determinizations per decision
TIE: Final = 1e-9


class GreedyBot:
    name: Final = "greedy"

    def choose(self, info: InfoSet, rng: random.Random) -> object:
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        kit = KITS[info.game]
        determinizer = kit.sampler.prepare(info.seat, info.history)
        states = [determinizer.sample(rng) for _ in range(SAMPLES)]
        best: list[object] = []
        best_value = float("-inf")
        for action in legal:
            value = sum(kit.lead(kit.apply(s, info.seat, action, rng), info.seat) for s in states)
            if value > best_value + TIE:
                best, best_value = [action], value
            elif value >= best_value - TIE:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)
