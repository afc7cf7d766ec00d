"""The bot levels by name: `random`, `greedy` and `ismcts`; `DEFAULT_LEVEL` is what a seat listed
without a level gets.

Every level has `choose(info, rng) -> action`, deterministic given the rng (for `ismcts`, given an
iteration budget), and sees nothing but the `InfoSet`. `make_bot(level, budget)` builds one; the
budget matters to `ismcts` only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Final, Protocol

from app.bots.greedy import GreedyBot
from app.bots.infoset import InfoSet
from app.bots.ismcts import Budget, IsmctsBot


class Bot(Protocol):
    @property
    def name(self) -> str: ...

    def choose(self, info: InfoSet, rng: random.Random) -> object:
        """One of `info.legal_actions`."""
        ...


class RandomBot:
    """A uniformly random legal action."""

    name: Final = "random"

    def choose(self, info: InfoSet, rng: random.Random) -> object:
        return rng.choice(info.legal_actions)


LEVELS: Mapping[str, Callable[[Budget], Bot]] = {
    "random": lambda budget: RandomBot(),
    "greedy": lambda budget: GreedyBot(),
    "ismcts": IsmctsBot,
}
# The strongest level within the 200 ms a decision may take; greedy (about 5 ms) is the one to
# choose where CPU is short.
DEFAULT_LEVEL: Final = "ismcts"


def make_bot(level: str, budget: Budget | None = None) -> Bot:
    """The bot of `level` (KeyError for an unknown level)."""
    return LEVELS[level](budget or Budget())
