"""A Gymnasium single-agent environment: one seat against the server's bot levels in the others.

    from app.envs.gymnasium import DragoEnv
    e = DragoEnv("yutaka", opponent="greedy", options={"mode": "tactika"})
    observation, info = e.reset(seed=3)
    while True:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, info = e.step(action)
        if terminated:
            break

The agent plays `seat`; every other seat is played by a server bot level (`opponent`: `random`,
`greedy` or `ismcts`, `app.bots`, with `budget` for ismcts), which sees only its own seat as on the
server. `step` applies the agent's action, then the bots' decisions until the agent is to act
again or the game is over. Observations and actions are the PettingZoo environment's
(`app.envs.pettingzoo`): a dict of the seat's `observation` and `action_mask`; `action_masks()`
returns the mask as booleans (what maskable-policy libraries ask for). The reward is 0 until the
end, then the ranking reward (`app.envs.table`); the episode never truncates. An id outside the
mask follows PettingZoo's convention for illegal moves (`illegal="lose"`, the default here, as its
`TerminateIllegalWrapper`): the episode ends at once with reward −1 and `info["illegal_action"]`
true; with `illegal="raise"` it raises `IllegalMove` instead. `reset(seed=n)` is deterministic given
an iteration budget (a time budget for ismcts depends on the machine's speed).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from app.bots import Budget, InfoSet, make_bot
from app.bots.levels import LEVELS
from app.envs.table import CLIP, IllegalMove, Table
from app.games.codec import to_json

__all__ = ["ENV_IDS", "DragoEnv", "IllegalMove"]

# `gymnasium.make("drago/MountDrago-v0", players=3, opponent="greedy")` and the like.
ENV_IDS = {"drago/MountDrago-v0": "mount_drago", "drago/Yutaka-v0": "yutaka"}

Observation = dict[str, Any]


class DragoEnv(gymnasium.Env[Observation, int]):
    """`seat` of a game of `name` against `opponent` bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (as Gymnasium declares it)

    def __init__(
        self,
        name: str = "mount_drago",
        players: int = 2,
        options: Mapping[str, object] | None = None,
        seat: int = 0,
        opponent: str = "random",
        budget: Budget | None = None,
        render_mode: str | None = None,
        illegal: Literal["lose", "raise"] = "lose",
    ) -> None:
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if opponent not in LEVELS:
            raise ValueError(f"unknown opponent level {opponent!r}; levels are {sorted(LEVELS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = Table(name, players, options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0…{players - 1}, not {seat!r}")
        self.seat = seat
        self.illegal = illegal
        self._forfeited = False
        self.opponent = opponent
        self.bot = make_bot(opponent, budget)
        self.render_mode = render_mode
        spec = self.table.spec
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-CLIP, CLIP, (spec.observation,), np.float32),
                "action_mask": spaces.Box(0, 1, (spec.actions,), np.int8),
            }
        )
        self.action_space: spaces.Space[int] = spaces.Discrete(spec.actions)  # type: ignore[assignment]
        self._bot_rng = random.Random()
        self._histories: list[list[object]] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, object]]:
        super().reset(seed=seed)
        # The dice and the bots' choices follow `seed` (or the environment's own generator).
        base = int(self.np_random.integers(2**63)) if seed is None else seed
        self.table.reset(base, (options or {}).get("secret"), keep_log=self.opponent != "random")
        self._bot_rng = random.Random(f"{base}:bots")
        self._histories = [[] for _ in range(self.table.players)]
        self._forfeited = False
        self._bots_play()
        return self._observation(), {}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, object]]:
        if self.table.to_act is None or self._forfeited:
            raise IllegalMove("the game is over: reset the environment")
        if self.illegal == "lose" and int(action) not in self.table.legal_ids(self.seat):
            self._forfeited = True
            return self._observation(), -1.0, True, False, {"illegal_action": True}
        self.table.step(self.seat, int(action))
        self._bots_play()
        done = self.table.to_act is None
        reward = self.table.rewards()[self.seat] if done else 0.0
        return self._observation(), reward, done, False, {}

    def action_masks(self) -> np.ndarray[tuple[int, ...], np.dtype[np.bool_]]:
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        return None if self.render_mode is None else self.table.render()

    def _observation(self) -> Observation:
        mask = self.table.mask(self.seat).copy()  # new data on every call (the checker insists)
        return {"observation": self.table.observe(self.seat), "action_mask": mask}

    def _bots_play(self) -> None:
        table = self.table
        game = table.game
        while (acting := table.to_act) is not None and acting != self.seat:
            legal = game.legal_actions(table.state, acting)
            if self.opponent == "random":
                action = legal[self._bot_rng.randrange(len(legal))]
            else:
                info = InfoSet(table.name, acting, self._history(acting), legal)
                action = self.bot.choose(info, self._bot_rng)
            table.play(acting, action)

    def _history(self, seat: int) -> tuple[object, ...]:
        """`seat`'s redacted history as JSON, extended by the events it has not seen yet."""
        log = self.table.log
        assert log is not None
        seen = self._histories[seat]
        seen.extend(to_json(self.table.game.redact(event, seat)) for event in log[len(seen) :])
        return tuple(seen)


for _id, _name in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="app.envs.gymnasium:DragoEnv", kwargs={"name": _name})
