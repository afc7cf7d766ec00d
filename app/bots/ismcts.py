"""The ismcts level: single-observer information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse 2012) over determinizations sampled from the seat's information only.

One tree of action sequences from the seat's information set. Each iteration samples a
determinization (`app.games.samplers`), descends the tree choosing, among the actions legal in that
determinization, the one with the best UCB1 score counted with *availability*
(`mean + C·sqrt(ln(available) / visits)`: an action is compared against the number of times it
could have been chosen, since other seats' cards, and so their actions, differ between samples),
expands one untried action, then ends with a rollout and an evaluation. The **rollout** plays up
to `Kit.rollout_depth` further decisions by uniformly random legal actions; the **evaluation** of
where it stops is each seat's share of the win if the game is over, else a logistic of its lead in
the game's search evaluation over the best other seat (`Kit.rewards`). Every node on the path adds
the reward of the seat that chose its action; the most visited action at the root is played.
Per game (`Kit`): Mount Drago rolls out 3 random decisions (they play the next draws and moves)
and evaluates the greedy heuristic, C = 0.5; Yutakâ evaluates at once (depth 0) with a
finer evaluation that weighs each award by how safely it is held, C = 0.15. A kit may seed the
root (`Kit.prior_visits`, both off): each root action starts with that many virtual visits worth
greedy's one-step view of it; at 35 ms with 8-decision rollouts in Mount Drago it lifted the win
rate against greedy from 70 % to 78 % (40 games), less than shortening the rollouts did.

The budget is per decision: `Budget(iterations, millis, clock)`, stopping at whichever comes
first; the default is 140 ms, which keeps a decision under 200 ms on one core (`bench/bots.py`).
The milliseconds are wall-clock (`clock="wall"`, what the server's bots use: a latency bound) or
the CPU time of the searching thread (`clock="cpu"`, `time.thread_time`: what benchmarks use, so
that a figure means the same search on a busy machine as on an idle one). With an iteration
budget and the same rng a decision is deterministic; a time budget trades that for a bounded
latency.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Final, Literal

from app.bots.infoset import InfoSet
from app.bots.kits import KITS, Kit


@dataclass(frozen=True, slots=True)
class Budget:
    """Per-decision search budget: stop after `iterations` or `millis`, whichever comes first
    (`None`: no limit of that kind; at least one must be set). `clock` says what the milliseconds
    count: `"wall"` time, or `"cpu"` time of the searching thread."""

    iterations: int | None = None
    millis: float | None = 140.0
    clock: Literal["wall", "cpu"] = "wall"

    def __post_init__(self) -> None:
        if self.iterations is None and self.millis is None:
            raise ValueError("a budget needs iterations or millis")
        if self.clock not in CLOCKS:
            raise ValueError(f"a budget's clock is one of {', '.join(CLOCKS)}, not {self.clock!r}")


CLOCKS: Final = {"wall": time.perf_counter, "cpu": time.thread_time}


@dataclass(slots=True)
class _Node:
    seat: int  # who chose the action leading here
    visits: int = 0
    available: int = 0  # how often the action leading here was legal when its parent was visited
    reward: float = 0.0
    children: dict[object, _Node] = field(default_factory=dict)


PRIOR_SAMPLES: Final = 4  # determinizations that seed the root (as many as greedy looks at)


class IsmctsBot:
    name: Final = "ismcts"

    def __init__(
        self,
        budget: Budget | None = None,
        rollout_depth: int | None = None,
        exploration: float | None = None,
        prior_visits: int | None = None,
    ) -> None:
        self.budget = budget or Budget()
        # None: the game's own (`Kit`); so for `exploration` and `prior_visits`
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.prior_visits = prior_visits
        self.iterations = 0  # how many the last decision with a choice ran (for benchmarks)

    def choose(self, info: InfoSet, rng: random.Random) -> object:
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        # The time budget covers the whole decision, folding the history included.
        now = CLOCKS[self.budget.clock]
        deadline = None if self.budget.millis is None else now() + self.budget.millis / 1000
        kit = KITS[info.game]
        determinizer = kit.sampler.prepare(info.seat, info.history)
        root = _Node(info.seat)
        prior = kit.prior_visits if self.prior_visits is None else self.prior_visits
        if prior:
            _seed_root(
                kit,
                root,
                info.seat,
                legal,
                [determinizer.sample(rng) for _ in range(PRIOR_SAMPLES)],
                prior,
                rng,
            )
        iterations = self.budget.iterations
        done = 0
        while (iterations is None or done < iterations) and (deadline is None or now() < deadline):
            self._iterate(kit, root, legal, determinizer.sample(rng), rng)
            done += 1
        self.iterations = done
        # The most visited action; then the best mean reward (after few iterations, the prior's
        # choice); then the order of the legal actions.
        return max(legal, key=lambda a: _standing(root.children.get(a)))

    def _iterate(
        self, kit: Kit, root: _Node, root_legal: tuple[object, ...], state: object, rng: random.Random
    ) -> None:
        game = kit.game
        node = root
        path = [root]
        while acting := game.to_act(state):  # nobody to act: the game is over
            seat = acting[0]
            # At the root every determinization gives the seat the same legal actions.
            legal = root_legal if node is root else game.legal_actions(state, seat)
            children = node.children
            untried = []
            for a in legal:  # one look-up per action: hashing an action is not free
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.available += 1
            if untried:
                action = rng.choice(untried)
                children[action] = _Node(seat, available=1)
            else:
                action = _select(
                    node, legal, kit.exploration if self.exploration is None else self.exploration
                )
            node = children[action]
            path.append(node)
            state = kit.apply(state, seat, action, rng)
            if untried:
                break
        rewards = self._rollout(kit, state, rng)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]

    def _rollout(self, kit: Kit, state: object, rng: random.Random) -> tuple[float, ...]:
        game = kit.game
        for _ in range(kit.rollout_depth if self.rollout_depth is None else self.rollout_depth):
            acting = game.to_act(state)
            if not acting:
                break
            seat = acting[0]
            state = kit.apply(state, seat, rng.choice(game.legal_actions(state, seat)), rng)
        return kit.rewards(state)


def _seed_root(
    kit: Kit,
    root: _Node,
    seat: int,
    legal: tuple[object, ...],
    states: list[object],
    visits: int,
    rng: random.Random,
) -> None:
    """Give each root action `visits` virtual visits worth what greedy sees in it: the logistic of
    the seat's mean lead one step ahead over `states` (as `Kit.rewards` scores a leaf). The search
    then starts from greedy's preference and overturns it only where its iterations disagree."""
    for action in legal:
        lead = sum(kit.lead(kit.apply(s, seat, action, rng), seat) for s in states) / len(states)
        edge = max(-30.0, min(30.0, lead / kit.scale))
        reward = 1.0 / (1.0 + math.exp(-edge))
        root.children[action] = _Node(seat, visits=visits, available=visits, reward=visits * reward)


def _standing(child: _Node | None) -> tuple[int, float]:
    if child is None or not child.visits:
        return (-1, 0.0)
    return (child.visits, child.reward / child.visits)


def _select(node: _Node, legal: tuple[object, ...], exploration: float) -> object:
    best, best_score = legal[0], -1.0
    for a in legal:
        child = node.children[a]
        score = child.reward / child.visits + exploration * math.sqrt(
            math.log(child.available) / child.visits
        )
        if score > best_score:
            best, best_score = a, score
    return best
