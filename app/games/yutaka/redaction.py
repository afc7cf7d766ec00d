"""Events as one viewer may see them: `redact(event, seat)` and the redacted event classes.

A viewer gets the event itself when it may see all of it (plays, reveals, end-of-turn
confirmations and the end are public facts), else a redacted variant with the same `TYPE`: the
deal without the decks and with face-down tiles as the mode shows them (`GameStartedRedacted`, one
per viewer), and the opponent's draw without the card (`CardDrawnRedacted`). `SeenEvent` is the
union of every form a viewer may receive; it is what the published event schema describes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Final

from app.games.codec import PER_SEAT, Doc
from app.games.yutaka.components import HAND_SIZE, Card
from app.games.yutaka.events import (
    CardDrawn,
    CardPlayed,
    Event,
    GameEnded,
    GameStarted,
    Seat,
    TileRevealed,
    TurnConfirmed,
)
from app.games.yutaka.options import Options
from app.games.yutaka.views import TileView, island_tiles, viewer


@dataclass(frozen=True, slots=True)
class GameStartedRedacted:
    """The deal as one viewer sees it: its own opening hand (null for a spectator), hand and deck
    sizes, every island's face-down tiles as the mode shows them, how many tiles are set aside."""

    TYPE: ClassVar[str] = GameStarted.TYPE
    options: Options
    first_player: Seat
    hand: tuple[Card, ...] | None
    hand_sizes: Annotated[tuple[int, ...], PER_SEAT]
    deck_sizes: Annotated[tuple[int, ...], PER_SEAT]
    islands: Annotated[tuple[tuple[TileView, ...], ...], Doc("Per island, its slots from slot 0.")]
    set_aside_count: int


@dataclass(frozen=True, slots=True)
class CardDrawnRedacted:
    """The opponent drew a card (which one is secret); this closes its turn."""

    TYPE: ClassVar[str] = CardDrawn.TYPE
    seat: Seat


SeenEvent = (
    GameStartedRedacted
    | TileRevealed
    | CardPlayed
    | TurnConfirmed
    | CardDrawn
    | CardDrawnRedacted
    | GameEnded
)
SEEN_EVENT_TYPES: Final = (
    GameStartedRedacted,
    TileRevealed,
    CardPlayed,
    TurnConfirmed,
    CardDrawn,
    CardDrawnRedacted,
    GameEnded,
)


def redact(event: Event, seat: int | None) -> SeenEvent:
    me = viewer(seat)
    if isinstance(event, GameStarted):
        known = event.options.known_types or ()
        return GameStartedRedacted(
            options=event.options,
            first_player=event.first_player,
            hand=None if me is None else event.decks[me][:HAND_SIZE],
            hand_sizes=tuple(min(HAND_SIZE, len(d)) for d in event.decks),
            deck_sizes=tuple(max(0, len(d) - HAND_SIZE) for d in event.decks),
            islands=tuple(island_tiles(row, (False,) * len(row), known) for row in event.islands),
            set_aside_count=len(event.set_aside),
        )
    if isinstance(event, CardDrawn) and event.seat != me:
        return CardDrawnRedacted(event.seat)
    return event
