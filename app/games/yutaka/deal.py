"""The deal of a Yutakâ match (RULES §2.3): shuffle each deck separately and the 25 tiles, lay 4 per
island and set 5 aside; or take an explicit development `setup` instead, validated like user input.

A setup is `{"decks": [[24 cards, top first] per seat], "islands": [[4 tiles] per island],
"set_aside": [5 tiles], "first_player": 0|1}`; every member is optional and what is missing is
dealt with the match's RNG (given only `islands`, the 5 remaining tiles are set aside, and the
reverse). Errors are `InvalidOptions` whose path names the member, such as `setup.islands[2][1]`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from app.games.codec import JSON
from app.games.core import InvalidOptions
from app.games.yutaka.components import (
    DECK,
    DECK_SIZE,
    ISLANDS,
    PLAYERS,
    SET_ASIDE,
    SLOTS_PER_ISLAND,
    TILE_TYPES,
    TILE_VALUE_MAX,
    TILE_VALUE_MIN,
    Card,
    CardKind,
    Tile,
    TileType,
)
from app.games.yutaka.events import GameStarted
from app.games.yutaka.options import Options

SETUP_KEYS = ("decks", "islands", "set_aside", "first_player")
_FULL_DECK = Counter(DECK)


def deal(options: Options, rng: random.Random, setup: Mapping[str, Any] | None = None) -> GameStarted:
    """Return the `game_started` event of a new match."""
    if setup is None:
        setup = {}
    if not isinstance(setup, Mapping):
        raise InvalidOptions("setup must be a JSON object", "setup")
    for key in setup:
        if key not in SETUP_KEYS:
            raise InvalidOptions(
                f"unknown setup member {key!r}; known: {', '.join(SETUP_KEYS)}", f"setup.{key}"
            )
    decks = _decks(setup.get("decks"), rng)
    islands, set_aside = _tiles(options, setup.get("islands"), setup.get("set_aside"), rng)
    first = setup.get("first_player", options.first_player)
    if isinstance(first, bool) or first not in range(PLAYERS):
        raise InvalidOptions("first_player must be 0 or 1", "setup.first_player")
    return GameStarted(options, first, decks, islands, set_aside)


def _array(raw: Any, length: int, path: str, what: str) -> list[Any]:
    if not isinstance(raw, (list, tuple)) or len(raw) != length:
        raise InvalidOptions(f"{path.removeprefix('setup.')} must be a list of exactly {length} {what}", path)
    return list(raw)


def _object(raw: Any, keys: tuple[str, str], path: str, what: str) -> tuple[Any, int]:
    if not isinstance(raw, Mapping) or set(raw) != set(keys):
        raise InvalidOptions(
            f"a {what} is an object with exactly the members {keys[0]!r} and {keys[1]!r}", path
        )
    value = raw[keys[1]]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptions(f"a {what}'s value is an integer", path)
    return raw[keys[0]], value


def _card(raw: Any, path: str) -> Card:
    kind, value = _object(raw, ("kind", "value"), path, "card")
    try:
        card = Card(CardKind(kind), value)
    except ValueError:
        raise InvalidOptions(f"unknown card kind {kind!r}", path) from None
    if card not in _FULL_DECK:
        raise InvalidOptions(f"there is no card {card.kind.value} {value} in a Yutakâ deck", path)
    return card


def _tile(raw: Any, path: str) -> Tile:
    kind, value = _object(raw, ("type", "value"), path, "tile")
    try:
        tile_type = TileType(kind)
    except ValueError:
        names = ", ".join(t.value for t in TILE_TYPES)
        raise InvalidOptions(f"unknown tile type {kind!r}; expected one of: {names}", path) from None
    if not TILE_VALUE_MIN <= value <= TILE_VALUE_MAX:
        raise InvalidOptions(f"tile values lie in {TILE_VALUE_MIN}–{TILE_VALUE_MAX}", path)
    return Tile(tile_type, value)


def _take(pool: Counter[Any], full: Counter[Any], item: Any, path: str, what: str) -> None:
    """Use one `item` from `pool` (what is left of `full`), or explain why it is not there."""
    if pool[item] <= 0:
        if not full[item]:
            raise InvalidOptions(f"{what} has no {item}", path)
        raise InvalidOptions(f"{item} appears more often than in {what} ({full[item]}×)", path)
    pool[item] -= 1


def _decks(raw: Any, rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    if raw is None:
        decks = []
        for _ in range(PLAYERS):
            deck = list(DECK)
            rng.shuffle(deck)
            decks.append(tuple(deck))
        return tuple(decks)
    out = []
    for seat, deck_raw in enumerate(_array(raw, PLAYERS, "setup.decks", "decks")):
        path = f"setup.decks[{seat}]"
        pool = Counter(_FULL_DECK)
        deck = []
        for j, card_raw in enumerate(_array(deck_raw, DECK_SIZE, path, "cards")):
            card = _card(card_raw, f"{path}[{j}]")
            _take(pool, _FULL_DECK, card, f"{path}[{j}]", "the 24-card deck")
            deck.append(card)
        out.append(tuple(deck))
    return tuple(out)


def _tiles(
    options: Options, raw_islands: Any, raw_set_aside: Any, rng: random.Random
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    full = Counter(options.tiles())
    pool = full.copy()
    what = "the match's tile set"
    islands: list[tuple[Tile, ...]] | None = None
    set_aside: list[Tile] | None = None
    if raw_islands is not None:
        islands = []
        for i, row in enumerate(_array(raw_islands, ISLANDS, "setup.islands", "islands")):
            path = f"setup.islands[{i}]"
            tiles = []
            for s, tile_raw in enumerate(_array(row, SLOTS_PER_ISLAND, path, "tiles")):
                tile = _tile(tile_raw, f"{path}[{s}]")
                _take(pool, full, tile, f"{path}[{s}]", what)
                tiles.append(tile)
            islands.append(tuple(tiles))
    if raw_set_aside is not None:
        set_aside = []
        for j, tile_raw in enumerate(_array(raw_set_aside, SET_ASIDE, "setup.set_aside", "tiles")):
            tile = _tile(tile_raw, f"setup.set_aside[{j}]")
            _take(pool, full, tile, f"setup.set_aside[{j}]", what)
            set_aside.append(tile)
    rest = list(pool.elements())
    rng.shuffle(rest)  # what the setup left open is dealt at random
    if islands is None:
        islands = [tuple(rest[i * SLOTS_PER_ISLAND : (i + 1) * SLOTS_PER_ISLAND]) for i in range(ISLANDS)]
        rest = rest[ISLANDS * SLOTS_PER_ISLAND :]
    if set_aside is None:
        set_aside = rest
    return tuple(islands), tuple(set_aside)


def setup_schema() -> JSON:
    card = {
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "value"],
        "properties": {"kind": {"enum": [k.value for k in CardKind]}, "value": {"type": "integer"}},
    }
    tile = {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", "value"],
        "properties": {
            "type": {"enum": [t.value for t in TILE_TYPES]},
            "value": {"type": "integer", "minimum": TILE_VALUE_MIN, "maximum": TILE_VALUE_MAX},
        },
    }

    def array(items: JSON, n: int) -> JSON:
        return {"type": "array", "items": items, "minItems": n, "maxItems": n}

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Yutakâ explicit setup (development)",
        "description": "Fixes the deal; members left out are dealt at random. Decks must each be "
        "exactly the 24-card deck; islands and set-aside tiles together exactly the match's tile set.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "decks": {**array(array(card, DECK_SIZE), PLAYERS), "description": "per seat, top first"},
            "islands": {
                **array(array(tile, SLOTS_PER_ISLAND), ISLANDS),
                "description": "per island, slot 0 first",
            },
            "set_aside": array(tile, SET_ASIDE),
            "first_player": {"enum": list(range(PLAYERS))},
        },
    }
