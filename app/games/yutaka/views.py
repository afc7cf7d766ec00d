"""What one viewer may see of a Yutakâ match: `YutakaView`, built by `view(state, seat | None)`.

A seat sees its own hand, never the opponent's (only its size) and no deck order (only sizes);
everyone sees every placed card and every face-up tile. A face-down island tile shows its type only
when the mode makes that type public, never its value; the set-aside tiles stay hidden, type too,
until the game ends. A spectator (`None`) sees what both seats see in common. The match envelope
(game, seq, seat, to_act, legal_actions, outcome…) is added by the match layer, not here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Annotated

from app.games.codec import ONCE, PER_SEAT, Doc, encode_once
from app.games.yutaka.components import ISLAND_NAMES, OPENING_REVEALS, PLAYERS, Card, Tile, TileType
from app.games.yutaka.options import Options
from app.games.yutaka.state import Phase, State


@dataclass(frozen=True, slots=True)
class TileView:
    """An island slot as the viewer sees it: a tile `{type, value}` plus its slot and whether it is
    face up. A face-down tile's value is null, and so is its type unless the mode shows it."""

    slot: Annotated[int, Doc("0–3, 0 is the top.", minimum=0, maximum=3)]
    face_up: bool
    type: TileType | None
    value: int | None


@dataclass(frozen=True, slots=True)
class IslandView:
    """One island: its tiles by slot and, per seat, the cards on that seat's side in play order
    (dynamite lies on the side of the seat it was played against)."""

    island: Annotated[int, Doc("Island index, 0–4.", minimum=0, maximum=4)]
    name: str
    tiles: tuple[TileView, ...]
    cards: Annotated[tuple[tuple[Card, ...], ...], PER_SEAT]


@dataclass(frozen=True, slots=True)
class YutakaView:
    """What one seat (or a spectator) sees of a Yutakâ match."""

    options: Annotated[Options, ONCE]
    first_player: Annotated[
        int, Doc("Seat of player 1 (who revealed and played first).", minimum=0, maximum=1)
    ]
    phase: Phase
    turn: Annotated[int | None, Doc("The seat on turn; null during the opening and after the end.")]
    opening_reveals_left: Annotated[int, Doc(minimum=0, maximum=OPENING_REVEALS)]
    cards_played: Annotated[int, Doc(minimum=0)]
    hand: Annotated[tuple[Card, ...] | None, Doc("The viewer's hand; null for a spectator.")]
    hand_sizes: Annotated[tuple[int, ...], PER_SEAT]
    deck_sizes: Annotated[tuple[int, ...], PER_SEAT]
    islands: tuple[IslandView, ...]
    face_down: Annotated[int, Doc("Face-down tiles left on the islands; the game ends at 0.", minimum=0)]
    set_aside: Annotated[tuple[Tile, ...] | None, Doc("The five set-aside tiles, null until the game ends.")]
    set_aside_count: int


def viewer(seat: int | None) -> int | None:
    """The seat whose secrets may be shown; anything but a seat of the match is a spectator."""
    return seat if seat is not None and 0 <= seat < PLAYERS else None


@functools.lru_cache(maxsize=4096)
def island_tiles(
    row: tuple[Tile, ...], shown: tuple[bool, ...], known: tuple[TileType, ...]
) -> tuple[TileView, ...]:
    """The views of one island's slots (`known`: the types shown face down); shared objects, since
    few combinations ever occur, so their JSON is encoded once."""
    return tuple(
        TileView(s, True, t.type, t.value)
        if shown[s]
        else TileView(s, False, t.type if t.type in known else None, None)
        for s, t in enumerate(row)
    )


encode_once(TileView)

_ON_TURN = frozenset((Phase.PLAY, Phase.CONFIRM, Phase.REVEAL, Phase.DRAW))


def view(state: State, seat: int | None) -> YutakaView:
    me = viewer(seat)
    known = state.options.known_types or ()
    columns = state.columns
    islands = tuple(
        [
            IslandView(
                i,
                ISLAND_NAMES[i],
                island_tiles(row, state.revealed[i], known),
                tuple([c[i] for c in columns]),
            )
            for i, row in enumerate(state.islands)
        ]
    )
    return YutakaView(
        options=state.options,
        first_player=state.first_player,
        phase=state.phase,
        turn=state.turn if state.phase in _ON_TURN else None,
        opening_reveals_left=OPENING_REVEALS - state.opening_reveals,
        cards_played=state.cards_played,
        hand=None if me is None else state.hands[me],
        hand_sizes=tuple(map(len, state.hands)),
        deck_sizes=tuple(map(len, state.decks)),
        islands=islands,
        face_down=sum(not s for row in state.revealed for s in row),
        set_aside=state.set_aside if state.set_aside_public else None,
        set_aside_count=len(state.set_aside),
    )
