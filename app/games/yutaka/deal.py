"""The deal of a Yutakâ match (docs/rules.md §2.3): shuffle each deck separately and the 25 tiles, lay 4 per
island and set 5 aside; or take an explicit development `setup` instead, validated like user input.

A setup is `{"decks": [[24 cards, top first] per seat], "islands": [[4 tiles] per island],
"set_aside": [5 tiles], "first_player": 0|1}` (the `Setup` dataclass, decoded by the codec and
published as the setup schema); every member is optional and what is missing is dealt with the
match's RNG (given only `islands`, the 5 remaining tiles are set aside, and the reverse). Errors
are `InvalidOptions` whose path names the member, such as `setup.islands[2][1]`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Annotated, TypeVar

from app.games.codec import JSON, DecodeError, Doc, from_json
from app.games.core import InvalidOptions
from app.games.yutaka.components import (
    CANONICAL,
    DECK,
    DECK_SIZE,
    ISLANDS,
    PLAYERS,
    SET_ASIDE,
    SLOTS_PER_ISLAND,
    Card,
    Tile,
)
from app.games.yutaka.events import GameStarted
from app.games.yutaka.options import Options

_FULL_DECK = Counter(DECK)
PerSeat = Doc(minItems=PLAYERS, maxItems=PLAYERS)


@dataclass(frozen=True, slots=True)
class Setup:
    """Fixes the deal; members left out (or null) are dealt at random. Each deck must be exactly the
    24-card deck; islands and set-aside tiles together exactly the match's tile set (see the option
    tile_values); given only islands, the remaining five tiles are set aside, and the reverse."""

    decks: Annotated[
        tuple[Annotated[tuple[Card, ...], Doc(minItems=DECK_SIZE, maxItems=DECK_SIZE)], ...] | None,
        PerSeat,
        Doc("Per seat, its deck top first (the first six cards are the opening hand)."),
    ] = None
    islands: Annotated[
        tuple[Annotated[tuple[Tile, ...], Doc(minItems=SLOTS_PER_ISLAND, maxItems=SLOTS_PER_ISLAND)], ...]
        | None,
        Doc("Per island, its tiles from slot 0.", minItems=ISLANDS, maxItems=ISLANDS),
    ] = None
    set_aside: Annotated[tuple[Tile, ...] | None, Doc(minItems=SET_ASIDE, maxItems=SET_ASIDE)] = None
    first_player: Annotated[
        Annotated[int, Doc(minimum=0, maximum=PLAYERS - 1)] | None,
        Doc("Seat of player 1; null or absent: from the options."),
    ] = None


def deal(options: Options, rng: random.Random, setup: Mapping[str, JSON] | None = None) -> GameStarted:
    """Return the `game_started` event of a new match."""
    try:
        fixed = Setup() if setup is None else from_json(Setup, setup, "setup")
    except DecodeError as e:
        raise InvalidOptions(str(e), e.path) from None
    decks = _decks(fixed.decks, rng)
    islands, set_aside = _tiles(options, fixed.islands, fixed.set_aside, rng)
    first = fixed.first_player
    if first is None:
        # "random" is drawn last, so that the deal of a match with a fixed first player is unchanged
        first = rng.randrange(PLAYERS) if options.first_player == "random" else options.first_player
    assert isinstance(first, int)
    return GameStarted(options, first, decks, islands, set_aside)


H = TypeVar("H", bound=Hashable)


def _take(pool: Counter[H], full: Counter[H], item: H, path: str, what: str) -> None:
    """Use one `item` from `pool` (what is left of `full`), or explain why it is not there."""
    if pool[item] <= 0:
        if not full[item]:
            raise InvalidOptions(f"{path}: {what} has no {item}", path)
        raise InvalidOptions(f"{path}: {item} appears more often than in {what} ({full[item]}×)", path)
    pool[item] -= 1


def _decks(fixed: tuple[tuple[Card, ...], ...] | None, rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    if fixed is None:
        decks = []
        for _ in range(PLAYERS):
            deck = list(DECK)
            rng.shuffle(deck)
            decks.append(tuple(deck))
        return tuple(decks)
    for seat, cards in enumerate(fixed):
        pool = Counter(_FULL_DECK)
        for j, card in enumerate(cards):
            _take(pool, _FULL_DECK, card, f"setup.decks[{seat}][{j}]", "the 24-card deck")
    return tuple(tuple(CANONICAL[card] for card in cards) for cards in fixed)


def _tiles(
    options: Options,
    fixed_islands: tuple[tuple[Tile, ...], ...] | None,
    fixed_aside: tuple[Tile, ...] | None,
    rng: random.Random,
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    if fixed_islands is None and fixed_aside is None:
        rest = list(options.tiles())  # what `pool.elements()` below gives with nothing taken
    else:
        full = Counter(options.tiles())
        pool = full.copy()
        what = "the match's tile set"
        for i, row in enumerate(fixed_islands or ()):
            for slot, tile in enumerate(row):
                _take(pool, full, tile, f"setup.islands[{i}][{slot}]", what)
        for j, tile in enumerate(fixed_aside or ()):
            _take(pool, full, tile, f"setup.set_aside[{j}]", what)
        rest = list(pool.elements())
    rng.shuffle(rest)  # what the setup left open is dealt at random
    islands = fixed_islands
    if islands is None:
        islands = tuple(
            tuple(rest[i * SLOTS_PER_ISLAND : (i + 1) * SLOTS_PER_ISLAND]) for i in range(ISLANDS)
        )
        rest = rest[ISLANDS * SLOTS_PER_ISLAND :]
    return islands, tuple(rest) if fixed_aside is None else fixed_aside
