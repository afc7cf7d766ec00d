"""The facts of a Yutakâ match, in the order they happen, as stored (secret parts included).

`game_started` holds the whole deal; `tile_revealed`, `card_played` and `card_drawn` follow the
decisions; `game_ended` announces the scoring and shows the set-aside tiles. Every chance outcome
is in `game_started` (deck orders, tile layout), so folding events never rolls dice. `redact` in
`views` decides what each viewer may see of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.games.yutaka.components import Card, Tile
from app.games.yutaka.options import Options
from app.games.yutaka.scoring import IslandScore


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The deal: `decks[seat]` top first (the first 6 cards are the opening hand),
    `islands[i][slot]` the tile in each slot, the 5 tiles set aside, and who plays first."""

    TYPE: ClassVar[str] = "game_started"
    options: Options
    first_player: int
    decks: tuple[tuple[Card, ...], ...]
    islands: tuple[tuple[Tile, ...], ...]
    set_aside: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TileRevealed:
    """`seat` turned the tile in (`island`, `slot`) face up; the tile is public from now on."""

    TYPE: ClassVar[str] = "tile_revealed"
    seat: int
    island: int
    slot: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """`seat` played `card` onto `island`, on the side of seat `side` (the opponent's for dynamite)."""

    TYPE: ClassVar[str] = "card_played"
    seat: int
    card: Card
    island: int
    side: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """`seat` drew the top card of their deck; this closes their turn."""

    TYPE: ClassVar[str] = "card_drawn"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The last face-down island tile was revealed: the awards per island, the totals, the winners
    (`decided_by`: "total", a tie-break or "shared") and the set-aside tiles, now public."""

    TYPE: ClassVar[str] = "game_ended"
    islands: tuple[IslandScore, ...]
    totals: tuple[int, ...]
    equipment_tiles: tuple[int, ...]
    equipment_value: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: str
    set_aside: tuple[Tile, ...]


Event = GameStarted | TileRevealed | CardPlayed | CardDrawn | GameEnded
EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls for cls in (GameStarted, TileRevealed, CardPlayed, CardDrawn, GameEnded)
}
