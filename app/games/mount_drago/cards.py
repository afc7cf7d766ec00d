"""Dragons and cards of Mount Drago: the canonical dragon order, the 110-card deck, card codes.

A card is named on the wire by `Card(dragon, value)`. Inside the engine a card is a small integer
code (`dragon index * 5 + value - 1`, so 0…49) because hands, piles and the deck are compared,
counted and sliced on every move; `CARDS[code]` turns a code back into the one shared `Card`.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Final

from app.games.codec import Doc, encode_once


class Dragon(enum.StrEnum):
    """A dragon, by name; the ten are listed in canonical order (ids and tie-free sorting)."""

    BLUE = "blue"
    BROWN = "brown"
    BLACK = "black"
    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    GRAY = "gray"
    LIGHT_BLUE = "light_blue"
    PURPLE = "purple"
    ORANGE = "orange"


DRAGONS: Final = tuple(Dragon)
DRAGON_INDEX: Final = {d: i for i, d in enumerate(DRAGONS)}
CARD_VALUES: Final = (1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5)  # per dragon
MIN_VALUE: Final = 1
MAX_VALUE: Final = 5
HAND_SIZE: Final = 6


CardValue = Annotated[int, Doc("The card's value: how far it moves its dragon.", minimum=1, maximum=5)]


@dataclass(frozen=True, slots=True)
class Card:
    """A Mount Drago card, always written `{"dragon": ..., "value": ...}` (in hands, piles, actions,
    events and setups). Two cards of the same dragon and value are indistinguishable."""

    dragon: Annotated[Dragon, Doc("The dragon the card moves.")]
    value: CardValue

    def __post_init__(self) -> None:
        if not MIN_VALUE <= self.value <= MAX_VALUE:
            raise ValueError(f"a card value is {MIN_VALUE}…{MAX_VALUE}, not {self.value}")

    def __str__(self) -> str:
        return f"{self.dragon.value} {self.value}"


def code_of(card: Card) -> int:
    """The engine's integer code of `card`."""
    return DRAGON_INDEX[card.dragon] * MAX_VALUE + card.value - 1


def dragon_of(code: int) -> int:
    """Index (in `DRAGONS`) of the dragon of the card `code`."""
    return code // MAX_VALUE


CARDS: Final = tuple(Card(d, v) for d in DRAGONS for v in range(MIN_VALUE, MAX_VALUE + 1))
encode_once(Card)  # the engine only ever shows these 50 objects (decoded events hold others)
VALUE_OF: Final = tuple(v for _ in DRAGONS for v in range(MIN_VALUE, MAX_VALUE + 1))
DECK: Final = tuple(sorted(DRAGON_INDEX[d] * MAX_VALUE + v - 1 for d in DRAGONS for v in CARD_VALUES))
DECK_COUNTS: Final = Counter(DECK)


def cards(codes: tuple[int, ...] | list[int]) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in codes)


# The code of each of the engine's own card objects, by identity (hashing a card is slow); a deal
# is made of them, so a new match reads its 110 codes from here.
_CODE_BY_ID: Final = {id(card): code for code, card in enumerate(CARDS)}


def codes(cs: tuple[Card, ...]) -> tuple[int, ...]:
    try:
        return tuple(map(_CODE_BY_ID.__getitem__, map(id, cs)))
    except KeyError:  # a card object not from CARDS (a decoded copy): by value
        return tuple(code_of(c) for c in cs)
