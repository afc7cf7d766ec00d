"""Determinization for Mount Drago: complete hidden states sampled from one seat's information.

A seat's information is the match's game events redacted for it, as JSON, in order
(`to_json(redact(event, seat))`). `prepare(seat, history)` folds that history once, with the
engine's own `evolve`, into a *template* whose public parts (track, positions, riders, rider piles,
scores, summit discards, turn and phase, hand and pile sizes) and the seat's own hand are exact,
and whose hidden parts are placeholders; `Determinizer.sample(rng)` fills the hidden parts
(the other hands, the draw-pile order). `sample(seat, history, rng)` does both at once.

The model is the standard determinization: opponents' choices are treated as uninformative, as if
each opponent played a random card of its hand. The cards the seat has not seen are then
exchangeable, so **before any reshuffle** a sample is exact: the unseen cards (the 110 cards minus
the seat's hand, every rider-pile card and the summit discards) are shuffled uniformly and dealt
into the opponents' hands (public sizes) and the draw pile.

**After a reshuffle** the seat knows more: the pile was empty, so the cards it had not seen were
exactly in the opponents' hands (a multiset `A`), and the new pile was the public pool. A sample
splits `A` among the opponents, shuffles the pool (minus the seat's own later draws) into the
opponents' later draws and the pile, then replays the opponents' later plays; when an opponent
plays a card it does not hold in the sample, it exchanges one of its cards of the same origin with
a copy still in play elsewhere (another hand, or the undrawn pile). Every sample is consistent with
the seat's information; its distribution is close to, not exactly, uniform. Only 4–5 player games
reach a reshuffle (about one 5-player game in four under random play).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from app.games.codec import JSON, decode_tagged, from_json, to_json
from app.games.frozen import replace
from app.games.mount_drago.cards import CARDS, DECK_COUNTS, cards, codes
from app.games.mount_drago.events import (
    EVENT_TYPES,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DrawPileReshuffled,
    Event,
    GameStarted,
)
from app.games.mount_drago.state import NO_CARD, State, evolve, initial_state

FILLER: Final = 0  # the code standing for a card the seat cannot see, in the template
_FILLER_JSON: Final = to_json(CARDS[FILLER])
MAX_ATTEMPTS: Final = 200  # fresh starts of the after-reshuffle sampler before giving up


@dataclass(frozen=True, slots=True)
class _Move:
    """An opponent's move after the last reshuffle: cards drawn (how many) or cards played."""

    seat: int
    drawn: int
    played: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Reshuffle:
    """What the seat knows about the last reshuffle (see the module docstring)."""

    held: Counter[int]  # `A`: the opponents' cards at the reshuffle, all unseen
    sizes: tuple[int, ...]  # each seat's hand size then
    moves: tuple[_Move, ...]  # the opponents' draws and plays since, in order


class Determinizer:
    """One seat's information, folded once; `sample` draws a complete state consistent with it."""

    __slots__ = ("_after", "_opponents", "_pool", "_reshuffle", "seat", "template")

    def __init__(self, seat: int, history: Sequence[JSON]) -> None:
        self.seat = seat
        self.template, self._reshuffle = _fold(seat, history)
        t = self.template
        self._opponents = tuple(j for j in range(t.players) if j != seat)
        unseen = _unseen(t, seat)
        if unseen.total() != len(t.draw_pile) + sum(len(t.hands[j]) for j in self._opponents):
            raise ValueError("the history does not account for every card")
        self._pool = tuple(sorted(unseen.elements()))
        self._after: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        if self._reshuffle is not None:
            r = self._reshuffle
            played = Counter(c for m in r.moves for c in m.played)
            pool = unseen + played
            pool.subtract(r.held)  # `B` = what is unseen now, plus what was played since, minus `A`
            if any(n < 0 for n in pool.values()):
                raise ValueError("the history does not fit a reshuffle")
            self._after = (tuple(sorted(r.held.elements())), tuple(sorted(pool.elements())))

    def sample(self, rng: random.Random) -> State:
        if self._after is None:
            return self._deal(rng)
        for _ in range(MAX_ATTEMPTS):
            state = self._deal_after_reshuffle(rng)
            if state is not None:
                return state
        raise RuntimeError("no consistent deal found after the reshuffle")

    def _deal(self, rng: random.Random) -> State:
        pool = list(self._pool)
        rng.shuffle(pool)
        hands = list(self.template.hands)
        i = 0
        for j in self._opponents:
            n = len(hands[j])
            hands[j] = tuple(sorted(pool[i : i + n]))
            i += n
        return replace(self.template, hands=tuple(hands), draw_pile=tuple(pool[i:]))

    def _deal_after_reshuffle(self, rng: random.Random) -> State | None:
        assert self._after is not None and self._reshuffle is not None
        held, pool = (list(part) for part in self._after)
        rng.shuffle(held)
        rng.shuffle(pool)
        slots = held + pool  # slot -> card; slots below `na` came from `A`, the others from the pool
        na = len(held)
        hands: dict[int, list[int]] = {}  # opponent -> the slots it holds
        i = 0
        for j in self._opponents:
            hands[j] = list(range(i, i + self._reshuffle.sizes[j]))
            i += self._reshuffle.sizes[j]
        undrawn = na  # the first pool slot nobody has drawn
        for move in self._reshuffle.moves:
            hands[move.seat].extend(range(undrawn, undrawn + move.drawn))
            undrawn += move.drawn
            for code in move.played:
                mine = next((s for s in hands[move.seat] if slots[s] == code), None)
                if mine is None:
                    mine = _exchange(slots, hands, move.seat, code, undrawn, na, rng)
                    if mine is None:
                        return None
                hands[move.seat].remove(mine)
        all_hands = list(self.template.hands)
        for j in self._opponents:
            all_hands[j] = tuple(sorted(slots[s] for s in hands[j]))
        return replace(self.template, hands=tuple(all_hands), draw_pile=tuple(slots[undrawn:]))


def _exchange(
    slots: list[int],
    hands: dict[int, list[int]],
    seat: int,
    code: int,
    undrawn: int,
    na: int,
    rng: random.Random,
) -> int | None:
    """Give `seat` a copy of `code` by exchanging one of its cards with a copy still in play of the
    same origin (another opponent's hand or the undrawn pile); returns the slot now holding it."""
    others = {s for j, held in hands.items() if j != seat for s in held}
    live = [s for s, c in enumerate(slots) if c == code and (s in others or s >= undrawn)]
    pairs = [(mine, s) for mine in hands[seat] for s in live if (mine < na) == (s < na)]
    if not pairs:
        return None
    mine, s = rng.choice(pairs)
    slots[mine], slots[s] = slots[s], slots[mine]
    return mine


def _unseen(state: State, seat: int) -> Counter[int]:
    """The cards `seat` has not seen: all but its hand, the rider piles, the summit discards and a
    card waiting for its rider choice."""
    seen = Counter(state.hands[seat])
    seen.update(c for pile in state.piles for c in pile)
    seen.update(state.discard_pile)
    if state.pending != NO_CARD:  # played, waiting for the rider choice: face up, in no pile yet
        seen[state.pending] += 1
    unseen = Counter(DECK_COUNTS)
    unseen.subtract(seen)
    if any(n < 0 for n in unseen.values()):
        raise ValueError("the history shows a card more often than the deck holds it")
    return +unseen


def _with_cards(state: State, seat: int, played: tuple[int, ...]) -> State:
    """`state` where `seat`'s placeholder cards include `played` (so that folding the play works)."""
    hand = list(state.hands[seat])
    for code in played:
        hand.remove(FILLER)  # the template's other hands hold placeholders only
        hand.append(code)
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    return replace(state, hands=tuple(hands))


def _started(seat: int, data: JSON) -> GameStarted:
    if data.get("type") != "game_started":
        raise ValueError("a history starts with game_started")
    full = {k: v for k, v in data.items() if k not in ("hand_sizes", "draw_pile_size")}
    full["hands"] = [
        hand if s == seat else [_FILLER_JSON] * n
        for s, (hand, n) in enumerate(zip(data["hands"], data["hand_sizes"], strict=True))
    ]
    full["draw_pile"] = [_FILLER_JSON] * data["draw_pile_size"]
    return from_json(GameStarted, full)


def _fold(seat: int, history: Sequence[JSON]) -> tuple[State, _Reshuffle | None]:
    """Fold the seat's history into the template; also what the seat knows of the last reshuffle."""
    if not history:
        raise ValueError("a history starts with game_started")
    started = _started(seat, history[0])
    state = initial_state(started)
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not in this match")
    reshuffle: _Reshuffle | None = None
    moves: list[_Move] = []
    for data in history[1:]:
        kind = data.get("type")
        event: Event
        if kind == "cards_drawn" and "count" in data:  # another seat drew: placeholders
            event = CardsDrawn(data["seat"], cards((FILLER,) * data["count"]))
            moves.append(_Move(data["seat"], data["count"], ()))
        elif kind == "draw_pile_reshuffled":
            held = _unseen(state, seat)  # the pile is empty: the unseen cards are in other hands
            reshuffle = _Reshuffle(held, tuple(len(h) for h in state.hands), ())
            moves = []
            event = DrawPileReshuffled(cards((FILLER,) * data["size"]), data["summit_discards"])
        else:
            event = decode_tagged(EVENT_TYPES, data, "event")
        if isinstance(event, CardsDrawn) and event.seat == seat:  # put the seat's draw on top
            drawn = codes(event.cards)
            state = replace(state, draw_pile=drawn + state.draw_pile[len(drawn) :])
        elif isinstance(event, (CardPlayed, CardsDiscarded)) and event.seat != seat:
            played = codes((event.card,) if isinstance(event, CardPlayed) else event.cards)
            state = _with_cards(state, event.seat, played)
            moves.append(_Move(event.seat, 0, played))
        state = evolve(state, event)
    if reshuffle is not None:
        reshuffle = replace(reshuffle, moves=tuple(moves))
    return state, reshuffle


def prepare(seat: int, history: Sequence[JSON]) -> Determinizer:
    """Fold `seat`'s redacted history once, for many samples."""
    return Determinizer(seat, history)


def sample(seat: int, history: Sequence[JSON], rng: random.Random) -> State:
    """One complete state consistent with what `seat` knows (see the module docstring)."""
    return Determinizer(seat, history).sample(rng)


def hidden_json(state: State) -> JSON:
    """The hidden parts of `state`: every hand and the draw pile (top first)."""
    return {
        "hands": [to_json(cards(h)) for h in state.hands],
        "draw_pile": to_json(cards(state.draw_pile)),
    }
