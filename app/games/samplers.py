"""Determinization samplers by game name: complete hidden states consistent with one seat's information.

A seat's information is the match's game events redacted for that seat, as JSON, in order
(`to_json(game.redact(event, seat))`); nothing else goes in. Each game's `sampler` module documents
its model; all of them sample uniformly over the hidden states consistent with that information
under the standard determinization (opponents' past choices treated as uninformative), except
Mount Drago after a reshuffle, where the distribution is close to uniform (see its module).

- `SAMPLERS[name].prepare(seat, history)` folds a history once and returns a `Determinizer`
  whose `sample(rng)` returns one complete engine state; use it for many samples.
- `SAMPLERS[name].sample(seat, history, rng)` is a single sample.
- `SAMPLERS[name].hidden_json(state)` is the hidden part of a state as JSON (hands, decks or the
  draw-pile order, face-down and set-aside tiles).

A sample uses only `rng` for its randomness, never the match's secret, so it is never the real
hidden state by construction, only as often as chance makes it so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.games.codec import JSON
from app.games.mount_drago import sampler as mount_drago
from app.games.yutaka import sampler as yutaka


class Determinizer(Protocol):
    """One seat's information, folded once."""

    seat: int

    def sample(self, rng: random.Random) -> Any:
        """A complete state consistent with the information; randomness from `rng` only."""
        ...


@dataclass(frozen=True, slots=True)
class Sampler:
    """A game's sampler: `prepare` a seat's history once, or `sample` it once."""

    prepare: Callable[[int, Sequence[JSON]], Determinizer]
    hidden_json: Callable[[Any], JSON]

    def sample(self, seat: int, history: Sequence[JSON], rng: random.Random) -> Any:
        return self.prepare(seat, history).sample(rng)


SAMPLERS: Mapping[str, Sampler] = {
    "mount_drago": Sampler(mount_drago.prepare, mount_drago.hidden_json),
    "yutaka": Sampler(yutaka.prepare, yutaka.hidden_json),
}


def get_sampler(name: str) -> Sampler | None:
    return SAMPLERS.get(name)
