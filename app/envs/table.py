"""One game played inside an environment: the server's rules, dice and per-seat views.

`Table` holds an engine state and moves it with the game's `advance` (`app.games.playout`): the
same rules, checks and events the server runs. It knows each game's fixed action space and
observation encoding (`SPECS`: `app.envs.mount_drago`, `app.envs.yutaka`); an observation is
built only from the seat's view, `game.view(state, seat)`, the function the server answers with.

Dice: `reset(seed=n)` rolls the deal and every later die from one `random.Random(n)`;
`reset(secret=s)` rolls them as a development server does for a match created with `seed` `s`
(`app.games.chance`: the deal from `rng_for(s, 0)`, the decision at match seq `n` from
`rng_for(s, n)`), counting seq as the server does for a match whose seats were all taken before
its first action, with no clock and no drafts: the deal (seq 1), one `seat_joined` per seat,
`match_started`, then the game's events. The event log is kept with a secret (seq counts its
events) or when asked (`keep_log`), else not built at all.

Rewards come from the final ranking: a seat gets (seats it beats − seats that beat it) ÷
(players − 1), ranking by (among the winners, score), so +1 and −1 for a 2-player win and loss,
0 for a shared win, and +1 … −1 from first to last with more players.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from app.envs import mount_drago, yutaka
from app.games.chance import rng_for
from app.games.codec import JSON, to_json
from app.games.core import AnyGame, Outcome
from app.games.playout import advancer
from app.games.registry import GAMES

Observation = np.ndarray[tuple[int, ...], np.dtype[np.float32]]
CLIP: Final = 10.0  # every observation value lies in [-CLIP, CLIP]


@dataclass(frozen=True, slots=True)
class Spec:
    """A game's action space and observation encoding (documented in its module)."""

    actions: int
    observation: int
    legal_ids: Callable[[Any, int], list[int]]
    action_of: Callable[[Any, int, int], Any]
    encode: Callable[[Any, int, bool], Observation]
    describe: Callable[[int], str]


SPECS: Final[Mapping[str, Spec]] = {
    "mount_drago": Spec(
        mount_drago.ACTIONS,
        mount_drago.OBSERVATION,
        mount_drago.legal_ids,
        mount_drago.action_of,
        mount_drago.encode,
        mount_drago.describe,
    ),
    "yutaka": Spec(
        yutaka.ACTIONS, yutaka.OBSERVATION, yutaka.legal_ids, yutaka.action_of, yutaka.encode, yutaka.describe
    ),
}


class IllegalMove(ValueError):
    """An action id outside the acting seat's mask (or a step by a seat not to act)."""


def check_game(name: str, players: int) -> AnyGame:
    """The game `name` for `players` seats; a clear `ValueError` for an unknown game or count."""
    game = GAMES.get(name)
    if game is None or name not in SPECS:
        raise ValueError(f"unknown game {name!r}; the environments know {sorted(SPECS)}")
    info = game.info
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be an integer, not {players!r}")
    if not info.min_players <= players <= info.max_players:
        raise ValueError(
            f"{info.title} is played by {info.min_players} to {info.max_players} players, not {players}"
        )
    return game


def ranking_rewards(outcome: Outcome, players: int) -> tuple[float, ...]:
    """Each seat's reward from the final ranking (see the module docstring)."""
    key = [(s in outcome.winners, outcome.scores[s]) for s in range(players)]
    return tuple(
        (sum(key[s] > other for other in key) - sum(key[s] < other for other in key)) / (players - 1)
        for s in range(players)
    )


class Table:
    """A game of `name` for `players` seats with match `options` (validated as the server does)."""

    def __init__(self, name: str, players: int, options: Mapping[str, object] | None = None) -> None:
        self.game = check_game(name, players)
        self.name = name
        self.players = players
        self.spec = SPECS[name]
        # The server's validation: an unknown or bad option raises InvalidOptions (a ValueError).
        self.options: JSON = self.game.parse_options(players, dict(options or {}))
        self._advance = advancer(self.game)
        self.state: object = None
        self.log: list[object] | None = None
        self._rng = random.Random()
        self._secret: str | None = None
        self._seq = 0
        self._legal: tuple[object, int, list[int]] | None = None  # (state, seat, ids) of the last query
        self._mask: tuple[object, int, np.ndarray[tuple[int, ...], np.dtype[np.int8]]] | None = None

    def reset(self, seed: int | None = None, secret: str | None = None, keep_log: bool = False) -> None:
        """A new deal (see the module docstring for `seed` and `secret`)."""
        if secret is not None and (not isinstance(secret, str) or not secret):
            raise ValueError("secret must be a non-empty string")
        self._secret = secret
        self._rng = random.Random(secrets.randbits(64) if seed is None else seed)
        deal_rng = self._rng if secret is None else rng_for(secret, 0)
        first = self.game.start(self.players, self.options, deal_rng)
        self.state = self.game.initial_state(first)
        self.log = [first] if keep_log or secret is not None else None
        self._seq = 1 + self.players + 1  # the deal, every seat_joined, match_started
        self._legal = self._mask = None

    @property
    def to_act(self) -> int | None:
        acting = self.game.to_act(self.state)
        return acting[0] if acting else None

    def legal_ids(self, seat: int) -> list[int]:
        """The action ids `seat` may take now, ascending (empty when it is not to act)."""
        cached = self._legal
        if cached is not None and cached[0] is self.state and cached[1] == seat:
            return cached[2]
        ids = self.spec.legal_ids(self.state, seat)
        self._legal = (self.state, seat, ids)
        return ids

    def mask(self, seat: int) -> np.ndarray[tuple[int, ...], np.dtype[np.int8]]:
        """`legal_ids` as 0/1 over the action space (a read-only array, shared until the next step)."""
        cached = self._mask
        if cached is not None and cached[0] is self.state and cached[1] == seat:
            return cached[2]
        out = np.zeros(self.spec.actions, dtype=np.int8)
        out[self.legal_ids(seat)] = 1
        out.flags.writeable = False
        self._mask = (self.state, seat, out)
        return out

    def step(self, seat: int, action_id: int) -> None:
        """`seat` takes the action `action_id`; `IllegalMove` if it is not in `seat`'s mask."""
        cached = self._legal
        legal = cached[2] if cached is not None and cached[0] is self.state and cached[1] == seat else None
        if legal is None:
            legal = self.legal_ids(seat)
        action_id = int(action_id)  # numpy integers too
        if action_id not in legal:
            if self.to_act != seat:
                raise IllegalMove(f"seat {seat} is not to act (waiting for {self.to_act})")
            raise IllegalMove(f"action {action_id!r} is not legal for seat {seat} now; legal ids: {legal}")
        action = self.spec.action_of(self.state, seat, action_id)
        if self._secret is None:
            self.state = self._advance(self.state, seat, action, self._rng, self.log)
            return
        assert self.log is not None
        before = len(self.log)
        self.state = self._advance(self.state, seat, action, rng_for(self._secret, self._seq), self.log)
        self._seq += len(self.log) - before

    def play(self, seat: int, action: object) -> None:
        """`seat` takes `action` (an engine action, e.g. a bot's choice) with the table's dice."""
        dice = self._rng if self._secret is None else rng_for(self._secret, self._seq)
        before = len(self.log) if self.log is not None else 0
        self.state = self._advance(self.state, seat, action, dice, self.log)
        if self._secret is not None and self.log is not None:
            self._seq += len(self.log) - before

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def rewards(self) -> tuple[float, ...]:
        """Each seat's final reward; all zeros while the game runs."""
        outcome = self.outcome()
        return (0.0,) * self.players if outcome is None else ranking_rewards(outcome, self.players)

    def observe(self, seat: int) -> Observation:
        """`seat`'s observation, from its view only."""
        return self.spec.encode(self.game.view(self.state, seat), seat, self.to_act == seat)

    def history(self, seat: int) -> Sequence[JSON]:
        """The event log as `seat` may see it (JSON, as the server sends it); needs the log."""
        if self.log is None:
            raise ValueError("this table keeps no event log (reset with keep_log=True)")
        return [to_json(self.game.redact(event, seat)) for event in self.log]

    def render(self) -> str:
        """The public state as text (a spectator's view), and whose decision it is."""
        view = to_json(self.game.view(self.state, None))
        lines = [f"{self.game.info.title}, {self.players} players"]
        for key, value in view.items():
            if key in ("options", "track"):
                continue
            lines.append(f"  {key}: {_short(value)}")
        acting = self.to_act
        lines.append("  over" if acting is None else f"  seat {acting} to act")
        return "\n".join(lines)


def _short(value: object) -> str:
    """Cards and tiles as `dragon value`, `kind value`, the rest as JSON-ish text."""
    if isinstance(value, dict):
        if set(value) in ({"dragon", "value"}, {"kind", "value"}, {"type", "value"}):
            return " ".join(str(v) for v in value.values())
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    return str(value)
