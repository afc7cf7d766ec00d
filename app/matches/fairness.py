"""Chance and fairness: every die of a match is rolled from its secret, and the deal is committed.

Two versions, named by the match's `settings.fairness` (docs/fairness.md):

- `drago-fair-2` (every match created since): the secret is the server seed (32 random bytes as
  hex), committed at creation as `fair2.commitment`; each seat adds a seed when it joins; the deal is
  made when the last seat is taken, from the stream of `"deal"`, and a decision taken when the match
  is at seq `n` rolls from the stream of `"seq:n"` (`app.games.fair2`).
- `drago-fair-1` (matches created before, and development matches with a `seed` or a `setup`): the
  deal (the first event, seq 1) is made with `rng_for(secret, 0)` at creation; a decision at seq `n`
  uses `rng_for(secret, n)`. The commitment is the SHA-256 hex digest of the canonical JSON of
  `{"deal": <deal event JSON>, "secret": <secret>}`: keys sorted, no whitespace (`","` and `":"`
  separators), non-ASCII kept as UTF-8, then encoded as UTF-8 (`canonical_json`).

A server bot choosing at seq `n` uses `bot_rng_for(secret, n)` in both: its choices are a player's,
not dice.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Final

from app.games import fair2
from app.games.chance import bot_rng_for, rng_for
from app.games.codec import JSON
from app.games.core import Tagged
from app.matches.events import MatchStarted, SeatJoined
from app.matches.fold import Match

__all__ = [
    "V1",
    "V2",
    "bot_rng_for",
    "canonical_json",
    "commitment",
    "commitment_v2",
    "dice_for",
    "new_seat_seed",
    "new_secret",
    "rng_for",
    "seat_seeds",
    "with_deal",
]

V1: Final = "drago-fair-1"
V2: Final = fair2.ALGORITHM


def new_secret() -> str:
    return secrets.token_hex(fair2.SERVER_SEED_BYTES)


def new_seat_seed() -> str:
    """The seed of a seat that sent none (and of every server bot): 32 hex digits."""
    return secrets.token_hex(16)


def canonical_json(value: JSON) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def commitment(secret: str, deal: JSON) -> str:
    """drago-fair-1's commitment to the deal and the secret."""
    return hashlib.sha256(canonical_json({"deal": deal, "secret": secret})).hexdigest()


def commitment_v2(secret: str) -> str:
    """drago-fair-2's commitment to the server seed (`secret` as hex)."""
    return fair2.commitment(bytes.fromhex(secret))


def seat_seeds(m: Match, events: Sequence[object] = ()) -> list[str]:
    """The seats' seeds in seat order, after `events` (a commit not folded yet)."""
    seeds = [s.seed or "" for s in m.seats]
    for e in events:
        if isinstance(e, SeatJoined) and e.seed is not None:
            seeds[e.seat] = e.seed
    return seeds


def dice_for(m: Match, secret: str, seq: int) -> random.Random:
    """The dice of a decision taken when `m` is at `seq`, in the match's version."""
    if m.settings.fairness == V2:
        return fair2.Deferred(lambda: fair2.stream(bytes.fromhex(secret), m.match_id, seat_seeds(m), seq))
    return rng_for(secret, seq)


def with_deal(m: Match, events: Sequence[Tagged], options: Mapping[str, JSON], secret: str) -> list[Tagged]:
    """drago-fair-2: when `events` start the match, its deal goes in before `match_started` (after
    every `seat_joined`), rolled from every seat's seed; otherwise `events` unchanged."""
    if m.settings.fairness != V2 or m.state is not None:
        return list(events)
    start = next((i for i, e in enumerate(events) if isinstance(e, MatchStarted)), None)
    if start is None:
        return list(events)
    dice = fair2.stream(bytes.fromhex(secret), m.match_id, seat_seeds(m, events), None)
    deal = m.game.start(m.players, dict(options), dice, None)
    return [*events[:start], deal, *events[start:]]
