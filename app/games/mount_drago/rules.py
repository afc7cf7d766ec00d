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
from app.games.core import ErrorCode, IllegalAction, Outcome
from app.games.mount_drago.actions import Action, ChooseRider, Discard, EndTurn, Play
from app.games.mount_drago.cards import CARDS, DRAGONS, HAND_SIZE, MAX_VALUE, VALUE_OF, cards, code_of
from app.games.mount_drago.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    DrawPileReshuffled,
    EndReason,
    Event,
    GameEnded,
    RiderSettled,
    Scored,
    TurnEnded,
    TurnPassed,
)
from app.games.mount_drago.state import (
    CHOOSE_RIDER,
    DISCARD,
    OVER,
    PLAY,
    Draft,
    State,
    add_scores,
    discard_cards,
    draw_cards,
    end_game,
    freeze,
    pass_turn,
    play_card,
    reshuffle,
    settle_rider,
    thaw,
    without,
)
from app.games.mount_drago.track import SpaceKind

# Decision (docs/rules.md §1.4.5): the summit discard pile joins the reshuffled draw pile.
RESHUFFLE_SUMMIT_DISCARDS: Final = True
SUMMIT_DRAGONS_TO_END: Final = 3  # the game ends when the third dragon reaches the summit

_BLUE: Final = SpaceKind.BLUE  # module constants: reading a member off an enum class is slower
_GREEN: Final = SpaceKind.GREEN
PLAYS: Final = tuple(Play(c) for c in CARDS)  # legal actions are shared objects, indexed by code
DISCARD_ONE: Final = tuple(Discard((c,)) for c in CARDS)
END_TURN: Final = EndTurn()
CHOICES: Final = (ChooseRider("keep"), ChooseRider("switch"))
for _cls in (Play, Discard, EndTurn, ChooseRider):
    encode_once(_cls)  # so every view's legal_actions reuse their JSON


def to_act(state: State) -> tuple[int, ...]:
    return () if state.phase == OVER else (state.current,)


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    if seat != state.current or state.phase == OVER:
        return ()
    if state.phase == PLAY:
        return tuple(map(PLAYS.__getitem__, dict.fromkeys(state.hands[seat])))  # hands are sorted
    if state.phase == CHOOSE_RIDER:
        return CHOICES
    ss, pos = state.track.summit_start, state.positions
    found = [DISCARD_ONE[c] for c in dict.fromkeys(state.hands[seat]) if pos[c // MAX_VALUE] >= ss]
    return (*found, END_TURN)


def finish_action(state: State, seat: int) -> Action | None:
    """`end_turn` when `seat` may end its turn now (the discard step), else None."""
    return END_TURN if state.phase == DISCARD and seat == state.current else None


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
    log: list[Event] = []
    _act(thaw(state), seat, action, rng, log)
    return tuple(log)


def advance(
    state: State, seat: int, action: Action, rng: random.Random, log: list[Event] | None = None
) -> State:
    """The state after `seat`'s `action`: `decide` and `evolve` in one go (the same checks, the
    same dice, the same state as folding the events), appending the events to `log` when one is
    given; without a log none are built, which is what playouts and searches want."""
    draft = thaw(state)
    _act(draft, seat, action, rng, log)
    return freeze(draft)


def _act(d: Draft, seat: int, action: Action, rng: random.Random, log: list[Event] | None) -> None:
    if d.phase == OVER:
        raise IllegalAction(ErrorCode.MATCH_OVER, "The game is over.", "game_over")
    if seat != d.current:
        raise IllegalAction(ErrorCode.NOT_YOUR_TURN, f"It is seat {d.current}'s turn, not yours.")
    if isinstance(action, Play):
        if d.phase != PLAY:  # the common case without a call
            _expect(d, PLAY, action)
        _play(d, seat, code_of(action.card), rng, log)
    elif isinstance(action, ChooseRider):
        _expect(d, CHOOSE_RIDER, action)
        _settle(
            d, seat, d.pending, "last_place", "under" if action.choice == "keep" else "switched", rng, log
        )
    elif isinstance(action, Discard):
        _expect(d, DISCARD, action)
        _discard(d, seat, action, log)
    elif isinstance(action, EndTurn):
        _expect(d, DISCARD, action)
        _end_turn(d, seat, rng, log)
    else:
        raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"Unknown action {action!r}.", "unknown_action")


_WAITING_FOR: Final = {
    PLAY: "You must play a card first.",
    CHOOSE_RIDER: "You must first choose whether to keep your dragon or switch to the one you moved.",
    DISCARD: "You have played your card: discard summit cards or end your turn.",
}


def _expect(d: Draft, phase: str, action: Action) -> None:
    if d.phase != phase:
        raise IllegalAction(
            ErrorCode.ILLEGAL_ACTION, f"You cannot {action.TYPE} now. {_WAITING_FOR[d.phase]}", "wrong_phase"
        )


def _play(d: Draft, seat: int, code: int, rng: random.Random, log: list[Event] | None) -> None:
    if code not in d.hands[seat]:
        raise IllegalAction(
            ErrorCode.ILLEGAL_ACTION, f"You do not hold the card {CARDS[code]}.", "card_not_in_hand"
        )
    dragon = code // MAX_VALUE
    positions = d.positions
    frm = positions[dragon]
    last = frm == min(positions)  # before the move (ties count)
    to = min(frm + VALUE_OF[code], d.track.last)  # movement beyond the last space is lost
    if log is not None:
        log.append(CardPlayed(seat, CARDS[code], frm, to))
    play_card(d, seat, code, frm, to)
    riders = d.riders
    if dragon in riders:
        own = riders.index(dragon) == seat
        _settle(d, seat, code, "own" if own else "opponent", "on_top" if own else "under", rng, log)
    elif not last:
        _settle(d, seat, code, "unridden", "switched", rng, log)
    # else: unridden and last, the player chooses (`choose_rider`)


def _settle(
    d: Draft,
    seat: int,
    code: int,
    reason: Literal["opponent", "own", "unridden", "last_place"],
    result: Literal["under", "on_top", "switched"],
    rng: random.Random,
    log: list[Event] | None,
) -> None:
    """Settle the played card `code` as `result`, score, then end the game or the turn (unless
    summit cards may be discarded)."""
    if log is not None:
        rider = code // MAX_VALUE if result == "switched" else d.riders[seat]
        log.append(RiderSettled(seat, CARDS[code], reason, result, DRAGONS[rider]))
    settle_rider(d, seat, code, result)
    positions = d.positions
    track = d.track
    ss = track.summit_start
    to = positions[code // MAX_VALUE]
    kind = _scoring_kind(track.kinds[to], d.pending_from, to, ss)
    if kind is not None:
        table = track.small if kind == "blue" else track.large
        changes = _changes(d, tuple([table[positions[r]] for r in d.riders]))
        if log is not None:
            log.append(Scored(kind, changes))
        add_scores(d, changes)
        if kind == "summit" and sum(p >= ss for p in positions) >= SUMMIT_DRAGONS_TO_END:
            _end_game(d, "third_dragon_on_summit", log)
            return
    if d.options.explicit_end_turn or (
        max(positions) >= ss  # no dragon on the summit (most of a game): no hand to look through
        and any(positions[c // MAX_VALUE] >= ss for c in d.hands[seat])
    ):
        return  # the player may discard summit cards, then ends the turn
    _end_turn(d, seat, rng, log)


def _scoring_kind(kind: SpaceKind, frm: int, to: int, ss: int) -> Literal["blue", "green", "summit"] | None:
    if frm >= ss:  # already on the summit: moving there triggers nothing
        return None
    if to >= ss:
        return "summit"  # first entry into any summit space
    if kind is _BLUE:
        return "blue"
    if kind is _GREEN:
        return "green"
    return None


def _changes(d: Draft, raw: tuple[int, ...]) -> tuple[int, ...]:
    if not d.options.negative_floor:
        return raw
    # a negative change applies only if the total stays ≥ 0; otherwise the total is left unchanged
    return tuple([0 if c < 0 and t + c < 0 else c for c, t in zip(raw, d.scores, strict=True)])


def _end_game(d: Draft, reason: EndReason, log: list[Event] | None) -> None:
    if log is not None:
        log.append(GameEnded(d.scores, winners(d.scores), reason))
    end_game(d, reason)


def _discard(d: Draft, seat: int, action: Discard, log: list[Event] | None) -> None:
    if not action.cards:
        raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "Name at least one card to discard.", "empty_discard")
    cs = tuple(sorted(code_of(c) for c in action.cards))
    for c in cs:
        if d.positions[c // MAX_VALUE] < d.track.summit_start:
            raise IllegalAction(
                ErrorCode.ILLEGAL_ACTION,
                f"You can only discard cards of dragons on the summit; the {DRAGONS[c // MAX_VALUE]} dragon "
                "is not there.",
                "dragon_not_on_summit",
            )
    hand = without(d.hands[seat], cs)
    if hand is None:
        raise IllegalAction(
            ErrorCode.ILLEGAL_ACTION, "You do not hold all of these cards.", "card_not_in_hand"
        )
    if log is not None:
        log.append(CardsDiscarded(seat, cards(cs)))
    discard_cards(d, seat, hand, cs)


def _draw(d: Draft, seat: int, n: int, rng: random.Random, log: list[Event] | None) -> int:
    """`seat` draws up to `n` cards, reshuffling when the pile runs out; how many it got."""
    got = d.draw_pile[:n]
    if got:
        if log is not None:
            log.append(CardsDrawn(seat, cards(got)))
        draw_cards(d, seat, got)
    missing = n - len(got)
    if missing <= 0:
        return len(got)
    pool = [c for p in d.piles for c in p[:-1]]  # rider piles give all but their top card
    if RESHUFFLE_SUMMIT_DISCARDS:
        pool.extend(d.discard_pile)
    if not pool:
        return len(got)  # draw what exists
    pool.sort()  # canonical order first: the shuffle alone decides the new pile (docs/fairness.md)
    rng.shuffle(pool)
    if log is not None:
        log.append(DrawPileReshuffled(cards(pool), RESHUFFLE_SUMMIT_DISCARDS))
    reshuffle(d, tuple(pool), RESHUFFLE_SUMMIT_DISCARDS)
    more = d.draw_pile[:missing]
    if more:
        if log is not None:
            log.append(CardsDrawn(seat, cards(more)))
        draw_cards(d, seat, more)
    return len(got) + len(more)


def _end_turn(d: Draft, seat: int, rng: random.Random, log: list[Event] | None) -> None:
    """The draw step, then the turn passes to the next seat that can play (docs/rules.md §1.4.5, §1.4.7)."""
    hand = d.hands[seat]
    if not d.scored:
        need = HAND_SIZE - len(hand)
    elif not hand and (d.options.refill_after_discard_empty or not d.discarded):
        need = HAND_SIZE
    else:
        need = 0
    if need > 0:
        _draw(d, seat, need, rng, log)
    n = d.players
    nxt = (seat + 1) % n
    if log is not None:
        log.append(TurnEnded(seat, nxt))
    pass_turn(d, nxt)
    for _ in range(n):
        if d.hands[nxt] or _draw(d, nxt, HAND_SIZE, rng, log):
            return
        after = (nxt + 1) % n
        if log is not None:
            log.append(TurnPassed(nxt, after))
        pass_turn(d, after)
        nxt = after
    _end_game(d, "no_player_can_play", log)
