"""What one viewer may see of a Mount Drago match: `MountDragoView`, built by `view(state, seat)`.

Public: dragon positions, riders and rider piles (cards are played face up; the view gives each
pile's top and size), scores, hand sizes, the draw pile's size, the summit discard pile. Secret:
each hand (only its owner sees it) and the order of the draw pile (nobody sees it, not even after
a reshuffle). A spectator (`seat=None`) sees only public information. The match envelope (seq,
seat, to_act, legal_actions, outcome…) is added by the match layer, not here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated

from app.games.codec import ONCE, PER_SEAT, Doc, encode_once
from app.games.mount_drago.cards import CARDS, DRAGONS, Card, Dragon
from app.games.mount_drago.options import Options
from app.games.mount_drago.state import NO_CARD, Phase, State
from app.games.mount_drago.track import Space


@dataclass(frozen=True, slots=True)
class RiderPile:
    """A rider pile as everyone sees it: the face-up top card (whose dragon its owner rides)."""

    top: Card
    size: Annotated[int, Doc("Cards in the pile, the top included.", minimum=1)]


@dataclass(frozen=True, slots=True)
class MountDragoView:
    """What one seat (or a spectator) sees of a Mount Drago match."""

    players: Annotated[int, Doc(minimum=2, maximum=5)]
    phase: Annotated[
        Phase,
        Doc(
            "`play`: the seat on turn plays a card; `choose_rider`: it keeps its dragon or switches; "
            "`discard`: optional summit discards, then `end_turn`; `over`: the game has ended."
        ),
    ]
    current_player: Annotated[int, Doc("The seat on turn.", minimum=0)]
    hand: Annotated[
        tuple[Card, ...] | None, Doc("The viewer's hand in canonical order; null for a spectator.")
    ]
    hand_sizes: Annotated[tuple[int, ...], PER_SEAT]
    positions: Annotated[Mapping[Dragon, int], ONCE, Doc("Every dragon's space, as an index into `track`.")]
    summit_dragons: Annotated[tuple[Dragon, ...], Doc("Dragons on a summit space, in canonical order.")]
    riders: Annotated[tuple[Dragon, ...], Doc("The dragon each seat rides.")]
    rider_piles: Annotated[tuple[RiderPile, ...], PER_SEAT]
    scores: Annotated[tuple[int, ...], PER_SEAT]
    draw_pile_size: Annotated[int, Doc(minimum=0)]
    discard_pile: Annotated[tuple[Card, ...], Doc("The summit discards, oldest first (face up).")]
    pending_card: Annotated[
        Card | None, Doc("The card just played while its rider choice is pending (phase choose_rider).")
    ]
    turn_scored: Annotated[bool, Doc("This turn triggered a scoring that counts for the draw rule.")]
    options: Annotated[Options, ONCE]
    track: Annotated[
        tuple[Space, ...], ONCE, Doc("The match's track, from the start (index 0) to the summit.")
    ]


def view(state: State, seat: int | None) -> MountDragoView:
    positions, summit_dragons = _board(state.positions, state.track.summit_start)
    return MountDragoView(
        players=state.players,
        phase=state.phase,
        current_player=state.current,
        hand=None if seat is None else _cards(state.hands[seat]),
        hand_sizes=tuple(map(len, state.hands)),
        positions=positions,
        summit_dragons=summit_dragons,
        riders=tuple([DRAGONS[d] for d in state.riders]),
        rider_piles=tuple([_pile(p[-1], len(p)) for p in state.piles]),
        scores=state.scores,
        draw_pile_size=len(state.draw_pile),
        discard_pile=_cards(state.discard_pile),
        pending_card=None if state.pending == NO_CARD else CARDS[state.pending],
        turn_scored=state.scored,
        options=state.options,
        track=state.track.spaces,
    )


@functools.lru_cache(maxsize=1024)
def _board(positions: tuple[int, ...], summit: int) -> tuple[Mapping[Dragon, int], tuple[Dragon, ...]]:
    """The dragons' spaces and those on the summit: shared by every viewer of a position (one
    read-only object, so its JSON is encoded once)."""
    where = dict(zip(DRAGONS, positions, strict=True))
    return MappingProxyType(where), tuple([d for d, p in where.items() if p >= summit])


def _cards(codes: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple([CARDS[c] for c in codes])


@functools.cache
def _pile(top: int, size: int) -> RiderPile:
    """Rider piles are shared objects (a few hundred at most), so their JSON is computed once."""
    return RiderPile(CARDS[top], size)


encode_once(RiderPile)
