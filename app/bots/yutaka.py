"""The Yutakâ heuristic of the bots: each seat's expected tile value won if the game ended now.

For every island and tile type, the tiles of that type go to whoever wins the type there with the
cards already placed (RULES §2.5: the higher sum of that type; equipment against equipment compares
whole columns; equal sums discard; nobody with such a card leaves them unclaimed), and each seat's
potential is the expected value of the tiles it would win:

- a face-up tile counts its value;
- a face-down tile whose type is public counts the mean value of the unseen tiles of that type;
- a face-down tile showing nothing is equally likely any unseen tile of a type the mode hides, so
  it adds, for each such type, that type's unseen total divided by the number of those tiles.

Expectations are over the tiles not yet face up (the set-aside tiles included), which is what a
seat knows; the heuristic never reads a face-down or set-aside tile. Cards in hand are not counted:
search looks ahead for them. When the game is over every island tile is face up, and the
potential is the final total.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Final

from app.games.yutaka.components import DECK, MAX_CARDS_PER_SIDE, Card, CardKind, TileType
from app.games.yutaka.options import Options
from app.games.yutaka.state import State

SCALE: Final = 12.0  # a potential lead worth a clear edge (the logistic scale of search rewards)
_TYPES: Final = tuple(TileType)
_KIND: Final = {t: CardKind(t.value) for t in TileType}


def winner(t: TileType, sides: Sequence[Sequence[Card]]) -> int | None:
    """Who wins tiles of type `t` on an island with these card columns (None: nobody)."""
    return _winner(t, _sums(tuple(sides[0])), _sums(tuple(sides[1])))


Sums = tuple[dict[CardKind, int], int]
# Columns of the deck's own card objects (what engine states hold) are remembered by the cards'
# identities: hashing a card is slow, and the search scores the same columns again and again.
_DECK_IDS: Final = frozenset(map(id, DECK))
_SUMS_BY_IDS: dict[tuple[int, ...], Sums] = {}


def _sums(column: tuple[Card, ...]) -> Sums:
    """A column's sum per card kind (kinds present only) and its total."""
    key = tuple(map(id, column))
    found = _SUMS_BY_IDS.get(key)
    if found is not None:
        return found
    sums = _sums_of(column)
    if _DECK_IDS.issuperset(key):  # ids of objects that live as long as the program
        if len(_SUMS_BY_IDS) > 65536:
            _SUMS_BY_IDS.clear()
        _SUMS_BY_IDS[key] = sums
    return sums


def _sums_of(column: tuple[Card, ...]) -> Sums:
    per: dict[CardKind, int] = {}
    for card in column:
        per[card.kind] = per.get(card.kind, 0) + card.value
    return per, sum(per.values())


def _winner(
    t: TileType, a: tuple[dict[CardKind, int], int], b: tuple[dict[CardKind, int], int]
) -> int | None:
    kind = _KIND[t]
    in_a, in_b = kind in a[0], kind in b[0]
    if not (in_a and in_b):
        return 0 if in_a else 1 if in_b else None
    x, y = (a[1], b[1]) if t is TileType.EQUIPMENT else (a[0][kind], b[0][kind])
    return None if x == y else 0 if x > y else 1


_TILE_SETS: dict[int, tuple[Options, dict[TileType, int], dict[TileType, int]]] = {}


def _tile_set(options: Options) -> tuple[dict[TileType, int], dict[TileType, int]]:
    """Total value and number of the match's tiles per type, cached per options object (every
    state of a match shares it; options hold a dict, so they cannot be hashed)."""
    entry = _TILE_SETS.get(id(options))
    if entry is None or entry[0] is not options:
        total = dict.fromkeys(_TYPES, 0)
        count = dict.fromkeys(_TYPES, 0)
        for tile in options.tiles():
            total[tile.type] += tile.value
            count[tile.type] += 1
        if len(_TILE_SETS) > 64:
            _TILE_SETS.clear()
        entry = _TILE_SETS[id(options)] = (options, total, count)
    return entry[1], entry[2]


def _island_values(state: State) -> list[dict[TileType, float]]:
    """Per island, the expected value of its tiles of each type (see the module docstring)."""
    known = state.options.known_types or ()
    total, count = _tile_set(state.options)
    total, count = dict(total), dict(count)
    for row, shown in zip(state.islands, state.revealed, strict=True):
        for tile, up in zip(row, shown, strict=True):
            if up:  # what is left unseen: the match's tiles minus the face-up ones
                total[tile.type] -= tile.value
                count[tile.type] -= 1
    mean = {t: total[t] / count[t] for t in known if count[t]}
    hidden = sum(count[t] for t in _TYPES if t not in known)
    blind = {t: total[t] / hidden for t in _TYPES if t not in known and count[t]}
    out = []
    for row, shown in zip(state.islands, state.revealed, strict=True):
        value: dict[TileType, float] = {}
        unknown = 0
        for tile, up in zip(row, shown, strict=True):
            if up:
                value[tile.type] = value.get(tile.type, 0.0) + tile.value
            elif tile.type in known:  # the type shows: the mean of the unseen tiles of that type
                value[tile.type] = value.get(tile.type, 0.0) + mean[tile.type]
            else:
                unknown += 1
        if unknown:  # nothing shows: any unseen tile of a hidden type
            for t, v in blind.items():
                value[t] = value.get(t, 0.0) + unknown * v
        out.append(value)
    return out


def potential(state: State) -> tuple[float, ...]:
    out = [0.0, 0.0]
    columns = state.columns
    for i, value in enumerate(_island_values(state)):
        a, b = _sums(columns[0][i]), _sums(columns[1][i])
        for t, v in value.items():
            w = _winner(t, a, b)
            if w is not None:
                out[w] += v
    return tuple(out)


Reach = tuple[dict[CardKind, tuple[int, ...]], tuple[int, ...]]
# By the sorted identities of the deck's card objects, as `_sums`: a seat's unplayed cards change
# once per card it plays, and the search evaluates the same ones at every leaf of a decision.
_REACH_BY_IDS: dict[tuple[int, ...], Reach] = {}


def _reach(cards: tuple[Card, ...]) -> Reach:
    """What a seat may still play, as prefix sums of its values, highest first: per kind (dynamite
    aside), and over every typed card (`(0,)` without an equipment card: no equipment claim)."""
    key = tuple(sorted(map(id, cards)))  # the order of a hand and a deck does not matter here
    found = _REACH_BY_IDS.get(key)
    if found is not None:
        return found
    reach = _reach_of(cards)
    if _DECK_IDS.issuperset(key):
        if len(_REACH_BY_IDS) > 16384:
            _REACH_BY_IDS.clear()
        _REACH_BY_IDS[key] = reach
    return reach


def _reach_of(cards: tuple[Card, ...]) -> Reach:
    per: dict[CardKind, list[int]] = {}
    for card in cards:
        if card.kind is not CardKind.DYNAMITE:
            per.setdefault(card.kind, []).append(card.value)
    prefix = {k: _prefix(vs) for k, vs in per.items()}
    every = _prefix([v for vs in per.values() for v in vs]) if CardKind.EQUIPMENT in per else (0,)
    return prefix, every


def _prefix(values: list[int]) -> tuple[int, ...]:
    out = [0]
    for v in sorted(values, reverse=True):
        out.append(out[-1] + v)
    return tuple(out)


def evaluation(state: State) -> tuple[float, ...]:
    """The search's evaluation: `potential`, with each award weighted by how likely its holder is
    to keep it. On each island and for each type, `d` is the lead in the compared sum and `g0`,
    `g1` what each seat could still add there (its highest unplayed cards of that kind, or of any
    kind for equipment, as many as it has free places); a lead the other cannot make up is kept,
    otherwise seat 0 wins with probability `σ(d / (1 + (g0 + g1) / 2))`. The unplayed cards of
    both seats are public (their decks minus what they played). When the game is over, the
    potential (exact)."""
    if all(map(all, state.revealed)):
        return potential(state)
    left = (_reach(state.hands[0] + state.decks[0]), _reach(state.hands[1] + state.decks[1]))
    any_left: list[tuple[int, ...] | None] = [None, None]  # `_prefix_any` of each seat, once
    out0 = out1 = 0.0
    columns = state.columns
    for i, value in enumerate(_island_values(state)):
        c0, c1 = columns[0][i], columns[1][i]
        (per0, total0), (per1, total1) = _sums(c0), _sums(c1)
        free0, free1 = MAX_CARDS_PER_SIDE - len(c0), MAX_CARDS_PER_SIDE - len(c1)
        for t, v in value.items():
            kind = _KIND[t]
            if t is TileType.EQUIPMENT:
                s0 = total0 if kind in per0 else -1.0
                s1 = total1 if kind in per1 else -1.0
                r0, r1 = left[0][1], left[1][1]
                if kind in per0:  # already holding equipment: any card adds to the column
                    r0 = any_left[0] = any_left[0] or _prefix_any(left[0])
                if kind in per1:
                    r1 = any_left[1] = any_left[1] or _prefix_any(left[1])
            else:
                s0 = per0.get(kind, -1.0)
                s1 = per1.get(kind, -1.0)
                r0 = left[0][0].get(kind, (0,))
                r1 = left[1][0].get(kind, (0,))
            g0 = r0[min(free0, len(r0) - 1)]
            g1 = r1[min(free1, len(r1) - 1)]
            if s0 < 0 and g0:
                s0 = 0.0  # may still claim the type
            if s1 < 0 and g1:
                s1 = 0.0
            if s0 < 0 and s1 < 0:
                continue  # nobody holds or can hold the type here
            d = s0 - s1
            if d > g1:
                p = 1.0
            elif -d > g0:
                p = 0.0
            else:
                p = 1.0 / (1.0 + math.exp(-d / (1.0 + (g0 + g1) / 2)))
            out0 += v * p
            out1 += v * (1.0 - p)
    return (out0, out1)


def _prefix_any(left: tuple[dict[CardKind, tuple[int, ...]], tuple[int, ...]]) -> tuple[int, ...]:
    """Prefix sums over every typed card left, equipment or not."""
    per = left[0]
    if CardKind.EQUIPMENT in per:
        return left[1]
    values = [b - a for vs in per.values() for a, b in itertools.pairwise(vs)]
    return _prefix(values)
