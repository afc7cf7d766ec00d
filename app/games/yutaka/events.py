"""The facts of a Yutakâ match, in the order they happen, as stored (secret parts included).

`game_started` holds the whole deal; `tile_revealed`, `card_played`, `turn_confirmed` (only with
the option explicit_end_turn) and `card_drawn` follow the decisions; `game_ended` announces the
scoring and shows the set-aside tiles. Every chance outcome is in `game_started` (deck orders, tile
layout), so folding events never rolls dice. `redaction` decides what each viewer may see of them.

Each event declares `BARRIER`: whether it may never be undone, because it reveals information (the
deal, a tile, a draw, the end) or hands the decision to another seat (`turn_confirmed`). A
`card_played` is a barrier only when it ends the player's decision by itself, which depends on the
match (see `rules.is_barrier`), so it declares None.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, ClassVar, Final

from app.games.codec import PER_SEAT, Doc, by_tag
from app.games.yutaka.components import ISLANDS, PLAYERS, SLOTS_PER_ISLAND, Card, Tile
from app.games.yutaka.options import Options
from app.games.yutaka.scoring import DECIDED_BY, IslandScore

Seat = Annotated[int, Doc(minimum=0, maximum=PLAYERS - 1)]
Island = Annotated[
    int, Doc("Island index, 0–4 (Île du Pendu … Île du Singe).", minimum=0, maximum=ISLANDS - 1)
]
Slot = Annotated[
    int, Doc("Tile slot on the island, 0–3 (0 is the top).", minimum=0, maximum=SLOTS_PER_ISLAND - 1)
]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The deal: `decks[seat]` top first (the first 6 cards are the opening hand),
    `islands[i][slot]` the tile in each slot, the 5 tiles set aside, and who plays first.
    Stored and revealed after the match; viewers receive its redacted form."""

    TYPE: ClassVar[str] = "game_started"
    BARRIER: ClassVar[bool | None] = True
    options: Options
    first_player: int
    decks: tuple[tuple[Card, ...], ...]
    islands: tuple[tuple[Tile, ...], ...]
    set_aside: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TileRevealed:
    """`seat` turned the tile in (`island`, `slot`) face up; the tile is public from now on."""

    TYPE: ClassVar[str] = "tile_revealed"
    BARRIER: ClassVar[bool | None] = True
    seat: Seat
    island: Island
    slot: Slot
    tile: Tile


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """`seat` played `card` onto `island`, on the side of seat `side` (the opponent's for dynamite)."""

    TYPE: ClassVar[str] = "card_played"
    BARRIER: ClassVar[bool | None] = None  # depends on the card and the match: `rules.is_barrier`
    seat: Seat
    card: Card
    island: Island
    side: Annotated[Seat, Doc("The seat on whose side of the island the card lies.")]


@dataclass(frozen=True, slots=True)
class TurnConfirmed:
    """`seat` ended its turn with `end_turn` (option explicit_end_turn only): its draw follows at
    once, or, after dynamite, the opponent's reveal and then the draw."""

    TYPE: ClassVar[str] = "turn_confirmed"
    BARRIER: ClassVar[bool | None] = True
    seat: Seat


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """`seat` drew the top card of their deck; this closes their turn (the opponent sees no card)."""

    TYPE: ClassVar[str] = "card_drawn"
    BARRIER: ClassVar[bool | None] = True
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The last face-down island tile was revealed: the awards per island, the totals, the winners
    (`decided_by`: "total", the tie-break criterion that decided, or "shared") and the set-aside
    tiles, now public."""

    TYPE: ClassVar[str] = "game_ended"
    BARRIER: ClassVar[bool | None] = True
    islands: tuple[IslandScore, ...]
    totals: Annotated[tuple[int, ...], PER_SEAT]
    equipment_tiles: Annotated[tuple[int, ...], PER_SEAT, Doc("Equipment tiles won per seat.")]
    equipment_value: Annotated[tuple[int, ...], PER_SEAT, Doc("Equipment points won per seat.")]
    winners: tuple[Seat, ...]
    decided_by: Annotated[str, Doc(enum=list(DECIDED_BY))]
    set_aside: tuple[Tile, ...]


Event = GameStarted | TileRevealed | CardPlayed | TurnConfirmed | CardDrawn | GameEnded
EVENT_TYPES: Final[Mapping[str, type[Event]]] = by_tag(Event)
