"""What a Mount Drago player may send (orders): play a card, settle a rider, discard, end the turn.

RULES §1.5: `play` → maybe `choose_rider` (keep | switch) → `discard` zero or more times →
`end_turn`. Each action is a frozen dataclass tagged by `TYPE`; `app.games.codec` decodes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from app.games.mount_drago.cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from your hand and move its dragon forward by its value."""

    TYPE: ClassVar[str] = "play"
    card: Card


@dataclass(frozen=True, slots=True)
class ChooseRider:
    """After moving an unridden dragon that was in last place: keep your dragon or switch to it."""

    TYPE: ClassVar[str] = "choose_rider"
    choice: Literal["keep", "switch"]


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard hand cards whose dragon stands on a summit space (a multiset, at least one card)."""

    TYPE: ClassVar[str] = "discard"
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn after the optional discards."""

    TYPE: ClassVar[str] = "end_turn"


Action = Play | ChooseRider | Discard | EndTurn

ACTION_TYPES: Final[Mapping[str, type[Action]]] = {
    cls.TYPE: cls for cls in (Play, ChooseRider, Discard, EndTurn)
}
