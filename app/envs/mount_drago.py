"""Mount Drago for the environments: its fixed action space and its observation encoding.

Actions (116 ids, the same for every player count and option):

- `0 … 49`: `play` the card with code `c = dragon × 5 + value − 1` (dragons in canonical order);
- `50`, `51`: `choose_rider` keep, switch;
- `52 … 114`: `discard` the hand cards at the slots of the bit mask `m = id − 51` (1 … 63; bit `k`
  is the `k`-th card of the hand in canonical order, as the view lists it). Only the leftmost copies
  of equal cards are used, so each set of cards (a multiset) has exactly one id;
- `115`: `end_turn`.

The observation (340 floats, every one clipped to [−10, 10]) is built from the seat's view only;
seats are counted from the viewer (relative seat `r = (seat − viewer) mod players`, padded to 5):

- `0 … 149`: per dragon (canonical order), 15 values: position ÷ last space index; on the summit;
  printed value of its space ÷ 8; the space's kind one-hot (start, plain, blue, green, summit);
  its rider one-hot by relative seat (5) or unridden (1); tied for last place;
- `150 … 199`: the viewer's hand, count per card code;
- `200 … 224`: per relative seat, 5 values: seat present; score ÷ 50; hand size ÷ 6; rider pile
  size ÷ 20; on turn;
- `225 … 228`: phase one-hot (play, choose_rider, discard, over); `229`: the viewer is to act;
  `230`: draw pile size ÷ 110;
- `231 … 280`: the summit discard pile, count per card code; `281 … 330`: the card pending a rider
  choice, one-hot per code; `331`: this turn scored;
- `332 … 335`: options negative_floor, explicit_end_turn, refill_after_discard_empty,
  zero_scoring_counts; `336 … 339`: number of players one-hot (2, 3, 4, 5).

`drago_client.observation` builds the same numbers from the view's JSON (a test checks it).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from app.games.mount_drago import rules
from app.games.mount_drago.actions import Action, ChooseRider, Discard, EndTurn, Play
from app.games.mount_drago.cards import CARDS, DRAGON_INDEX, DRAGONS, HAND_SIZE, MAX_VALUE, Card, code_of
from app.games.mount_drago.options import MAX_PLAYERS
from app.games.mount_drago.state import DISCARD, State
from app.games.mount_drago.track import SpaceKind
from app.games.mount_drago.views import MountDragoView

GAME_NAME: Final = "mount_drago"
CARD_CODES: Final = len(CARDS)  # 50
PLAY_BASE: Final = 0
KEEP: Final = CARD_CODES  # 50
SWITCH: Final = KEEP + 1  # 51
DISCARD_BASE: Final = SWITCH  # id = DISCARD_BASE + slot mask (1 … 63)
DISCARD_MASKS: Final = (1 << HAND_SIZE) - 1  # 63
END_TURN: Final = DISCARD_BASE + DISCARD_MASKS + 1  # 115
ACTIONS: Final = END_TURN + 1  # 116

SEATS: Final = MAX_PLAYERS
PER_DRAGON: Final = 15
KINDS: Final = (SpaceKind.START, SpaceKind.PLAIN, SpaceKind.BLUE, SpaceKind.GREEN, SpaceKind.SUMMIT)
PHASES: Final = ("play", "choose_rider", "discard", "over")
OPTION_FLAGS: Final = (
    "negative_floor",
    "explicit_end_turn",
    "refill_after_discard_empty",
    "zero_scoring_counts",
)
DRAGONS_AT: Final = 0
HAND_AT: Final = DRAGONS_AT + len(DRAGONS) * PER_DRAGON  # 150
SEATS_AT: Final = HAND_AT + CARD_CODES  # 200
PHASE_AT: Final = SEATS_AT + SEATS * 5  # 225
TO_ACT_AT: Final = PHASE_AT + len(PHASES)  # 229
DRAW_PILE_AT: Final = TO_ACT_AT + 1  # 230
DISCARDS_AT: Final = DRAW_PILE_AT + 1  # 231
PENDING_AT: Final = DISCARDS_AT + CARD_CODES  # 281
SCORED_AT: Final = PENDING_AT + CARD_CODES  # 331
OPTIONS_AT: Final = SCORED_AT + 1  # 332
PLAYERS_AT: Final = OPTIONS_AT + len(OPTION_FLAGS)  # 336
OBSERVATION: Final = PLAYERS_AT + SEATS - 1  # 340: one-hot over 2 … 5 players
CLIP: Final = 10.0

# The legal actions the engine lists are shared objects: their ids by identity.
_ID_OF: Final = {
    **{id(rules.PLAYS[c]): PLAY_BASE + c for c in range(CARD_CODES)},
    id(rules.CHOICES[0]): KEEP,
    id(rules.CHOICES[1]): SWITCH,
    id(rules.END_TURN): END_TURN,
}
_KIND_INDEX: Final = {kind: i for i, kind in enumerate(KINDS)}
_CODE_BY_ID: Final = {id(card): code for code, card in enumerate(CARDS)}  # views show these objects


def _code(card: Card) -> int:
    found = _CODE_BY_ID.get(id(card))
    return code_of(card) if found is None else found


def legal_ids(state: State, seat: int) -> list[int]:
    """The ids of every legal action of `seat`, ascending (multi-card discards included)."""
    legal = rules.legal_actions(state, seat)
    if state.phase != DISCARD or not legal:
        return [_ID_OF[id(a)] for a in legal]  # ascending already: plays by code, then the choices
    return [*_discard_ids(state.hands[seat], state.positions, state.track.summit_start), END_TURN]


def _discard_ids(hand: tuple[int, ...], positions: tuple[int, ...], summit: int) -> list[int]:
    """The discard ids of a sorted hand: sets of summit cards, leftmost copies of equal cards."""
    ids = []
    for mask in range(1, 1 << len(hand)):
        if all(_usable(hand, positions, summit, mask, k) for k in range(len(hand)) if mask >> k & 1):
            ids.append(DISCARD_BASE + mask)
    return ids


def _usable(hand: tuple[int, ...], positions: tuple[int, ...], summit: int, mask: int, k: int) -> bool:
    code = hand[k]
    on_summit = positions[code // MAX_VALUE] >= summit
    leftmost = k == 0 or hand[k - 1] != code or bool(mask >> (k - 1) & 1)
    return on_summit and leftmost


def action_of(state: State, seat: int, action_id: int) -> Action:
    """The action of `action_id` for `seat` in `state` (legal or not: the rules judge)."""
    if PLAY_BASE <= action_id < KEEP:
        return rules.PLAYS[action_id]
    if action_id in (KEEP, SWITCH):
        return rules.CHOICES[action_id - KEEP]
    if action_id == END_TURN:
        return rules.END_TURN
    if DISCARD_BASE < action_id < END_TURN:
        mask = action_id - DISCARD_BASE
        return Discard(tuple(CARDS[c] for k, c in enumerate(state.hands[seat]) if mask >> k & 1))
    raise ValueError(f"Mount Drago has action ids 0…{ACTIONS - 1}, not {action_id}")


def id_of(action: Action, hand: tuple[int, ...]) -> int:
    """The id of `action` for a seat holding the sorted `hand` (the inverse of `action_of`)."""
    if isinstance(action, Play):
        return PLAY_BASE + code_of(action.card)
    if isinstance(action, ChooseRider):
        return KEEP if action.choice == "keep" else SWITCH
    if isinstance(action, EndTurn):
        return END_TURN
    mask = 0
    for c in sorted(code_of(card) for card in action.cards):
        k = hand.index(c)
        while mask >> k & 1:
            k += 1
        mask |= 1 << k
    return DISCARD_BASE + mask


def encode(
    view: MountDragoView, viewer: int, to_act: bool
) -> np.ndarray[tuple[int, ...], np.dtype[np.float32]]:
    """The observation of `viewer` from its view (see the module docstring for the layout)."""
    out = [0.0] * OBSERVATION  # filled as a list, then one array: numpy's item stores are slower
    players = view.players
    track = view.track
    last = len(track) - 1
    summit = len(track) - 4
    positions = [view.positions[d] for d in DRAGONS]
    lowest = min(positions)
    rider_of = {DRAGON_INDEX[d]: (s - viewer) % players for s, d in enumerate(view.riders)}
    for i, p in enumerate(positions):
        at = DRAGONS_AT + i * PER_DRAGON
        space = track[p]
        out[at] = p / last
        out[at + 1] = p >= summit
        out[at + 2] = space.value / 8
        out[at + 3 + _KIND_INDEX[space.kind]] = 1
        out[at + 8 + rider_of.get(i, SEATS)] = 1
        out[at + 14] = p == lowest
    for card in view.hand or ():
        out[HAND_AT + _code(card)] += 1
    for s in range(players):
        at = SEATS_AT + ((s - viewer) % players) * 5
        out[at] = 1
        out[at + 1] = view.scores[s] / 50
        out[at + 2] = view.hand_sizes[s] / HAND_SIZE
        out[at + 3] = view.rider_piles[s].size / 20
        out[at + 4] = s == view.current_player
    out[PHASE_AT + PHASES.index(view.phase)] = 1
    out[TO_ACT_AT] = to_act
    out[DRAW_PILE_AT] = view.draw_pile_size / 110
    for card in view.discard_pile:
        out[DISCARDS_AT + _code(card)] += 1
    if view.pending_card is not None:
        out[PENDING_AT + _code(view.pending_card)] = 1
    out[SCORED_AT] = view.turn_scored
    for i, flag in enumerate(OPTION_FLAGS):
        out[OPTIONS_AT + i] = getattr(view.options, flag)
    out[PLAYERS_AT + players - 2] = 1
    array = np.array(out, dtype=np.float32)
    return np.clip(array, -CLIP, CLIP, out=array)


def describe(action_id: int) -> str:
    """A short text for an action id (rendering)."""
    if PLAY_BASE <= action_id < KEEP:
        return f"play {CARDS[action_id - PLAY_BASE]}"
    if action_id == KEEP:
        return "keep your dragon"
    if action_id == SWITCH:
        return "switch dragons"
    if action_id == END_TURN:
        return "end turn"
    return f"discard hand slots {[k for k in range(HAND_SIZE) if (action_id - DISCARD_BASE) >> k & 1]}"
