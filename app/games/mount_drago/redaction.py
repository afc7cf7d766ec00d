"""Events as one viewer may see them: `redact(event, seat)` and the redacted event classes.

A viewer gets the event itself when it may see all of it, else a redacted variant with the same
`TYPE`: the deal without the other hands and the draw pile (`GameStartedRedacted`, one per
viewer), another seat's draw as a count (`CardsDrawnRedacted`), and every reshuffle as the new
pile's size (`DrawPileReshuffledRedacted`: nobody learns the order). `SeenEvent` is the union of
every form a viewer may receive; it is what the published event schema describes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Final

from app.games.codec import PER_SEAT, Doc
from app.games.mount_drago.cards import Card
from app.games.mount_drago.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DrawPileReshuffled,
    Event,
    GameEnded,
    GameStarted,
    RiderSettled,
    Scored,
    Seat,
    TurnEnded,
    TurnPassed,
)
from app.games.mount_drago.options import Options
from app.games.mount_drago.track import Space


@dataclass(frozen=True, slots=True)
class GameStartedRedacted:
    """The deal as one viewer sees it: its own hand only (other hands are null), hand sizes, and
    the draw pile's size instead of its order."""

    TYPE: ClassVar[str] = GameStarted.TYPE
    players: Annotated[int, Doc(minimum=2, maximum=5)]
    options: Options
    track: tuple[Space, ...]
    riders: Annotated[
        tuple[Card, ...], Doc("Each seat's face-up rider card; its dragon is the one it rides.")
    ]
    hands: Annotated[tuple[tuple[Card, ...] | None, ...], Doc("Per seat: the viewer's own hand, else null.")]
    first_player: Seat
    hand_sizes: Annotated[tuple[int, ...], PER_SEAT]
    draw_pile_size: Annotated[int, Doc(minimum=0)]


@dataclass(frozen=True, slots=True)
class CardsDrawnRedacted:
    """Another seat drew cards: how many, not which."""

    TYPE: ClassVar[str] = CardsDrawn.TYPE
    seat: Seat
    count: Annotated[int, Doc(minimum=1)]


@dataclass(frozen=True, slots=True)
class DrawPileReshuffledRedacted:
    """The empty draw pile was rebuilt and shuffled: its new size, never its order."""

    TYPE: ClassVar[str] = DrawPileReshuffled.TYPE
    size: Annotated[int, Doc(minimum=0)]
    summit_discards: Annotated[bool, Doc("Whether the summit discard pile joined the new draw pile.")]


SeenEvent = (
    GameStartedRedacted
    | CardPlayed
    | RiderSettled
    | Scored
    | CardsDiscarded
    | CardsDrawn
    | CardsDrawnRedacted
    | DrawPileReshuffledRedacted
    | TurnPassed
    | TurnEnded
    | GameEnded
)
SEEN_EVENT_TYPES: Final = (
    GameStartedRedacted,
    CardPlayed,
    RiderSettled,
    Scored,
    CardsDiscarded,
    CardsDrawn,
    CardsDrawnRedacted,
    DrawPileReshuffledRedacted,
    TurnPassed,
    TurnEnded,
    GameEnded,
)


def redact(event: Event, seat: int | None) -> SeenEvent:
    if isinstance(event, GameStarted):
        return GameStartedRedacted(
            players=event.players,
            options=event.options,
            track=event.track,
            riders=event.riders,
            hands=tuple(hand if i == seat else None for i, hand in enumerate(event.hands)),
            first_player=event.first_player,
            hand_sizes=tuple(len(h) for h in event.hands),
            draw_pile_size=len(event.draw_pile),
        )
    if isinstance(event, CardsDrawn) and event.seat != seat:
        return CardsDrawnRedacted(event.seat, len(event.cards))
    if isinstance(event, DrawPileReshuffled):
        return DrawPileReshuffledRedacted(len(event.draw_pile), event.summit_discards)
    return event
