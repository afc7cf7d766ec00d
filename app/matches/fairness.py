"""Chance and fairness: every die of a match is rolled from its secret, and the deal is committed.

- The secret is 32 random bytes as hex (`new_secret`), stored with the match and never shown
  while it runs.
- The deal (the first event, seq 1) is made with `rng_for(secret, 0)`; a decision taken when the
  match is at seq `n` uses `rng_for(secret, n)`; a server bot choosing at seq `n` uses
  `bot_rng_for(secret, n)`. The derivation lives with the rules (`app.games.chance`), so that
  the training environments roll the same dice without the match layer.
- The commitment published at creation is the SHA-256 hex digest of the canonical JSON of
  `{"deal": <deal event JSON>, "secret": <secret>}`: keys sorted, no whitespace (`","` and `":"`
  separators), non-ASCII kept as UTF-8, then encoded as UTF-8 (`canonical_json`).
"""

from __future__ import annotations

import hashlib
import json
import secrets

from app.games.chance import bot_rng_for, rng_for
from app.games.codec import JSON

__all__ = ["bot_rng_for", "canonical_json", "commitment", "new_secret", "rng_for"]


def new_secret() -> str:
    return secrets.token_hex(32)


def canonical_json(value: JSON) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def commitment(secret: str, deal: JSON) -> str:
    return hashlib.sha256(canonical_json({"deal": deal, "secret": secret})).hexdigest()
