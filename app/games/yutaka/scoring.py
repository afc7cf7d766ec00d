"""Final scoring of Yutakâ (docs/rules.md §2.5): per island and tile type, who wins the tiles, then totals
and the tie-break chain. Pure functions of the card columns and the tile layout, so tests can score
any position directly and the engine scores the real one the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated, Final

from app.games.codec import PER_SEAT, Doc
from app.games.frozen import constructor
from app.games.yutaka.components import PLAYERS, TILE_TYPES, Card, CardKind, Tile, TileType


class Result(enum.StrEnum):
    """What became of one type's tiles on one island."""

    WON = "won"
    DISCARDED = "discarded"  # both sides compared equal: nobody gets the tiles
    UNCLAIMED = "unclaimed"  # no side had a card of the type


class Basis(enum.StrEnum):
    """What was compared: each seat's sum of that kind's cards, or (equipment held on both sides)
    the sum of every card in each column, dynamite counting 0."""

    TYPE_SUM = "type_sum"  # the sums of that type's card values
    COLUMN_SUM = "column_sum"  # equipment held on both sides: the sums of all cards in each column


class TieBreak(enum.StrEnum):
    """How equal totals are decided (the match option `tie_break`); also the criteria themselves."""

    EQUIPMENT_TILES = "equipment_tiles"  # more equipment tiles won, then more equipment points
    EQUIPMENT_POINTS = "equipment_points"  # more equipment points won, then more equipment tiles
    SHARED = "shared"  # equal totals share the win at once


# Decision (docs/rules.md §2.5): the criteria compared in order under each `tie_break`; when all of them
# are equal too, the tied players share the win.
TIE_BREAK_CHAINS: Mapping[TieBreak, tuple[TieBreak, ...]] = MappingProxyType(
    {
        TieBreak.EQUIPMENT_TILES: (TieBreak.EQUIPMENT_TILES, TieBreak.EQUIPMENT_POINTS),
        TieBreak.EQUIPMENT_POINTS: (TieBreak.EQUIPMENT_POINTS, TieBreak.EQUIPMENT_TILES),
        TieBreak.SHARED: (),
    }
)
DEFAULT_TIE_BREAK = TieBreak.EQUIPMENT_TILES
TIE_BREAKS: tuple[TieBreak, ...] = TIE_BREAK_CHAINS[DEFAULT_TIE_BREAK]
DECIDED_BY_TOTAL = "total"
DECIDED_BY_SHARED_WIN = "shared"
DECIDED_BY = ("total", "equipment_tiles", "equipment_points", "shared")  # what `decided_by` may say


@dataclass(frozen=True, slots=True)
class Award:
    """Who got the tiles of one type on one island. `compared` holds the numbers compared (per
    seat): the type's card sums, or whole-column sums when `basis` is `column_sum`."""

    type: TileType
    tiles: Annotated[tuple[int, ...], Doc("The values of this type's tiles on the island.")]
    cards: Annotated[tuple[int, ...], PER_SEAT, Doc("How many cards of this kind each seat has there.")]
    compared: Annotated[tuple[int, ...], PER_SEAT]
    basis: Basis
    result: Result
    winner: Annotated[int | None, Doc("The seat that won the tiles; null unless `result` is won.")]
    points: Annotated[int, Doc("The winner's points from these tiles (0 if nobody won them).")]


@dataclass(frozen=True, slots=True)
class IslandScore:
    """The final scoring of one island: one award per tile type present, in canonical type order."""

    island: Annotated[int, Doc("Island index, 0–4.", minimum=0, maximum=4)]
    awards: tuple[Award, ...]
    points: Annotated[tuple[int, ...], PER_SEAT]


@dataclass(frozen=True, slots=True)
class FinalScore:
    islands: tuple[IslandScore, ...]
    totals: tuple[int, ...]
    equipment_tiles: tuple[int, ...]
    equipment_value: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: str  # "total", a `TieBreak` value, or "shared"


Column = Sequence[Card]

# Every game's scoring makes about twenty of these records: made without the frozen `__init__`.
_new_award = constructor(Award)
_new_island_score = constructor(IslandScore)


_KIND_OF: Mapping[TileType, CardKind] = MappingProxyType({t: CardKind(t.value) for t in TILE_TYPES})
# Module constants: reading a member off an enum class costs several times more.
_EQUIPMENT = TileType.EQUIPMENT
_TYPE_SUM, _COLUMN_SUM = Basis.TYPE_SUM, Basis.COLUMN_SUM
_WON, _DISCARDED, _UNCLAIMED = Result.WON, Result.DISCARDED, Result.UNCLAIMED


Tally = tuple[dict[CardKind, tuple[int, int]], int]
_NONE: Final = (0, 0)


def _tally(side: Column) -> Tally:
    """A column's count and sum of card values per kind, and the sum of all its cards."""
    by_kind: dict[CardKind, tuple[int, int]] = {}
    total = 0
    for c in side:
        value = c.value
        total += value
        n, s = by_kind.get(c.kind, _NONE)
        by_kind[c.kind] = (n + 1, s + value)
    return by_kind, total


def _award(t: TileType, tiles: tuple[int, ...], tallies: list[Tally]) -> Award:
    kind = _KIND_OF[t]
    counted = [by_kind.get(kind, _NONE) for by_kind, _ in tallies]
    cards = tuple([n for n, _ in counted])
    compared = tuple([s for _, s in counted])
    holders = [seat for seat, n in enumerate(cards) if n]
    basis = _TYPE_SUM
    if not holders:
        return _new_award(t, tiles, cards, compared, basis, _UNCLAIMED, None, 0)
    if len(holders) == 1:
        winner: int | None = holders[0]
    else:
        if t is _EQUIPMENT:
            basis = _COLUMN_SUM
            compared = tuple([total for _, total in tallies])
        best = max(compared)
        top = [seat for seat in holders if compared[seat] == best]
        winner = top[0] if len(top) == 1 else None
    if winner is None:
        return _new_award(t, tiles, cards, compared, basis, _DISCARDED, None, 0)
    return _new_award(t, tiles, cards, compared, basis, _WON, winner, sum(tiles))


def score_island(island: int, tiles: Sequence[Tile], sides: Sequence[Column]) -> IslandScore:
    """Score one island: `tiles` are all its tiles, `sides[seat]` that seat's card column."""
    values: dict[TileType, list[int]] = {}
    for tile in tiles:
        values.setdefault(tile.type, []).append(tile.value)
    tallies = [_tally(side) for side in sides]
    awards = tuple([_award(t, tuple(values[t]), tallies) for t in TILE_TYPES if t in values])
    points = [0] * len(sides)
    for a in awards:
        if a.winner is not None:
            points[a.winner] += a.points
    return _new_island_score(island, awards, tuple(points))


def score_game(
    columns: Sequence[Sequence[Column]],
    islands: Sequence[Sequence[Tile]],
    tie_break: TieBreak = DEFAULT_TIE_BREAK,
) -> FinalScore:
    """Score a finished game: `columns[seat][island]` are the cards on that side, `islands[i]` the
    tiles of island i; equal totals are decided by `tie_break`."""
    seats = range(len(columns)) if columns else range(PLAYERS)
    scored = tuple(
        score_island(i, tiles, [columns[seat][i] for seat in seats]) for i, tiles in enumerate(islands)
    )
    totals = tuple(sum(s.points[seat] for s in scored) for seat in seats)
    equipment = [a for s in scored for a in s.awards if a.type is _EQUIPMENT and a.winner is not None]
    eq_tiles = tuple(sum(len(a.tiles) for a in equipment if a.winner == seat) for seat in seats)
    eq_value = tuple(sum(a.points for a in equipment if a.winner == seat) for seat in seats)
    winners, decided_by = _winners(
        totals,
        TIE_BREAK_CHAINS[tie_break],
        {TieBreak.EQUIPMENT_TILES: eq_tiles, TieBreak.EQUIPMENT_POINTS: eq_value},
    )
    return FinalScore(scored, totals, eq_tiles, eq_value, winners, decided_by)


def _winners(
    totals: tuple[int, ...], chain: tuple[TieBreak, ...], keys: dict[TieBreak, tuple[int, ...]]
) -> tuple[tuple[int, ...], str]:
    best = max(totals)
    candidates = [seat for seat, total in enumerate(totals) if total == best]
    if len(candidates) == 1:
        return tuple(candidates), DECIDED_BY_TOTAL
    for criterion in chain:
        key = keys[criterion]
        top = max(key[seat] for seat in candidates)
        candidates = [seat for seat in candidates if key[seat] == top]
        if len(candidates) == 1:
            return tuple(candidates), criterion.value
    return tuple(candidates), DECIDED_BY_SHARED_WIN
