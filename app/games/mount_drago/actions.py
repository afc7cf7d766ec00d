"""What a Mount Drago player may send (orders): play a card, settle a rider, discard, end the turn.

docs/rules.md §1.5: `play` → maybe `choose_rider` (keep | switch) → `discard` zero or more times →
`end_turn`. Each action is a frozen dataclass tagged by `TYPE`; `app.games.codec` decodes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, ClassVar, Final, Literal

from app.games.codec import Doc
from app.games.mount_drago.cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from your hand and move its dragon forward by its value (phase `play`)."""

    TYPE: ClassVar[str] = "play"
    card: Annotated[Card, Doc("A card of your hand.")]


@dataclass(frozen=True, slots=True)
class ChooseRider:
    """You moved an unridden dragon that was in last place (phase `choose_rider`): `keep` your
    dragon (the card goes under your rider pile) or `switch` to the moved one (card on top)."""

    TYPE: ClassVar[str] = "choose_rider"
    choice: Literal["keep", "switch"]


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard hand cards whose dragon stands on a summit space (phase `discard`, optional).

    `legal_actions` lists one single-card discard per distinct discardable card, but several cards
    at once are accepted too: `cards` is a multiset of at least one card, all held and all of
    dragons on the summit (e.g. two yellow 3s). Discarding does not end the turn."""

    TYPE: ClassVar[str] = "discard"
    cards: Annotated[
        tuple[Card, ...], Doc("One or more cards of your hand; repeat a card to discard copies.")
    ]


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your turn (phase `discard`); the draw, if any, follows."""

    TYPE: ClassVar[str] = "end_turn"


Action = Play | ChooseRider | Discard | EndTurn

ACTION_TYPES: Final[Mapping[str, type[Action]]] = {
    cls.TYPE: cls for cls in (Play, ChooseRider, Discard, EndTurn)
}
