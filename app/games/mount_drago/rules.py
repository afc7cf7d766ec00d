"""Mount Drago's decider: who acts, what they may do, and which facts an action causes.

`decide` checks an action against docs/rules.md §1.4 and returns the events it causes, running the turn
forward as far as it goes without another decision: rider, scoring, game end, the automatic end
of a turn without discardable cards, draws (with reshuffles, the only use of `rng`), automatic
passes. Decisions the rules leave open are the named constants below and the match options
(`negative_floor`, `refill_after_discard_empty`, `zero_scoring_counts`; `explicit_end_turn` keeps
every turn open until `end_turn`); a player whose turn begins with an empty hand first draws up to
six and passes only if nothing can be drawn.
"""

from __future__ import annotations

import random
from typing import Final, Literal

from app.games.codec import encode_once
from app.games.core import GAME_OVER, ILLEGAL, NOT_YOUR_TURN, IllegalAction, Outcome
from app.games.mount_drago.actions import Action, ChooseRider, Discard, EndTurn, Play
from app.games.mount_drago.cards import CARDS, DRAGONS, HAND_SIZE, MAX_VALUE, VALUE_OF, cards, code_of
from app.games.mount_drago.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DrawPileReshuffled,
    Event,
    GameEnded,
    RiderSettled,
    Scored,
    TurnEnded,
    TurnPassed,
)
from app.games.mount_drago.state import CHOOSE_RIDER, DISCARD, OVER, PLAY, State, without
from app.games.mount_drago.track import SpaceKind

# Decision (docs/rules.md §1.4.5): the summit discard pile joins the reshuffled draw pile.
RESHUFFLE_SUMMIT_DISCARDS: Final = True
SUMMIT_DRAGONS_TO_END: Final = 3  # the game ends when the third dragon reaches the summit

_PLAY: Final = tuple(Play(c) for c in CARDS)  # legal actions are shared objects, indexed by code
_DISCARD_ONE: Final = tuple(Discard((c,)) for c in CARDS)
_END_TURN: Final = EndTurn()
_CHOICES: Final = (ChooseRider("keep"), ChooseRider("switch"))
for _cls in (Play, Discard, EndTurn, ChooseRider):
    encode_once(_cls)  # so every view's legal_actions reuse their JSON


def to_act(state: State) -> tuple[int, ...]:
    return () if state.phase == OVER else (state.current,)


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    if seat != state.current or state.phase == OVER:
        return ()
    if state.phase == PLAY:
        return tuple(_PLAY[c] for c in _distinct(state.hands[seat]))
    if state.phase == CHOOSE_RIDER:
        return _CHOICES
    ss, pos = state.track.summit_start, state.positions
    found = [_DISCARD_ONE[c] for c in _distinct(state.hands[seat]) if pos[c // MAX_VALUE] >= ss]
    return (*found, _END_TURN)


def finish_action(state: State, seat: int) -> Action | None:
    """`end_turn` when `seat` may end its turn now (the discard step), else None."""
    return _END_TURN if state.phase == DISCARD and seat == state.current else None


def is_barrier(event: Event) -> bool:
    """Whether `event` may never be undone; each event class declares it (see `events`)."""
    return type(event).BARRIER


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    return Outcome(state.scores, winners(state.scores), {"reason": state.end_reason})


def winners(scores: tuple[int, ...]) -> tuple[int, ...]:
    best = max(scores)
    return tuple(s for s, v in enumerate(scores) if v == best)


def decide(state: State, seat: int, action: Action, rng: random.Random) -> tuple[Event, ...]:
    if state.phase == OVER:
        raise IllegalAction(GAME_OVER, "The game is over.", "game_over")
    if seat != state.current:
        raise IllegalAction(NOT_YOUR_TURN, f"It is seat {state.current}'s turn, not yours.")
    if isinstance(action, Play):
        _expect(state, PLAY, action)
        return _play(state, seat, code_of(action.card), rng)
    if isinstance(action, ChooseRider):
        _expect(state, CHOOSE_RIDER, action)
        return _choose(state, seat, action.choice, rng)
    if isinstance(action, Discard):
        _expect(state, DISCARD, action)
        return _discard(state, seat, action)
    if isinstance(action, EndTurn):
        _expect(state, DISCARD, action)
        hand = state.hands[seat]
        return tuple(_end_turn(state, seat, hand, state.piles, state.scores, state.scored, rng))
    raise IllegalAction(ILLEGAL, f"Unknown action {action!r}.", "unknown_action")


_WAITING_FOR: Final = {
    PLAY: "You must play a card first.",
    CHOOSE_RIDER: "You must first choose whether to keep your dragon or switch to the one you moved.",
    DISCARD: "You have played your card: discard summit cards or end your turn.",
}


def _expect(state: State, phase: str, action: Action) -> None:
    if state.phase != phase:
        raise IllegalAction(
            ILLEGAL, f"You cannot {action.TYPE} now. {_WAITING_FOR[state.phase]}", "wrong_phase"
        )


def _play(state: State, seat: int, code: int, rng: random.Random) -> tuple[Event, ...]:
    hand = state.hands[seat]
    if code not in hand:
        raise IllegalAction(ILLEGAL, f"You do not hold the card {CARDS[code]}.", "card_not_in_hand")
    d = code // MAX_VALUE
    positions = state.positions
    frm = positions[d]
    to = min(frm + VALUE_OF[code], state.track.last)  # movement beyond the last space is lost
    events: list[Event] = [CardPlayed(seat, CARDS[code], frm, to)]
    riders = state.riders
    if d in riders:
        owner = riders.index(d)
        result: Literal["under", "on_top"] = "on_top" if owner == seat else "under"
        settled = RiderSettled(
            seat, CARDS[code], "own" if owner == seat else "opponent", result, DRAGONS[riders[seat]]
        )
    elif frm == min(positions):  # unridden and last (ties count): the player chooses
        return tuple(events)
    else:
        settled = RiderSettled(seat, CARDS[code], "unridden", "switched", DRAGONS[d])
    events.append(settled)
    moved = (*positions[:d], to, *positions[d + 1 :])
    i = hand.index(code)
    _resolve(state, seat, code, settled.result, frm, moved, hand[:i] + hand[i + 1 :], rng, events)
    return tuple(events)


def _choose(state: State, seat: int, choice: str, rng: random.Random) -> tuple[Event, ...]:
    code = state.pending
    d = code // MAX_VALUE
    if choice == "keep":
        settled = RiderSettled(seat, CARDS[code], "last_place", "under", DRAGONS[state.riders[seat]])
    else:
        settled = RiderSettled(seat, CARDS[code], "last_place", "switched", DRAGONS[d])
    events: list[Event] = [settled]
    _resolve(
        state, seat, code, settled.result, state.pending_from, state.positions, state.hands[seat], rng, events
    )
    return tuple(events)


def _resolve(
    state: State,
    seat: int,
    code: int,
    result: str,
    frm: int,
    positions: tuple[int, ...],
    hand: tuple[int, ...],
    rng: random.Random,
    events: list[Event],
) -> None:
    """Score, then end the game or the turn (unless summit cards may be discarded), once the
    played card `code` is settled as `result`; `positions` and `hand` are as after the move."""
    d = code // MAX_VALUE
    riders, piles = state.riders, state.piles
    pile = piles[seat]
    if result == "switched":
        riders = (*riders[:seat], d, *riders[seat + 1 :])
    pile = (code, *pile) if result == "under" else (*pile, code)
    piles = (*piles[:seat], pile, *piles[seat + 1 :])

    track = state.track
    ss = track.summit_start
    scores = state.scores
    to = positions[d]
    kind = _scoring_kind(track.kinds[to], frm, to, ss)
    if kind is not None:
        table = track.small if kind == "blue" else track.large
        changes = _changes(state, tuple(table[positions[r]] for r in riders))
        events.append(Scored(kind, changes))
        scores = tuple(a + b for a, b in zip(scores, changes, strict=True))
        if kind == "summit" and sum(p >= ss for p in positions) >= SUMMIT_DRAGONS_TO_END:
            events.append(GameEnded(scores, winners(scores), "third_dragon_on_summit"))
            return
        scored = state.options.zero_scoring_counts or any(changes)
    else:
        scored = False
    if state.options.explicit_end_turn or any(positions[c // MAX_VALUE] >= ss for c in hand):
        return  # the player may discard summit cards, then ends the turn
    events.extend(_end_turn(state, seat, hand, piles, scores, scored, rng))


def _scoring_kind(kind: SpaceKind, frm: int, to: int, ss: int) -> Literal["blue", "green", "summit"] | None:
    if frm >= ss:  # already on the summit: moving there triggers nothing
        return None
    if to >= ss:
        return "summit"  # first entry into any summit space
    if kind is SpaceKind.BLUE:
        return "blue"
    if kind is SpaceKind.GREEN:
        return "green"
    return None


def _changes(state: State, raw: tuple[int, ...]) -> tuple[int, ...]:
    if not state.options.negative_floor:
        return raw
    # a negative change applies only if the total stays ≥ 0; otherwise the total is left unchanged
    return tuple(0 if c < 0 and t + c < 0 else c for c, t in zip(raw, state.scores, strict=True))


def _discard(state: State, seat: int, action: Discard) -> tuple[Event, ...]:
    if not action.cards:
        raise IllegalAction(ILLEGAL, "Name at least one card to discard.", "empty_discard")
    cs = tuple(sorted(code_of(c) for c in action.cards))
    for c in cs:
        if state.positions[c // MAX_VALUE] < state.track.summit_start:
            raise IllegalAction(
                ILLEGAL,
                f"You can only discard cards of dragons on the summit; the {DRAGONS[c // MAX_VALUE]} dragon "
                "is not there.",
                "dragon_not_on_summit",
            )
    if without(state.hands[seat], cs) is None:
        raise IllegalAction(ILLEGAL, "You do not hold all of these cards.", "card_not_in_hand")
    return (CardsDiscarded(seat, cards(cs)),)


class _Supply:
    """The draw pile and the cards a reshuffle would take, while one decision draws."""

    __slots__ = ("discards", "pile", "piles")

    def __init__(self, pile: tuple[int, ...], discards: tuple[int, ...], piles: tuple[tuple[int, ...], ...]):
        self.pile, self.discards, self.piles = pile, discards, piles

    def draw(self, seat: int, n: int, rng: random.Random, events: list[Event]) -> int:
        got = self.pile[:n]
        self.pile = self.pile[len(got) :]
        if got:
            events.append(CardsDrawn(seat, cards(got)))
        missing = n - len(got)
        if missing <= 0:
            return len(got)
        pool = [c for p in self.piles for c in p[:-1]]  # rider piles give all but their top card
        if RESHUFFLE_SUMMIT_DISCARDS:
            pool.extend(self.discards)
            self.discards = ()
        if not pool:
            return len(got)  # draw what exists
        rng.shuffle(pool)
        events.append(DrawPileReshuffled(cards(pool), RESHUFFLE_SUMMIT_DISCARDS))
        self.piles = tuple(p[-1:] for p in self.piles)
        more, self.pile = tuple(pool[:missing]), tuple(pool[missing:])
        if more:
            events.append(CardsDrawn(seat, cards(more)))
        return len(got) + len(more)


def _end_turn(
    state: State,
    seat: int,
    hand: tuple[int, ...],
    piles: tuple[tuple[int, ...], ...],
    scores: tuple[int, ...],
    scored: bool,
    rng: random.Random,
) -> list[Event]:
    """The draw step, then the turn passes to the next seat that can play (docs/rules.md §1.4.5, §1.4.7).

    `hand`, `piles` and `scores` are as the turn left them (they may not be folded into `state` yet).
    """
    events: list[Event] = []
    supply = _Supply(state.draw_pile, state.discard_pile, piles)
    if not scored:
        need = HAND_SIZE - len(hand)
    elif not hand and (state.options.refill_after_discard_empty or not state.discarded):
        need = HAND_SIZE
    else:
        need = 0
    sizes = [len(h) for h in state.hands]
    sizes[seat] = len(hand) + (supply.draw(seat, need, rng, events) if need > 0 else 0)
    n = state.players
    nxt = (seat + 1) % n
    events.append(TurnEnded(seat, nxt))
    for _ in range(n):
        if sizes[nxt] or supply.draw(nxt, HAND_SIZE, rng, events):
            return events
        after = (nxt + 1) % n
        events.append(TurnPassed(nxt, after))
        nxt = after
    events.append(GameEnded(scores, winners(scores), "no_player_can_play"))
    return events


def _distinct(hand: tuple[int, ...]) -> list[int]:
    """Distinct codes of a sorted hand."""
    out: list[int] = []
    last = -1
    for c in hand:
        if c != last:
            out.append(c)
            last = c
    return out
