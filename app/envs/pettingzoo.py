"""PettingZoo AEC environments of Mount Drago (2–5 players) and Yutakâ (every mode).

    from app.envs.pettingzoo import env
    e = env("mount_drago", players=3, options={"explicit_end_turn": True})
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(np.flatnonzero(mask)[0]))

Agents are `player_0 … player_{n-1}` (the seats); the one to act is `agent_selection` (in Yutakâ the
seat revealing after the other's dynamite acts out of turn). Each observation is a dict: the
seat's `observation` (floats, built only from its redacted view; layouts in `app.envs.mount_drago`
and `app.envs.yutaka`) and its `action_mask` (int8 over the game's fixed action space; all zeros
for a seat not to act). Stepping an id outside the mask raises `IllegalMove` (a `ValueError`)
naming the legal ids; with `illegal="lose"` it follows PettingZoo's `TerminateIllegalWrapper`
instead: the game ends at once, −1 for the offending agent, 0 for the others, and
`infos[agent]["illegal_action"]` true. Rewards come only at the end, from the final ranking
(`app.envs.table`).
`reset(seed=n)` makes everything deterministic; `reset(options={"secret": s})` rolls the dice of a
development server's match created with `seed` `s` (other reset options are ignored).
`render()` returns the public state as text (`render_mode="ansi"`). `e.unwrapped.table.log` is the
event log when it is kept (`keep_log=True`, or with a secret).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from app.envs.table import CLIP, IllegalMove, Table

__all__ = ["DragoAEC", "IllegalMove", "env"]


class DragoAEC(AECEnv[str, dict[str, Any], int | None]):
    """One game of `name` for `players` seats with match `options` (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class and the instance)
        "render_modes": ["ansi"],
        "name": "drago_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        name: str = "mount_drago",
        players: int = 2,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        keep_log: bool = False,
        illegal: Literal["raise", "lose"] = "raise",
    ) -> None:
        super().__init__()
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = Table(name, players, options)
        self.render_mode = render_mode
        self.keep_log = keep_log
        self.metadata = {**self.metadata, "name": f"{name}_v0"}
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        spec = self.table.spec
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-CLIP, CLIP, (spec.observation,), np.float32),
                "action_mask": spaces.Box(0, 1, (spec.actions,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {agent: spaces.Discrete(spec.actions) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # PettingZoo lets any other reset option through (its own API test sends one).
        self.table.reset(seed, (options or {}).get("secret"), self.keep_log)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent(self.table.to_act)

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seats[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat).copy()}

    def action_mask(self, agent: str) -> np.ndarray[tuple[int, ...], np.dtype[np.int8]]:
        """`agent`'s mask alone (cheaper than `observe` when only the mask is needed): a read-only
        array the environment shares until its next step."""
        return self.table.mask(self._seats[agent])

    def legal_ids(self, agent: str) -> list[int]:
        """The action ids `agent` may take now, ascending."""
        return self.table.legal_ids(self._seats[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMove(f"{agent} is to act: None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        if self.illegal == "lose" and action not in self.legal_ids(agent):
            self.rewards = {a: -1.0 if a == agent else 0.0 for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self.table.step(self._seats[agent], action)
        acting = self.table.to_act
        if acting is None:
            self.rewards = dict(zip(self.possible_agents, self.table.rewards(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()  # (before the end every reward is 0: nothing to add)
        self.agent_selection = self._agent(acting)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.render()

    def close(self) -> None:
        return None


env = DragoAEC  # PettingZoo's convention: a module-level `env(...)` making the environment
