"""The rest of a turn (docs/rules.md §1.4.4–§1.4.7): discards, the draw rule, reshuffles, passes, the end."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from app.games.core import ErrorCode, IllegalAction
from app.games.mount_drago import GAME, rules
from app.games.mount_drago.actions import Discard, EndTurn, Play
from app.games.mount_drago.cards import Card, code_of
from app.games.mount_drago.events import (
    CardsDiscarded,
    CardsDrawn,
    DrawPileReshuffled,
    GameEnded,
    Scored,
    TurnEnded,
    TurnPassed,
)
from app.games.mount_drago.state import DISCARD, OVER, PLAY, State
from tests.mount_drago.helpers import act, at, card, hands, of_type, riders_state, two_players, types

Y4, Y3, Y2 = card("yellow", 4), card("yellow", 3), card("yellow", 2)


def _summit_hand(*extra: object) -> State:
    """Seat 0 (red on 9) holds two yellow 3s, a yellow 2 and red cards; yellow is on the summit."""
    hand = [Y3, Y3, Y2, card("red", 1), card("red", 2), card("black", 4)]
    return at(two_players(hand), red=9, blue=10, yellow=28)


# --- discards -----------------------------------------------------------------------------------


def test_discard_step_is_offered_and_optional() -> None:
    events, state = act(_summit_hand(), 0, Play(card("red", 1)))  # plain 6: no scoring
    assert state.phase == DISCARD and types(events) == ["card_played", "rider_settled"]
    assert GAME.legal_actions(state, 0) == (
        Discard((Y2,)),
        Discard((Y3,)),
        EndTurn(),
    )  # one per distinct card
    assert GAME.legal_actions(state, 1) == ()
    events, after = act(state, 0, EndTurn())  # keeping them is legal
    assert types(events) == ["cards_drawn", "turn_ended"]
    assert Counter(after.hands[0])[code_of(Y3)] == 2 and len(after.hands[0]) == 6


def test_several_cards_at_once_and_one_at_a_time() -> None:
    _, state = act(_summit_hand(), 0, Play(card("red", 1)))
    events, state = act(state, 0, Discard((Y3, Y3)))  # a multiset at once
    assert events == (CardsDiscarded(0, (Y3, Y3)),)
    assert GAME.legal_actions(state, 0) == (Discard((Y2,)), EndTurn())
    _, state = act(state, 0, Discard((Y2,)))
    assert GAME.legal_actions(state, 0) == (EndTurn(),)  # the turn still ends with end_turn
    assert state.discard_pile == tuple(code_of(c) for c in (Y3, Y3, Y2))
    events, state = act(state, 0, EndTurn())
    assert len(of_type(events, CardsDrawn)[0].cards) == 4  # no scoring: 2 cards back to 6


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ((card("red", 2),), "dragon_not_on_summit"),
        ((Y2, card("black", 4)), "dragon_not_on_summit"),
        ((Y4,), "card_not_in_hand"),
        ((Y2, Y2), "card_not_in_hand"),
        ((), "empty_discard"),
    ],
)
def test_illegal_discards(cards: tuple[Card, ...], reason: str) -> None:
    _, state = act(_summit_hand(), 0, Play(card("red", 1)))
    with pytest.raises(IllegalAction) as e:
        GAME.decide(state, 0, Discard(cards), random.Random(0))
    assert (e.value.code, e.value.reason) == (ErrorCode.ILLEGAL_ACTION, reason)


def test_no_discardable_card_ends_the_turn_by_itself() -> None:
    state = at(two_players([card("red", 1)] * 2 + [card("gray", 3)] * 4), red=9, yellow=28)
    events, after = act(state, 0, Play(card("red", 1)))
    assert isinstance(events[-1], TurnEnded) and after.phase == PLAY and after.current == 1


# --- the draw rule ------------------------------------------------------------------------------


def test_scoring_means_no_draw() -> None:
    state = at(two_players([card("red", 1)] * 2 + [card("gray", 3)] * 4), red=2)  # 2 → 3, blue
    events, after = act(state, 0, Play(card("red", 1)))
    assert types(events) == ["card_played", "rider_settled", "scored", "turn_ended"]
    assert len(after.hands[0]) == 5


def test_hand_emptied_by_playing_is_refilled_after_a_scoring() -> None:
    state = hands(at(two_players([card("red", 1)] * 6), red=2), [card("red", 1)], [card("gray", 1)])
    top = state.draw_pile[:6]
    events, after = act(state, 0, Play(card("red", 1)))
    assert types(events) == ["card_played", "rider_settled", "scored", "cards_drawn", "turn_ended"]
    assert after.hands[0] == tuple(sorted(top)) and after.draw_pile == state.draw_pile[6:]


@pytest.mark.parametrize("refill", [True, False])
def test_hand_emptied_by_discarding_after_a_scoring(refill: bool) -> None:
    start = two_players([Y2] * 6, refill_after_discard_empty=refill)
    state = hands(at(start, red=2, yellow=28), [card("red", 1), Y2, Y3], [card("gray", 1)])
    events, state = act(state, 0, Play(card("red", 1)))
    assert of_type(events, Scored) and state.phase == DISCARD
    _, state = act(state, 0, Discard((Y2, Y3)))
    events, after = act(state, 0, EndTurn())
    assert types(events) == (["cards_drawn", "turn_ended"] if refill else ["turn_ended"])
    assert len(after.hands[0]) == (6 if refill else 0)


# --- reshuffles ---------------------------------------------------------------------------------


def _empty_pile() -> State:
    """Draw pile empty; seat 0's pile: blue 1, black 2 under its red 3; seat 1's: green 1 under blue 1."""
    state = at(two_players([card("red", 1)] * 2 + [card("gray", 3)] * 3 + [card("black", 1)]), red=9)
    piles = (tuple(code_of(c) for c in (card("blue", 2), card("black", 2), card("red", 3))),
             tuple(code_of(c) for c in (card("green", 1), card("blue", 1))))  # fmt: skip
    return replace(state, draw_pile=(), piles=piles, discard_pile=(code_of(Y4), code_of(Y2)))


def test_reshuffle_takes_summit_discards_and_all_but_the_rider_tops() -> None:
    state = _empty_pile()
    events, after = act(state, 0, Play(card("red", 1)), seed=7)  # own dragon: red 1 goes on top
    assert types(events) == [
        "card_played",
        "rider_settled",
        "draw_pile_reshuffled",
        "cards_drawn",
        "turn_ended",
    ]
    reshuffled = of_type(events, DrawPileReshuffled)[0]
    expected = [card("blue", 2), card("black", 2), card("red", 3), card("green", 1), Y4, Y2]
    assert Counter(reshuffled.draw_pile) == Counter(expected) and reshuffled.summit_discards
    assert of_type(events, CardsDrawn)[0].cards == reshuffled.draw_pile[:1]
    assert after.piles == ((code_of(card("red", 1)),), (code_of(card("blue", 1)),))  # the tops stay
    assert after.discard_pile == () and len(after.draw_pile) == 5
    assert events != GAME.decide(state, 0, Play(card("red", 1)), random.Random(8))  # the order is random


def test_reshuffle_in_the_middle_of_a_draw() -> None:
    state = replace(_empty_pile(), draw_pile=(code_of(card("orange", 5)),))
    _, state = act(state, 0, Play(card("red", 1)))
    # that turn drew the last card, so the pile is empty again; discard two, draw three
    state = replace(state, draw_pile=(code_of(card("orange", 4)),), phase=DISCARD, current=0)
    state = hands(
        at(state, gray=28), [card("gray", 3), card("gray", 3), card("black", 1)], [card("green", 2)]
    )
    _, state = act(state, 0, Discard((card("gray", 3), card("gray", 3))))
    events, after = act(state, 0, EndTurn())
    assert types(events) == ["cards_drawn", "draw_pile_reshuffled", "cards_drawn", "turn_ended"]
    first, second = of_type(events, CardsDrawn)
    assert first.cards == (card("orange", 4),) and len(second.cards) == 4
    assert len(after.hands[0]) == 6


def test_summit_discards_stay_out_when_the_decision_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "RESHUFFLE_SUMMIT_DISCARDS", False)
    events, after = act(_empty_pile(), 0, Play(card("red", 1)))
    reshuffled = of_type(events, DrawPileReshuffled)[0]
    assert Counter(reshuffled.draw_pile) == Counter(
        [card("blue", 2), card("black", 2), card("red", 3), card("green", 1)]
    )
    assert not reshuffled.summit_discards and after.discard_pile == (code_of(Y4), code_of(Y2))


def test_draw_what_exists() -> None:
    state = replace(
        _empty_pile(), discard_pile=(), piles=((code_of(card("red", 3)),), (code_of(card("blue", 1)),))
    )
    events, after = act(state, 0, Play(card("red", 1)))  # only the red 3 under the new top can come back
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, (card("red", 3),))]
    assert len(after.hands[0]) == 6 and after.draw_pile == ()


# --- passes and the end -------------------------------------------------------------------------


def _nothing_to_draw(*per_seat: list[Card]) -> State:
    state = riders_state([card("red", 3), card("blue", 1), card("black", 1)])
    state = hands(state, *per_seat)
    return replace(state, draw_pile=(), phase=DISCARD, scored=True)


def test_empty_hand_and_nothing_to_draw_passes() -> None:
    state = _nothing_to_draw([card("red", 1)], [], [card("gray", 1)])
    events, after = act(state, 0, EndTurn())
    assert events == (TurnEnded(0, 1), TurnPassed(1, 2))
    assert after.current == 2 and GAME.to_act(after) == (2,)


def test_empty_hand_at_the_start_of_a_turn_draws_when_it_can() -> None:
    state = replace(
        _nothing_to_draw([card("red", 1)], [], [card("gray", 1)]), draw_pile=(code_of(card("orange", 2)),)
    )
    events, after = act(state, 0, EndTurn())
    assert events == (TurnEnded(0, 1), CardsDrawn(1, (card("orange", 2),)))
    assert after.current == 1 and GAME.legal_actions(after, 1) == (Play(card("orange", 2)),)


def test_game_ends_when_no_player_can_play() -> None:
    state = replace(_nothing_to_draw([], [], []), scores=(3, 5, 5))
    events, after = act(state, 0, EndTurn())
    assert events == (
        TurnEnded(0, 1),
        TurnPassed(1, 2),
        TurnPassed(2, 0),
        TurnPassed(0, 1),
        GameEnded((3, 5, 5), (1, 2), "no_player_can_play"),
    )
    assert GAME.outcome(after) is not None and GAME.to_act(after) == ()


def _third_dragon(
    scores: tuple[int, int], hand: tuple[Card, ...] = (card("red", 2), Y2, Y3, card("gray", 3))
) -> State:
    state = at(two_players(list(hand)), red=25, blue=10, yellow=28, green=30)
    return replace(state, scores=scores)


@pytest.mark.parametrize("hand", [(card("red", 2), Y2, Y3, card("gray", 3)), (card("red", 2),)])
def test_third_dragon_on_the_summit_ends_the_game_at_once(hand: tuple[Card, ...]) -> None:
    # with summit cards in hand there is no discard step; with an empty hand there is no refill
    state = _third_dragon((0, 10), hand)
    events, after = act(state, 0, Play(card("red", 2)))  # red 25 → 27: the third dragon up there
    assert types(events) == ["card_played", "rider_settled", "scored", "game_ended"]
    assert events[-1] == GameEnded((4, 16), (1,), "third_dragon_on_summit")
    assert after.phase == OVER and GAME.legal_actions(after, 0) == () and GAME.to_act(after) == ()
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.scores == (4, 16) and outcome.winners == (1,)
    assert len(after.hands[0]) == len(hand) - 1


def test_second_dragon_on_the_summit_does_not_end_it() -> None:
    state = at(_third_dragon((0, 0)), green=10)
    events, after = act(state, 0, Play(card("red", 2)))
    assert of_type(events, Scored)[0].kind == "summit" and after.phase == DISCARD  # yellow cards may go


def test_tied_players_share_the_win() -> None:
    events, after = act(_third_dragon((6, 4)), 0, Play(card("red", 2)))
    assert events[-1] == GameEnded((10, 10), (0, 1), "third_dragon_on_summit")
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == (0, 1)


def test_one_play_per_distinct_card() -> None:
    state = two_players([Y3, Y3, Y2, card("red", 1), card("red", 1), card("blue", 5)])
    assert GAME.legal_actions(state, 0) == (
        Play(card("blue", 5)),
        Play(card("red", 1)),
        Play(card("yellow", 2)),
        Play(card("yellow", 3)),
    )
    assert GAME.legal_actions(state, 1) == ()
