"""The physical pieces of Yutakâ as data: tile types, cards, the deck, the islands and the limits.

Everything here is fixed by the box (docs/rules.md §2.1) except the tile values, which no source prints and
which are **reconstructed** from the rulebook's worked example; a match may replace them through the
`tile_values` option (see `options`). Cards and tiles are small frozen values that the JSON codec
writes as `{"kind": "dagger", "value": 3}` and `{"type": "crystal", "value": 11}`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated

from app.games.codec import Doc, encode_once

PLAYERS = 2
HAND_SIZE = 6
MAX_CARDS_PER_SIDE = 5  # per player and island, dynamite received included
SLOTS_PER_ISLAND = 4
SET_ASIDE = 5
OPENING_REVEALS = 4  # P1, P2, P1, P2 before the first card

ISLAND_NAMES: tuple[str, ...] = (
    "Île du Pendu",
    "Île aux Diamants",
    "Île du Serpent",
    "Île du Dragon",
    "Île du Singe",
)
ISLANDS = len(ISLAND_NAMES)


class TileType(enum.StrEnum):
    """A treasure tile's type (its colour: idol yellow, dagger green, amphora blue, crystal red,
    equipment gray); the first four are also card kinds, scored by the higher sum of that kind."""

    IDOL = "idol"
    DAGGER = "dagger"
    AMPHORA = "amphora"
    CRYSTAL = "crystal"
    EQUIPMENT = "equipment"


class CardKind(enum.StrEnum):
    """A card's kind: a treasure type (played on your side) or dynamite (played on the opponent's)."""

    IDOL = "idol"
    DAGGER = "dagger"
    AMPHORA = "amphora"
    CRYSTAL = "crystal"
    EQUIPMENT = "equipment"
    DYNAMITE = "dynamite"


TILE_TYPES: tuple[TileType, ...] = tuple(TileType)
TILE_COLOURS: Mapping[TileType, str] = MappingProxyType(
    {
        TileType.IDOL: "yellow",
        TileType.DAGGER: "green",
        TileType.AMPHORA: "blue",
        TileType.CRYSTAL: "red",
        TileType.EQUIPMENT: "gray",
    }
)
TILE_COUNTS: Mapping[TileType, int] = MappingProxyType(
    {TileType.IDOL: 3, TileType.DAGGER: 4, TileType.AMPHORA: 5, TileType.CRYSTAL: 6, TileType.EQUIPMENT: 7}
)
# Reconstructed (docs/rules.md §2.1): each type totals 30 and the worked example comes out exactly.
RECONSTRUCTED_TILE_VALUES: Mapping[TileType, tuple[int, ...]] = MappingProxyType(
    {
        TileType.IDOL: (5, 10, 15),
        TileType.DAGGER: (4, 6, 8, 12),
        TileType.AMPHORA: (2, 4, 6, 8, 10),
        TileType.CRYSTAL: (0, 1, 4, 6, 8, 11),
        TileType.EQUIPMENT: (0, 3, 3, 4, 5, 7, 8),
    }
)
# Decision: the "sane range" a replacement tile value must lie in.
TILE_VALUE_MIN = 0
TILE_VALUE_MAX = 99

CARD_VALUES: tuple[int, ...] = (1, 2, 3, 4)  # one card of each value per typed kind
DYNAMITE_COUNT = 4
DYNAMITE_VALUE = 0


@dataclass(frozen=True, slots=True)
class Card:
    """A Yutakâ card, always written `{"kind": ..., "value": ...}` (hands, columns, actions, events,
    setups). Treasure cards are worth 1–4; the four dynamite cards are `{"kind": "dynamite",
    "value": 0}` and are indistinguishable."""

    kind: CardKind
    value: Annotated[int, Doc("1–4 for a treasure card, 0 for dynamite.", minimum=0, maximum=4)]

    def __str__(self) -> str:
        return "dynamite" if self.kind is CardKind.DYNAMITE else f"{self.kind.value} {self.value}"


@dataclass(frozen=True, slots=True)
class Tile:
    """A treasure tile, always written `{"type": ..., "value": ...}`."""

    type: TileType
    value: Annotated[int, Doc("Points the tile is worth.", minimum=TILE_VALUE_MIN, maximum=TILE_VALUE_MAX)]

    def __str__(self) -> str:
        return f"{self.type.value} {self.value}"


DYNAMITE = Card(CardKind.DYNAMITE, DYNAMITE_VALUE)
# The 24 cards every player owns, in a canonical order (kind by kind, value ascending).
DECK: tuple[Card, ...] = (
    *(Card(CardKind(t.value), v) for t in TILE_TYPES for v in CARD_VALUES),
    *(DYNAMITE,) * DYNAMITE_COUNT,
)
DECK_SIZE = len(DECK)
CANONICAL: Mapping[Card, Card] = MappingProxyType({card: card for card in DECK})
for _cls in (Card, Tile):
    encode_once(_cls)  # cards are the DECK objects (see CANONICAL) and tiles live as long as a match
