"""The folded state of a Mount Drago match and `evolve`, which applies one event to it.

State is compact and immutable: cards are integer codes (see `cards`), hands are sorted tuples,
rider piles are tuples from bottom to top (the top card's dragon is the dragon its owner rides),
the draw pile is a tuple from the top. `evolve` trusts `decide` for the rules but checks that
each event fits the state (right cards on top of the pile, cards in hand), so a corrupt event
stream fails loudly instead of folding into nonsense. It never rolls dice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from app.games.frozen import replace
from app.games.mount_drago.cards import DRAGONS, code_of, codes, dragon_of
from app.games.mount_drago.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DrawPileReshuffled,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    RiderSettled,
    Scored,
    TurnEnded,
    TurnPassed,
)
from app.games.mount_drago.options import Options
from app.games.mount_drago.track import Track, make_track

Phase = Literal["play", "choose_rider", "discard", "over"]
PLAY: Final = "play"  # the seat on turn plays a card
CHOOSE_RIDER: Final = "choose_rider"  # it moved an unridden last dragon: keep or switch
DISCARD: Final = "discard"  # optional summit discards, then end_turn
OVER: Final = "over"
NO_CARD: Final = -1


@dataclass(frozen=True, slots=True)
class State:
    players: int
    options: Options
    track: Track
    positions: tuple[int, ...]  # space index per dragon (canonical order)
    riders: tuple[int, ...]  # dragon index ridden by each seat
    piles: tuple[tuple[int, ...], ...]  # rider pile per seat, bottom first, top last
    hands: tuple[tuple[int, ...], ...]  # sorted card codes per seat
    draw_pile: tuple[int, ...]  # top first
    discard_pile: tuple[int, ...]  # summit discards, oldest first
    scores: tuple[int, ...]
    current: int  # seat on turn
    phase: Phase
    pending: int = NO_CARD  # card waiting for `choose_rider`
    pending_from: int = 0  # where its dragon stood before the move
    scored: bool = False  # this turn triggered a scoring that counts for the draw rule
    discarded: bool = False  # this turn discarded cards
    end_reason: EndReason | None = None


def initial_state(event: GameStarted) -> State:
    n = event.players
    return State(
        players=n,
        options=event.options,
        track=make_track(event.track),
        positions=(0,) * len(DRAGONS),
        riders=tuple(dragon_of(code_of(c)) for c in event.riders),
        piles=tuple((code_of(c),) for c in event.riders),
        hands=tuple(tuple(sorted(codes(h))) for h in event.hands),
        draw_pile=codes(event.draw_pile),
        discard_pile=(),
        scores=(0,) * n,
        current=event.first_player,
        phase=PLAY,
    )


def evolve(state: State, event: Event) -> State:
    try:
        step = _STEPS[type(event)]
    except KeyError:
        raise ValueError(f"{type(event).__name__} cannot be applied to a running match") from None
    return step(state, event)


def _set(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def without(hand: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...] | None:
    """`hand` minus the multiset `removed`, or None if `hand` lacks one of them."""
    rest = list(hand)
    for c in removed:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)


def _card_played(s: State, e: CardPlayed) -> State:
    code = code_of(e.card)
    d = dragon_of(code)
    hand = without(s.hands[e.seat], (code,))
    if hand is None or s.positions[d] != e.from_space:
        raise ValueError("card_played does not fit the state")
    return replace(
        s,
        hands=_set(s.hands, e.seat, hand),
        positions=_set(s.positions, d, e.to_space),
        phase=CHOOSE_RIDER,
        pending=code,
        pending_from=e.from_space,
    )


def _rider_settled(s: State, e: RiderSettled) -> State:
    code = code_of(e.card)
    pile = s.piles[e.seat]
    pile = (code, *pile) if e.result == "under" else (*pile, code)
    riders = _set(s.riders, e.seat, dragon_of(code)) if e.result == "switched" else s.riders
    return replace(s, piles=_set(s.piles, e.seat, pile), riders=riders, phase=DISCARD, pending=NO_CARD)


def _scored(s: State, e: Scored) -> State:
    scores = tuple(a + b for a, b in zip(s.scores, e.changes, strict=True))
    counts = s.scored or s.options.zero_scoring_counts or any(e.changes)
    return replace(s, scores=scores, scored=counts)


def _cards_discarded(s: State, e: CardsDiscarded) -> State:
    cs = codes(e.cards)
    hand = without(s.hands[e.seat], cs)
    if hand is None:
        raise ValueError("cards_discarded does not fit the state")
    return replace(s, hands=_set(s.hands, e.seat, hand), discard_pile=s.discard_pile + cs, discarded=True)


def _cards_drawn(s: State, e: CardsDrawn) -> State:
    cs = codes(e.cards)
    k = len(cs)
    if s.draw_pile[:k] != cs:
        raise ValueError("cards_drawn does not match the top of the draw pile")
    hand = tuple(sorted(s.hands[e.seat] + cs))
    return replace(s, hands=_set(s.hands, e.seat, hand), draw_pile=s.draw_pile[k:])


def _reshuffled(s: State, e: DrawPileReshuffled) -> State:
    if s.draw_pile:
        raise ValueError("draw_pile_reshuffled while the draw pile is not empty")
    return replace(
        s,
        draw_pile=codes(e.draw_pile),
        discard_pile=() if e.summit_discards else s.discard_pile,
        piles=tuple(p[-1:] for p in s.piles),
    )


def _turn_over(s: State, e: TurnEnded | TurnPassed) -> State:
    return replace(s, current=e.next_seat, phase=PLAY, scored=False, discarded=False)


def _game_ended(s: State, e: GameEnded) -> State:
    return replace(s, phase=OVER, end_reason=e.reason)


_STEPS: Final[dict[type, Callable[[State, Any], State]]] = {
    CardPlayed: _card_played,
    RiderSettled: _rider_settled,
    Scored: _scored,
    CardsDiscarded: _cards_discarded,
    CardsDrawn: _cards_drawn,
    DrawPileReshuffled: _reshuffled,
    TurnEnded: _turn_over,
    TurnPassed: _turn_over,
    GameEnded: _game_ended,
}
