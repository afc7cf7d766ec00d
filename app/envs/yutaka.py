"""Yutakâ for the environments: its fixed action space and its observation encoding.

Card types are numbered `k = kind × 4 + value − 1` for the kinds idol, dagger, amphora, crystal,
equipment (0 … 19) and `20` for dynamite. Actions (126 ids, every mode and option):

- `0 … 104`: `play` card type `k` onto island `i`: id `k × 5 + i`;
- `105 … 124`: `reveal` the tile of island `i`, slot `s`: id `105 + i × 4 + s`;
- `125`: `end_turn` (only with the option explicit_end_turn).

The observation (396 floats, every one clipped to [−10, 10]) is built from the seat's view only;
"me" is the viewer and "them" the other seat:

- `0 … 20`: my hand, count per card type;
- `21 … 370`: per island (70 values each): per slot (7 each) face up, the tile's type one-hot
  (idol, dagger, amphora, crystal, equipment) when it shows (face up, or a face-down tile whose
  type the mode shows), its value ÷ 15 when face up; then my column and theirs, count per card type
  (21 each);
- `371`, `372`: my hand size ÷ 6, theirs; `373`, `374`: my deck size ÷ 18, theirs;
- `375 … 379`: phase one-hot (opening, play, confirm, reveal, over); `380`: I am to act; `381`: I
  am on turn; `382`: I am player 1 (the first player);
- `383`: opening reveals left ÷ 4; `384`: face-down island tiles ÷ 20; `385`: cards played ÷ 48;
- `386 … 388`: mode one-hot (mysteria, tactika, mixed); `389 … 393`: the types face-down tiles
  show; `394`: stacked archipelagos; `395`: explicit_end_turn.

`drago_client.observation` builds the same numbers from the view's JSON (a test checks it).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from app.games.yutaka import rules
from app.games.yutaka.actions import Action, EndTurn, Play, Reveal
from app.games.yutaka.components import (
    CARD_VALUES,
    DECK,
    DECK_SIZE,
    HAND_SIZE,
    ISLANDS,
    OPENING_REVEALS,
    SLOTS_PER_ISLAND,
    TILE_TYPES,
    Card,
    CardKind,
)
from app.games.yutaka.options import Mode
from app.games.yutaka.state import State
from app.games.yutaka.views import YutakaView

GAME_NAME: Final = "yutaka"
KINDS: Final = tuple(CardKind(t.value) for t in TILE_TYPES)  # the typed kinds, in tile-type order
CARD_TYPES: Final = len(KINDS) * len(CARD_VALUES) + 1  # 21
DYNAMITE_TYPE: Final = CARD_TYPES - 1  # 20
REVEAL_BASE: Final = CARD_TYPES * ISLANDS  # 105
END_TURN: Final = REVEAL_BASE + ISLANDS * SLOTS_PER_ISLAND  # 125
ACTIONS: Final = END_TURN + 1  # 126

PER_SLOT: Final = 7
PER_ISLAND: Final = SLOTS_PER_ISLAND * PER_SLOT + 2 * CARD_TYPES  # 70
PHASES: Final = ("opening", "play", "confirm", "reveal", "over")
MODES: Final = tuple(Mode)
HAND_AT: Final = 0
ISLANDS_AT: Final = HAND_AT + CARD_TYPES  # 21
SIZES_AT: Final = ISLANDS_AT + ISLANDS * PER_ISLAND  # 371
PHASE_AT: Final = SIZES_AT + 4  # 375
FLAGS_AT: Final = PHASE_AT + len(PHASES)  # 380: to act, on turn, first player
COUNTS_AT: Final = FLAGS_AT + 3  # 383
MODE_AT: Final = COUNTS_AT + 3  # 386
KNOWN_AT: Final = MODE_AT + len(MODES)  # 389
STACKED_AT: Final = KNOWN_AT + len(TILE_TYPES)  # 394
EXPLICIT_AT: Final = STACKED_AT + 1  # 395
OBSERVATION: Final = EXPLICIT_AT + 1  # 396
CLIP: Final = 10.0

_KIND_INDEX: Final = {kind: i for i, kind in enumerate(KINDS)}
_TYPE_INDEX: Final = {t: i for i, t in enumerate(TILE_TYPES)}


def card_type(card: Card) -> int:
    """The card type number of `card` (see the module docstring)."""
    found = _TYPE_BY_ID.get(id(card))  # the deck's own objects, as states hold them
    if found is not None:
        return found
    if card.kind is CardKind.DYNAMITE:
        return DYNAMITE_TYPE
    return _KIND_INDEX[card.kind] * len(CARD_VALUES) + card.value - 1


_TYPE_BY_ID: Final[dict[int, int]] = {}
_TYPE_BY_ID.update({id(card): card_type(card) for card in DECK})


_CARD_OF_TYPE: Final = {card_type(card): card for card in rules.PLAYS}
# The legal actions the engine lists are shared objects: their ids by identity.
_ID_OF: Final = {
    **{
        id(play): card_type(card) * ISLANDS + i
        for card, row in rules.PLAYS.items()
        for i, play in enumerate(row)
    },
    **{
        id(r): REVEAL_BASE + i * SLOTS_PER_ISLAND + s
        for i, row in enumerate(rules.REVEALS)
        for s, r in enumerate(row)
    },
    id(rules.END_TURN): END_TURN,
}


def legal_ids(state: State, seat: int) -> list[int]:
    """The ids of every legal action of `seat`, ascending."""
    return sorted([_ID_OF[id(a)] for a in rules.legal_actions(state, seat)])


def action_of(state: State, seat: int, action_id: int) -> Action:
    """The action of `action_id` (legal or not: the rules judge)."""
    if 0 <= action_id < REVEAL_BASE:
        return rules.PLAYS[_CARD_OF_TYPE[action_id // ISLANDS]][action_id % ISLANDS]
    if REVEAL_BASE <= action_id < END_TURN:
        island, slot = divmod(action_id - REVEAL_BASE, SLOTS_PER_ISLAND)
        return rules.REVEALS[island][slot]
    if action_id == END_TURN:
        return rules.END_TURN
    raise ValueError(f"Yutakâ has action ids 0…{ACTIONS - 1}, not {action_id}")


def id_of(action: Action) -> int:
    """The id of `action` (the inverse of `action_of`)."""
    if isinstance(action, Play):
        return card_type(action.card) * ISLANDS + action.island
    if isinstance(action, Reveal):
        return REVEAL_BASE + action.island * SLOTS_PER_ISLAND + action.slot
    assert isinstance(action, EndTurn)
    return END_TURN


def encode(view: YutakaView, viewer: int, to_act: bool) -> np.ndarray[tuple[int, ...], np.dtype[np.float32]]:
    """The observation of `viewer` from its view (see the module docstring for the layout)."""
    out = [0.0] * OBSERVATION  # filled as a list, then one array: numpy's item stores are slower
    them = 1 - viewer
    for card in view.hand or ():
        out[HAND_AT + card_type(card)] += 1
    for island in view.islands:
        at = ISLANDS_AT + island.island * PER_ISLAND
        for tile in island.tiles:
            slot = at + tile.slot * PER_SLOT
            out[slot] = tile.face_up
            if tile.type is not None:
                out[slot + 1 + _TYPE_INDEX[tile.type]] = 1
            if tile.value is not None:
                out[slot + 6] = tile.value / 15
        columns = at + SLOTS_PER_ISLAND * PER_SLOT
        for card in island.cards[viewer]:
            out[columns + card_type(card)] += 1
        for card in island.cards[them]:
            out[columns + CARD_TYPES + card_type(card)] += 1
    out[SIZES_AT] = view.hand_sizes[viewer] / HAND_SIZE
    out[SIZES_AT + 1] = view.hand_sizes[them] / HAND_SIZE
    out[SIZES_AT + 2] = view.deck_sizes[viewer] / (DECK_SIZE - HAND_SIZE)
    out[SIZES_AT + 3] = view.deck_sizes[them] / (DECK_SIZE - HAND_SIZE)
    out[PHASE_AT + PHASES.index(view.phase.value)] = 1
    out[FLAGS_AT] = to_act
    out[FLAGS_AT + 1] = view.turn == viewer
    out[FLAGS_AT + 2] = view.first_player == viewer
    out[COUNTS_AT] = view.opening_reveals_left / OPENING_REVEALS
    out[COUNTS_AT + 1] = view.face_down / (ISLANDS * SLOTS_PER_ISLAND)
    out[COUNTS_AT + 2] = view.cards_played / (2 * DECK_SIZE)
    options = view.options
    out[MODE_AT + MODES.index(options.mode)] = 1
    for t in options.known_types or ():
        out[KNOWN_AT + _TYPE_INDEX[t]] = 1
    out[STACKED_AT] = options.stacked
    out[EXPLICIT_AT] = options.explicit_end_turn
    array = np.array(out, dtype=np.float32)
    return np.clip(array, -CLIP, CLIP, out=array)


def describe(action_id: int) -> str:
    """A short text for an action id (rendering)."""
    if 0 <= action_id < REVEAL_BASE:
        return f"play {_CARD_OF_TYPE[action_id // ISLANDS]} on island {action_id % ISLANDS}"
    if action_id == END_TURN:
        return "end turn"
    island, slot = divmod(action_id - REVEAL_BASE, SLOTS_PER_ISLAND)
    return f"reveal island {island} slot {slot}"
