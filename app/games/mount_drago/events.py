"""What happened in a Mount Drago match (facts, past tense), including every chance outcome.

`GameStarted` holds the whole deal (secret hands and the draw-pile order included); draws and
reshuffles carry the cards and the new order, so `evolve` never rolls dice. `views.redact`
decides what of each event a given viewer may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from app.games.mount_drago.cards import Card, Dragon
from app.games.mount_drago.options import Options
from app.games.mount_drago.track import Space

EndReason = Literal["third_dragon_on_summit", "no_player_can_play"]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The deal: resolved track, face-up rider cards, hands, draw pile (top first), first seat."""

    TYPE: ClassVar[str] = "game_started"
    players: int
    options: Options
    track: tuple[Space, ...]
    riders: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    first_player: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """`seat` played `card`; its dragon moved from space `from_space` to `to_space`."""

    TYPE: ClassVar[str] = "card_played"
    seat: int
    card: Card
    from_space: int
    to_space: int


@dataclass(frozen=True, slots=True)
class RiderSettled:
    """Where the played card went and which dragon `seat` rides now.

    `reason`: the moved dragon was an opponent's, the player's own, unridden, or unridden and in
    last place (then the player chose). `result`: `under` the player's pile (dragon kept),
    `on_top` (own dragon), or `switched` (card on top, the player now rides `rider`).
    """

    TYPE: ClassVar[str] = "rider_settled"
    seat: int
    card: Card
    reason: Literal["opponent", "own", "unridden", "last_place"]
    result: Literal["under", "on_top", "switched"]
    rider: Dragon


@dataclass(frozen=True, slots=True)
class Scored:
    """A scoring took place; `changes[seat]` is what was actually added to each total."""

    TYPE: ClassVar[str] = "scored"
    kind: Literal["blue", "green", "summit"]
    changes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardsDiscarded:
    TYPE: ClassVar[str] = "cards_discarded"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """`seat` drew `cards` from the top of the draw pile."""

    TYPE: ClassVar[str] = "cards_drawn"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DrawPileReshuffled:
    """The empty draw pile was rebuilt from the summit discards and the rider piles (tops stay)."""

    TYPE: ClassVar[str] = "draw_pile_reshuffled"
    draw_pile: tuple[Card, ...]  # top first
    summit_discards: bool  # whether the summit discard pile joined (RULES §1.4.5 Decision)


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """`seat` had no card and could draw none, so its turn passed to `next_seat`."""

    TYPE: ClassVar[str] = "turn_passed"
    seat: int
    next_seat: int


@dataclass(frozen=True, slots=True)
class TurnEnded:
    TYPE: ClassVar[str] = "turn_ended"
    seat: int
    next_seat: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    TYPE: ClassVar[str] = "game_ended"
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: EndReason


Event = (
    GameStarted
    | CardPlayed
    | RiderSettled
    | Scored
    | CardsDiscarded
    | CardsDrawn
    | DrawPileReshuffled
    | TurnPassed
    | TurnEnded
    | GameEnded
)

EVENT_TYPES: Final[Mapping[str, type[Event]]] = {
    cls.TYPE: cls
    for cls in (
        GameStarted,
        CardPlayed,
        RiderSettled,
        Scored,
        CardsDiscarded,
        CardsDrawn,
        DrawPileReshuffled,
        TurnPassed,
        TurnEnded,
        GameEnded,
    )
}
