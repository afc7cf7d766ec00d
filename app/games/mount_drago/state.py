"""The folded state of a Mount Drago match and `evolve`, which applies one event to it.

State is compact and immutable: cards are integer codes (see `cards`), hands are sorted tuples,
rider piles are tuples from bottom to top (the top card's dragon is the dragon its owner rides),
the draw pile is a tuple from the top. `evolve` trusts `decide` for the rules but checks that
each event fits the state (right cards on top of the pile, cards in hand), so a corrupt event
stream fails loudly instead of folding into nonsense. It never rolls dice.

`Draft` is the state's mutable twin: `evolve` and the decider (`rules`) change a draft through the
mutators here (`play_card`, `settle_rider`, …: one per fact), so both say in one place what a fact
does to a state, and a decision that causes several facts copies the state once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar

from app.games import frozen
from app.games.mount_drago import events as ev
from app.games.mount_drago.cards import DRAGONS, code_of, codes, dragon_of
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
    end_reason: ev.EndReason | None = None


def initial_state(event: ev.GameStarted) -> State:
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


class Draft:
    """A mutable twin of `State` (the same slots): what one decision or one event changes in place
    before `freeze` turns it into the next state (`app.games.frozen`). `decide` runs the rules on a
    draft, and the mutators below are the only place that says how each fact changes a state, for
    `decide` and `evolve` alike."""

    __slots__ = State.__slots__
    players: int
    options: Options
    track: Track
    positions: tuple[int, ...]
    riders: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]
    discard_pile: tuple[int, ...]
    scores: tuple[int, ...]
    current: int
    phase: Phase
    pending: int
    pending_from: int
    scored: bool
    discarded: bool
    end_reason: ev.EndReason | None


def thaw(state: State) -> Draft:
    return frozen.thaw(state, Draft)


def freeze(draft: Draft) -> State:
    return frozen.freeze(draft, State)


def evolve(state: State, event: ev.Event) -> State:
    try:
        step = _STEPS[type(event)]
    except KeyError:
        raise ValueError(f"{type(event).__name__} cannot be applied to a running match") from None
    draft = thaw(state)
    step(draft, event)
    return freeze(draft)


T = TypeVar("T")


def _set(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
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


# The mutators: one per fact, with the fact's contents as engine codes.


def play_card(d: Draft, seat: int, code: int, frm: int, to: int) -> None:
    """`seat` played `code` (held), moving its dragon from `frm` to `to`; the rider is pending."""
    hand = d.hands[seat]
    i = hand.index(code)
    d.hands = _set(d.hands, seat, hand[:i] + hand[i + 1 :])
    d.positions = _set(d.positions, dragon_of(code), to)
    d.phase = CHOOSE_RIDER
    d.pending = code
    d.pending_from = frm


def settle_rider(d: Draft, seat: int, code: int, result: str) -> None:
    """The played card goes under `seat`'s pile or on top; on `switched`, `seat` rides its dragon."""
    pile = d.piles[seat]
    d.piles = _set(d.piles, seat, (code, *pile) if result == "under" else (*pile, code))
    if result == "switched":
        d.riders = _set(d.riders, seat, dragon_of(code))
    d.phase = DISCARD
    d.pending = NO_CARD


def add_scores(d: Draft, changes: tuple[int, ...]) -> None:
    d.scores = tuple([a + b for a, b in zip(d.scores, changes, strict=True)])
    d.scored = d.scored or d.options.zero_scoring_counts or any(changes)


def discard_cards(d: Draft, seat: int, hand: tuple[int, ...], cs: tuple[int, ...]) -> None:
    """`seat`, whose hand is now `hand`, discarded `cs` onto the summit discard pile."""
    d.hands = _set(d.hands, seat, hand)
    d.discard_pile = d.discard_pile + cs
    d.discarded = True


def draw_cards(d: Draft, seat: int, cs: tuple[int, ...]) -> None:
    """`seat` drew `cs`, the top of the draw pile."""
    d.hands = _set(d.hands, seat, tuple(sorted(d.hands[seat] + cs)))
    d.draw_pile = d.draw_pile[len(cs) :]


def reshuffle(d: Draft, pile: tuple[int, ...], summit_discards: bool) -> None:
    """The empty draw pile became `pile`: the rider piles gave all but their top card."""
    d.draw_pile = pile
    if summit_discards:
        d.discard_pile = ()
    d.piles = tuple([p[-1:] for p in d.piles])


def pass_turn(d: Draft, next_seat: int) -> None:
    d.current = next_seat
    d.phase = PLAY
    d.scored = False
    d.discarded = False


def end_game(d: Draft, reason: ev.EndReason) -> None:
    d.phase = OVER
    d.end_reason = reason


# `evolve`'s steps: each checks that its event fits the state, then applies its mutator.


def _card_played(d: Draft, e: ev.CardPlayed) -> None:
    code = code_of(e.card)
    if code not in d.hands[e.seat] or d.positions[dragon_of(code)] != e.from_space:
        raise ValueError("card_played does not fit the state")
    play_card(d, e.seat, code, e.from_space, e.to_space)


def _rider_settled(d: Draft, e: ev.RiderSettled) -> None:
    settle_rider(d, e.seat, code_of(e.card), e.result)


def _scored(d: Draft, e: ev.Scored) -> None:
    add_scores(d, e.changes)


def _cards_discarded(d: Draft, e: ev.CardsDiscarded) -> None:
    cs = codes(e.cards)
    hand = without(d.hands[e.seat], cs)
    if hand is None:
        raise ValueError("cards_discarded does not fit the state")
    discard_cards(d, e.seat, hand, cs)


def _cards_drawn(d: Draft, e: ev.CardsDrawn) -> None:
    cs = codes(e.cards)
    if d.draw_pile[: len(cs)] != cs:
        raise ValueError("cards_drawn does not match the top of the draw pile")
    draw_cards(d, e.seat, cs)


def _reshuffled(d: Draft, e: ev.DrawPileReshuffled) -> None:
    if d.draw_pile:
        raise ValueError("draw_pile_reshuffled while the draw pile is not empty")
    reshuffle(d, codes(e.draw_pile), e.summit_discards)


def _turn_over(d: Draft, e: ev.TurnEnded | ev.TurnPassed) -> None:
    pass_turn(d, e.next_seat)


def _game_ended(d: Draft, e: ev.GameEnded) -> None:
    end_game(d, e.reason)


_STEPS: Final[dict[type, Callable[[Draft, Any], None]]] = {
    ev.CardPlayed: _card_played,
    ev.RiderSettled: _rider_settled,
    ev.Scored: _scored,
    ev.CardsDiscarded: _cards_discarded,
    ev.CardsDrawn: _cards_drawn,
    ev.DrawPileReshuffled: _reshuffled,
    ev.TurnEnded: _turn_over,
    ev.TurnPassed: _turn_over,
    ev.GameEnded: _game_ended,
}
