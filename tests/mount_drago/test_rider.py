"""The four rider cases of docs/rules.md §1.4.2, including the separate keep-or-switch decision."""

from __future__ import annotations

import random

import pytest

from app.games.core import IllegalAction
from app.games.mount_drago import GAME
from app.games.mount_drago.actions import ChooseRider, Play
from app.games.mount_drago.cards import Dragon, code_of
from app.games.mount_drago.events import CardPlayed, RiderSettled, Scored
from app.games.mount_drago.state import CHOOSE_RIDER, State
from tests.mount_drago.helpers import act, at, card, of_type, two_players, types

HAND = [
    card("blue", 1),
    card("red", 1),
    card("black", 1),
    card("yellow", 2),
    card("green", 2),
    card("gray", 4),
]
RED_RIDER, BLUE_RIDER = code_of(card("red", 3)), code_of(card("blue", 1))
BLACK = list(Dragon).index(Dragon.BLACK)
RED = list(Dragon).index(Dragon.RED)


def _spread() -> State:
    """Every dragon off the start, black alone in front of the last ones."""
    return at(two_players(HAND), rest=6, red=3, blue=4, black=5, brown=2, yellow=2)


def test_opponents_dragon_goes_under_your_pile() -> None:
    events, after = act(_spread(), 0, Play(card("blue", 1)))
    assert of_type(events, RiderSettled) == [
        RiderSettled(0, card("blue", 1), "opponent", "under", Dragon.RED)
    ]
    assert after.piles[0] == (code_of(card("blue", 1)), RED_RIDER)
    assert after.piles[1] == (BLUE_RIDER,)
    assert after.riders == (RED, list(Dragon).index(Dragon.BLUE))


def test_own_dragon_goes_on_top() -> None:
    events, after = act(_spread(), 0, Play(card("red", 1)))
    assert of_type(events, RiderSettled) == [RiderSettled(0, card("red", 1), "own", "on_top", Dragon.RED)]
    assert after.piles[0] == (RED_RIDER, code_of(card("red", 1)))
    assert after.riders[0] == RED


def test_unridden_dragon_not_last_switches() -> None:
    events, after = act(_spread(), 0, Play(card("black", 1)))  # black on 5, brown and yellow on 2
    assert of_type(events, RiderSettled) == [
        RiderSettled(0, card("black", 1), "unridden", "switched", Dragon.BLACK)
    ]
    assert after.piles[0] == (RED_RIDER, code_of(card("black", 1)))
    assert after.riders[0] == BLACK
    assert RED not in after.riders  # red is free again


def test_last_place_counts_all_ten_dragons_not_only_unridden_ones() -> None:
    # black is the rearmost *unridden* dragon, but ridden red stands behind it: no choice
    state = at(_spread(), brown=6, yellow=6, red=1)
    events, after = act(state, 0, Play(card("black", 1)))
    assert types(events)[:2] == ["card_played", "rider_settled"]
    assert after.riders[0] == BLACK


def _last_place_move(state: State) -> State:
    events, after = act(state, 0, Play(card("yellow", 2)))
    assert events == (CardPlayed(0, card("yellow", 2), state.positions[4], state.positions[4] + 2),)
    assert after.phase == CHOOSE_RIDER and GAME.to_act(after) == (0,)
    assert GAME.legal_actions(after, 0) == (ChooseRider("keep"), ChooseRider("switch"))
    assert GAME.legal_actions(after, 1) == ()
    return after


@pytest.mark.parametrize("where", ["tied_with_brown", "all_on_start"])
def test_unridden_last_dragon_keep(where: str) -> None:
    state = _spread() if where == "tied_with_brown" else two_players(HAND)  # ties count for last
    after = _last_place_move(state)
    events, after = act(after, 0, ChooseRider("keep"))
    assert events[0] == RiderSettled(0, card("yellow", 2), "last_place", "under", Dragon.RED)
    assert after.piles[0] == (code_of(card("yellow", 2)), RED_RIDER) and after.riders[0] == RED


@pytest.mark.parametrize("where", ["tied_with_brown", "all_on_start"])
def test_unridden_last_dragon_switch(where: str) -> None:
    state = _spread() if where == "tied_with_brown" else two_players(HAND)
    after = _last_place_move(state)
    events, after = act(after, 0, ChooseRider("switch"))
    assert events[0] == RiderSettled(0, card("yellow", 2), "last_place", "switched", Dragon.YELLOW)
    assert after.piles[0] == (RED_RIDER, code_of(card("yellow", 2)))
    assert after.riders[0] == list(Dragon).index(Dragon.YELLOW)


def test_ridden_last_dragon_gives_no_choice() -> None:
    # red (ridden by seat 0) is alone in last place; moving it is still just "own dragon"
    state = at(_spread(), red=1)
    events, _ = act(state, 0, Play(card("red", 1)))
    assert of_type(events, RiderSettled)[0].reason == "own"


def test_choice_must_come_before_anything_else() -> None:
    after = _last_place_move(_spread())
    with pytest.raises(IllegalAction) as e:
        GAME.decide(after, 0, Play(card("red", 1)), random.Random(0))
    assert e.value.reason == "wrong_phase"


@pytest.mark.parametrize(("choice", "mine"), [(ChooseRider("switch"), 4), (ChooseRider("keep"), 6)])
def test_scoring_uses_the_rider_decision(choice: ChooseRider, mine: int) -> None:
    # red (seat 0) on a 6, blue (seat 1) on a 1; black is last on 5 and moves onto the green 4
    state = at(two_players(HAND[:4] + [card("black", 2)] * 2), rest=6, red=10, blue=9, black=5)
    _, state = act(state, 0, Play(card("black", 2)))
    events, _ = act(state, 0, choice)
    assert of_type(events, Scored) == [Scored("green", (mine, 1))]
