"""Where a match's dice come from: a secret and the match's position, hashed into a `random.Random`.

Every die of a match is rolled from its secret (the server's `app.matches.fairness` keeps and
publishes it; the training environments, `app.envs`, take one to reproduce a server match):

- the deal (the first event, seq 1) is made with `rng_for(secret, 0)`; a decision taken when the
  match is at seq `n` (the number of events in its stream, match events included) uses
  `rng_for(secret, n)`; a server bot choosing at seq `n` uses `bot_rng_for(secret, n)`;
- each is `random.Random` seeded with the big-endian integer of `SHA-256(UTF-8 of "<secret>:<n>")`
  (bots: `"<secret>:bot:<n>"`), so a replay with the revealed secret reproduces every roll.

The rules draw from these only through `randrange(n)` and `shuffle(list)`. Standard library only.
"""

from __future__ import annotations

import hashlib
import random


def seeded(material: str) -> random.Random:
    """`random.Random` seeded with the big-endian integer of SHA-256 of `material` (UTF-8)."""
    return random.Random(int.from_bytes(hashlib.sha256(material.encode("utf-8")).digest(), "big"))


class _Lazy(random.Random):
    """`Random` seeded from `material` on first use: most decisions roll no dice, and seeding the
    Mersenne Twister costs more than deciding them (the same numbers come out either way)."""

    def __init__(self, material: str) -> None:  # no super().__init__(): seeded on first use
        self._material = material
        self._real: random.Random | None = None

    def __getattribute__(self, name: str) -> object:
        if name.startswith("_") and name not in ("_randbelow",):
            return object.__getattribute__(self, name)
        real = object.__getattribute__(self, "_real")
        if real is None:
            real = seeded(object.__getattribute__(self, "_material"))
            object.__setattr__(self, "_real", real)
        return getattr(real, name)


def rng_for(secret: str, seq: int) -> random.Random:
    """The dice of the deal (`seq` 0) or of a decision taken at `seq`."""
    return _Lazy(f"{secret}:{seq}")


def bot_rng_for(secret: str, seq: int) -> random.Random:
    """A server bot's own randomness for its decision at `seq`."""
    return seeded(f"{secret}:bot:{seq}")
