"""Actions the rules refuse, and malformed JSON actions (docs/rules.md §1.5; core error codes)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.codec import to_json
from app.games.core import DecodeError, ErrorCode, IllegalAction, decode_action
from app.games.mount_drago import GAME
from app.games.mount_drago.actions import Action, ChooseRider, Discard, EndTurn, Play
from app.games.mount_drago.state import CHOOSE_RIDER, DISCARD, OVER, PLAY, State
from tests.mount_drago.helpers import act, at, card, two_players

HAND = [
    card("red", 1),
    card("yellow", 2),
    card("yellow", 3),
    card("gray", 3),
    card("gray", 4),
    card("black", 5),
]


def _in(phase: str) -> State:
    state = at(two_players(HAND), red=4, yellow=28)
    if phase == CHOOSE_RIDER:
        _, state = act(state, 0, Play(card("gray", 3)))  # gray was last on the start
    elif phase == DISCARD:
        _, state = act(state, 0, Play(card("red", 1)))  # holds yellow cards, yellow is on the summit
    assert state.phase == phase
    return state


def _refused(state: State, seat: int, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        GAME.decide(state, seat, action, random.Random(0))
    return e.value


def test_card_not_in_hand() -> None:
    e = _refused(_in(PLAY), 0, Play(card("orange", 5)))
    assert (e.code, e.reason) == (ErrorCode.ILLEGAL_ACTION, "card_not_in_hand") and "orange 5" in e.message


def test_wrong_seat() -> None:
    for phase in (PLAY, CHOOSE_RIDER, DISCARD):
        e = _refused(_in(phase), 1, Play(card("green", 1)))
        assert e.code == ErrorCode.NOT_YOUR_TURN


@pytest.mark.parametrize(
    ("phase", "action"),
    [
        (PLAY, EndTurn()),
        (PLAY, Discard((card("yellow", 2),))),
        (PLAY, ChooseRider("keep")),
        (CHOOSE_RIDER, EndTurn()),
        (CHOOSE_RIDER, Discard((card("yellow", 2),))),
        (DISCARD, Play(card("yellow", 2))),
        (DISCARD, ChooseRider("switch")),
    ],
)
def test_wrong_phase(phase: str, action: Action) -> None:
    e = _refused(_in(phase), 0, action)
    assert (e.code, e.reason) == (ErrorCode.ILLEGAL_ACTION, "wrong_phase")


def test_after_the_game_is_over() -> None:
    state = at(two_players(HAND), red=26, yellow=28, green=30)
    _, over = act(state, 0, Play(card("red", 1)))
    assert over.phase == OVER
    for seat in (0, 1):
        e = _refused(over, seat, Play(card("yellow", 2)))
        assert e.code == ErrorCode.MATCH_OVER == ErrorCode("match_over")
    assert _refused(over, 0, EndTurn()).code == ErrorCode.MATCH_OVER


def test_actions_decode_from_json() -> None:
    for action in (
        Play(card("light_blue", 4)),
        ChooseRider("switch"),
        Discard((card("red", 1),) * 2),
        EndTurn(),
    ):
        assert decode_action(GAME, to_json(action)) == action
    assert to_json(Play(card("red", 3))) == {"type": "play", "card": {"dragon": "red", "value": 3}}


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"card": {"dragon": "red", "value": 3}},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": {"dragon": "pink", "value": 3}},
        {"type": "play", "card": {"dragon": "red", "value": 6}},
        {"type": "play", "card": {"dragon": "red", "value": 0}},
        {"type": "play", "card": {"dragon": "red", "value": "3"}},
        {"type": "play", "card": {"dragon": "red", "value": True}},
        {"type": "play", "card": {"dragon": "red"}},
        {"type": "play", "card": {"dragon": "red", "value": 3}, "also": 1},
        {"type": "choose_rider", "choice": "maybe"},
        {"type": "discard", "cards": {"dragon": "red", "value": 3}},
        {"type": "discard", "cards": [{"dragon": "red", "value": 9}]},
        {"type": "end_turn", "now": True},
    ],
)
def test_malformed_actions(data: Any) -> None:
    with pytest.raises(DecodeError):
        decode_action(GAME, data)
