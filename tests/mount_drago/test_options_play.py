"""The options that settle the rulebooks' unclear points change play as documented (docs/rules.md):
`explicit_end_turn`, `zero_scoring_counts` and `refill_after_discard_empty` (the last one also in
test_turn), each against its default; plus `is_barrier` and `finish_action` for the match layer."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.games.mount_drago import GAME
from app.games.mount_drago.actions import ChooseRider, Discard, EndTurn, Play
from app.games.mount_drago.events import EVENT_TYPES, CardsDrawn, GameEnded, Scored, TurnEnded
from app.games.mount_drago.state import CHOOSE_RIDER, DISCARD, OVER, PLAY, State
from tests.mount_drago.helpers import act, at, card, of_type, two_players, types

PLAIN_MOVE = [card("red", 1)] * 2 + [card("gray", 3)] * 4  # red 9 → 10: a plain space, no summit cards


def _plain(**options: Any) -> State:
    return at(two_players(PLAIN_MOVE, **options), red=9, blue=10)


# --- explicit_end_turn ----------------------------------------------------------------------------


def test_by_default_a_turn_without_discards_ends_by_itself() -> None:
    events, after = act(_plain(), 0, Play(card("red", 1)))
    assert types(events) == ["card_played", "rider_settled", "cards_drawn", "turn_ended"]
    assert after.current == 1


def test_explicit_end_turn_keeps_the_turn_open_until_end_turn() -> None:
    events, state = act(_plain(explicit_end_turn=True), 0, Play(card("red", 1)))
    assert types(events) == ["card_played", "rider_settled"]  # no draw, no turn end
    assert state.phase == DISCARD and state.current == 0
    assert GAME.legal_actions(state, 0) == (EndTurn(),)  # nothing to discard, end_turn still legal
    assert GAME.finish_action(state, 0) == EndTurn() and GAME.finish_action(state, 1) is None
    events, after = act(state, 0, EndTurn())
    assert types(events) == ["cards_drawn", "turn_ended"]  # the draw happens at end_turn
    assert len(after.hands[0]) == 6 and after.current == 1 and after.phase == PLAY


def test_explicit_end_turn_after_a_rider_choice_and_a_scoring() -> None:
    # gray is unridden and last: the player chooses; landing on the blue 3 scores, so no draw
    state = at(two_players([card("gray", 2)] * 6, explicit_end_turn=True), rest=10, gray=1, red=9)
    events, state = act(state, 0, Play(card("gray", 2)))
    assert state.phase == CHOOSE_RIDER and GAME.finish_action(state, 0) is None
    events, state = act(state, 0, ChooseRider("keep"))
    assert types(events) == ["rider_settled", "scored"] and state.phase == DISCARD
    events, after = act(state, 0, EndTurn())
    assert types(events) == ["turn_ended"] and len(after.hands[0]) == 5


def test_explicit_end_turn_still_ends_the_game_at_once() -> None:
    hand = [card("red", 2), card("yellow", 2)]
    state = at(two_players(hand, explicit_end_turn=True), red=25, blue=10, yellow=28, green=30)
    events, after = act(state, 0, Play(card("red", 2)))
    assert isinstance(events[-1], GameEnded) and after.phase == OVER
    assert GAME.finish_action(after, 0) is None


# --- zero_scoring_counts --------------------------------------------------------------------------


def _scoring_nobody_gains(**options: Any) -> State:
    """Gray (unridden, last) moves onto a blue 3 while both riders stand on spaces worth more than 3
    (red on a 6, blue on a 5): the small scoring changes nobody's total."""
    state = at(two_players([card("gray", 2)] * 6, **options), rest=10, gray=9, blue=13)
    _, state = act(state, 0, Play(card("gray", 2)))
    assert state.phase == CHOOSE_RIDER
    return state


@pytest.mark.parametrize(("counts", "drawn"), [(True, 0), (False, 1)])
def test_a_scoring_that_changes_no_total(counts: bool, drawn: int) -> None:
    events, after = act(_scoring_nobody_gains(zero_scoring_counts=counts), 0, ChooseRider("keep"))
    assert of_type(events, Scored) == [Scored("blue", (0, 0))]  # the scoring is reported either way
    assert [len(e.cards) for e in of_type(events, CardsDrawn)] == [drawn] * drawn
    assert len(after.hands[0]) == (5 if counts else 6)
    assert isinstance(events[-1], TurnEnded)


def test_a_scoring_that_changes_a_total_always_counts() -> None:
    state = at(two_players([card("gray", 2)] * 6, zero_scoring_counts=False), rest=10, gray=9, blue=12)
    _, state = act(state, 0, Play(card("gray", 2)))
    events, after = act(state, 0, ChooseRider("keep"))  # blue stands on a 2
    assert of_type(events, Scored) == [Scored("blue", (0, 2))] and len(after.hands[0]) == 5


def test_a_zero_scoring_then_discards_to_an_empty_hand_refills_only_by_the_refill_rule() -> None:
    # with zero_scoring_counts off the turn counts as unscored, so a discard-emptied hand refills
    state = at(
        two_players(
            [card("gray", 2), card("yellow", 1)], zero_scoring_counts=False, refill_after_discard_empty=False
        ),
        rest=10,
        gray=9,
        blue=13,
        yellow=28,
    )
    _, state = act(state, 0, Play(card("gray", 2)))
    _, state = act(state, 0, ChooseRider("keep"))
    _, state = act(state, 0, Discard((card("yellow", 1),)))
    events, after = act(state, 0, EndTurn())
    assert types(events) == ["cards_drawn", "turn_ended"] and len(after.hands[0]) == 6


# --- barriers and finish_action -------------------------------------------------------------------


def test_barriers_are_declared_per_event() -> None:
    barriers = {name for name, cls in EVENT_TYPES.items() if cls.BARRIER}
    assert barriers == {
        "game_started", "cards_drawn", "draw_pile_reshuffled", "turn_passed", "turn_ended", "game_ended"
    }  # fmt: skip
    events, state = act(_plain(explicit_end_turn=True), 0, Play(card("red", 1)))
    assert not any(GAME.is_barrier(state, e) for e in events)


def test_finish_action_only_in_the_discard_step_of_the_seat_on_turn() -> None:
    state = _plain()
    assert GAME.finish_action(state, 0) is None  # the card is not played yet
    assert GAME.finish_action(replace(state, phase=DISCARD), 0) == EndTurn()
    assert GAME.finish_action(replace(state, phase=DISCARD), 1) is None
