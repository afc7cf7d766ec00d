"""Chance and fairness: every die of a match is rolled from its secret, and the deal is committed.

- The secret is 32 random bytes as hex (`new_secret`), stored with the match and never shown
  while it runs.
- The deal (the first event, seq 1) is made with `rng_for(secret, 0)`; a decision taken when the
  match is at seq `n` uses `rng_for(secret, n)`; a server bot choosing at seq `n` uses
  `bot_rng_for(secret, n)`. Each is `random.Random` seeded with the big-endian integer of
  `SHA-256(UTF-8 of "<secret>:<n>")` (bots: `"<secret>:bot:<n>"`), so a replay with the revealed
  secret reproduces every roll.
- The commitment published at creation is the SHA-256 hex digest of the canonical JSON of
  `{"deal": <deal event JSON>, "secret": <secret>}`: keys sorted, no whitespace (`","` and `":"`
  separators), non-ASCII kept as UTF-8, then encoded as UTF-8 (`canonical_json`).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets

from app.games.codec import JSON


def new_secret() -> str:
    return secrets.token_hex(32)


def canonical_json(value: JSON) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def _seeded(material: str) -> random.Random:
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
            real = _seeded(object.__getattribute__(self, "_material"))
            object.__setattr__(self, "_real", real)
        return getattr(real, name)


def rng_for(secret: str, seq: int) -> random.Random:
    return _Lazy(f"{secret}:{seq}")


def bot_rng_for(secret: str, seq: int) -> random.Random:
    return _seeded(f"{secret}:bot:{seq}")


def commitment(secret: str, deal: JSON) -> str:
    return hashlib.sha256(canonical_json({"deal": deal, "secret": secret})).hexdigest()
