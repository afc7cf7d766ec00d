"""What happened in a Mount Drago match (facts, past tense), including every chance outcome.

`GameStarted` holds the whole deal (secret hands and the draw-pile order included); draws and
reshuffles carry the cards and the new order, so `evolve` never rolls dice. `redaction` decides
what of each event a given viewer may see.

Each event declares `BARRIER`: whether it may never be taken back by an undo, because it reveals
information to someone (the deal, a draw, a reshuffle), consumed randomness (the deal, a
reshuffle), hands the decision to another seat (a turn end or pass) or ends the game. The play,
the rider, a scoring and summit discards follow from public facts and the player's own choices,
so they are not barriers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, ClassVar, Final, Literal

from app.games.codec import PER_SEAT, Doc, by_tag
from app.games.mount_drago.cards import Card, Dragon
from app.games.mount_drago.options import Options
from app.games.mount_drago.track import Space

EndReason = Literal["third_dragon_on_summit", "no_player_can_play"]
Seat = Annotated[int, Doc(minimum=0)]
SpaceIndex = Annotated[int, Doc("An index into the match's track (0 is the start).", minimum=0)]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The deal: resolved track, face-up rider cards, hands, draw pile (top first), first seat.

    Stored and revealed after the match; viewers receive its redacted form."""

    TYPE: ClassVar[str] = "game_started"
    BARRIER: ClassVar[bool] = True
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
    BARRIER: ClassVar[bool] = False
    seat: Seat
    card: Card
    from_space: SpaceIndex
    to_space: Annotated[SpaceIndex, Doc("Where the dragon stopped (movement past the last space is lost).")]


@dataclass(frozen=True, slots=True)
class RiderSettled:
    """Where the played card went and which dragon `seat` rides now.

    `reason`: the moved dragon was an opponent's, the player's own, unridden, or unridden and in
    last place (then the player chose). `result`: `under` the player's pile (dragon kept),
    `on_top` (own dragon), or `switched` (card on top, the player now rides `rider`).
    """

    TYPE: ClassVar[str] = "rider_settled"
    BARRIER: ClassVar[bool] = False
    seat: Seat
    card: Card
    reason: Literal["opponent", "own", "unridden", "last_place"]
    result: Literal["under", "on_top", "switched"]
    rider: Annotated[Dragon, Doc("The dragon `seat` rides after this.")]


@dataclass(frozen=True, slots=True)
class Scored:
    """A scoring took place (the landing space's kind); `changes[seat]` is what was actually added
    to each total. It may be all zeros (see the option zero_scoring_counts)."""

    TYPE: ClassVar[str] = "scored"
    BARRIER: ClassVar[bool] = False
    kind: Literal["blue", "green", "summit"]
    changes: Annotated[tuple[int, ...], PER_SEAT]


@dataclass(frozen=True, slots=True)
class CardsDiscarded:
    """`seat` discarded `cards` (of dragons on the summit) onto the summit discard pile."""

    TYPE: ClassVar[str] = "cards_discarded"
    BARRIER: ClassVar[bool] = False
    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """`seat` drew `cards` from the top of the draw pile (other viewers see only how many)."""

    TYPE: ClassVar[str] = "cards_drawn"
    BARRIER: ClassVar[bool] = True
    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DrawPileReshuffled:
    """The empty draw pile was rebuilt from the summit discards and the rider piles (tops stay).
    Viewers see only the new pile's size."""

    TYPE: ClassVar[str] = "draw_pile_reshuffled"
    BARRIER: ClassVar[bool] = True
    draw_pile: tuple[Card, ...]  # top first
    summit_discards: bool  # whether the summit discard pile joined (docs/rules.md §1.4.5 Decision)


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """`seat` had no card and could draw none, so its turn passed to `next_seat`."""

    TYPE: ClassVar[str] = "turn_passed"
    BARRIER: ClassVar[bool] = True
    seat: Seat
    next_seat: Seat


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """`seat`'s turn is over; `next_seat` is on turn."""

    TYPE: ClassVar[str] = "turn_ended"
    BARRIER: ClassVar[bool] = True
    seat: Seat
    next_seat: Seat


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over: final totals per seat, the winning seats (several share a win) and why."""

    TYPE: ClassVar[str] = "game_ended"
    BARRIER: ClassVar[bool] = True
    scores: Annotated[tuple[int, ...], PER_SEAT]
    winners: tuple[Seat, ...]
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

EVENT_TYPES: Final[Mapping[str, type[Event]]] = by_tag(Event)
