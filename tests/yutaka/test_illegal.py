"""Actions the rules refuse, with the machine code the HTTP edge maps and a reason in words; and
the stacked-archipelago variant, whose only rule is which tiles may be revealed."""

from __future__ import annotations

import pytest

from app.games.core import DecodeError, ErrorCode, decode_action
from app.games.yutaka import GAME
from app.games.yutaka.actions import Play, Reveal
from app.games.yutaka.state import revealable
from tests.yutaka.rig import DYN, Match, c, deck, rush, setup_json


def test_the_wrong_seat_is_told_it_is_not_its_turn_in_every_phase() -> None:
    match = Match(setup_json([deck(DYN), deck()]))
    assert match.refused(1, Reveal(0, 0)).code == ErrorCode.NOT_YOUR_TURN  # opening: seat 0 first
    match.opening()
    refused = match.refused(1, Play(c("idol", 1), 0))
    assert refused.code == ErrorCode.NOT_YOUR_TURN and refused.reason == "not_your_turn"
    match.play(0, DYN, 0)
    refused = match.refused(0, Reveal(0, 3))  # after dynamite the opponent reveals
    assert refused.code == ErrorCode.NOT_YOUR_TURN
    assert "seat 1" in refused.message
    assert match.refused(7, Reveal(0, 3)).code == ErrorCode.NOT_YOUR_TURN


def test_revealing_a_face_up_tile_is_refused() -> None:
    match = Match(setup_json())
    match.reveal(0, 1, 1)
    refused = match.refused(1, Reveal(1, 1))
    assert (refused.code, refused.reason) == (ErrorCode.ILLEGAL_ACTION, "tile_already_revealed")


@pytest.mark.parametrize(("island", "slot"), [(5, 0), (0, 4), (-1, 0), (0, -1)])
def test_revealing_outside_the_islands_is_refused(island: int, slot: int) -> None:
    refused = Match(setup_json()).refused(0, Reveal(island, slot))
    assert (refused.code, refused.reason) == (ErrorCode.ILLEGAL_ACTION, "no_such_tile")


def test_a_card_not_in_hand_is_refused() -> None:
    match = Match(setup_json([deck(c("idol", 1)), deck()]))
    match.opening()
    assert c("crystal", 4) not in match.state.hands[0]
    refused = match.refused(0, Play(c("crystal", 4), 0))
    assert (refused.code, refused.reason) == (ErrorCode.ILLEGAL_ACTION, "card_not_in_hand")
    assert "crystal 4" in refused.message


def test_a_card_that_does_not_exist_never_reaches_the_rules() -> None:
    with pytest.raises(DecodeError):
        decode_action(GAME, {"type": "play", "card": {"kind": "sword", "value": 1}, "island": 0})
    refused = Match(setup_json())
    refused.opening()
    assert refused.refused(0, Play(c("idol", 9), 0)).reason == "card_not_in_hand"


@pytest.mark.parametrize("island", [5, -1])
def test_playing_outside_the_islands_is_refused(island: int) -> None:
    match = Match(setup_json([deck(c("idol", 1)), deck()]))
    match.opening()
    assert match.refused(0, Play(c("idol", 1), island)).reason == "no_such_island"


def test_each_phase_takes_only_its_kind_of_action() -> None:
    match = Match(setup_json([deck(c("equipment", 1), c("idol", 1)), deck()]))
    assert match.refused(0, Play(c("equipment", 1), 0)).reason == "reveal_expected"  # opening
    match.opening()
    assert match.refused(0, Reveal(4, 3)).reason == "play_expected"
    match.play(0, c("equipment", 1), 0)
    assert match.refused(0, Play(c("idol", 1), 0)).reason == "reveal_expected"


def test_nothing_is_accepted_after_the_end() -> None:
    match = rush()
    for seat in (0, 1):
        refused = match.refused(seat, Play(match.state.hands[0][0], 0))
        assert refused.code == ErrorCode.MATCH_OVER == ErrorCode("match_over")
        assert match.refused(seat, Reveal(0, 0)).code == ErrorCode.MATCH_OVER


def test_every_refusal_leaves_the_match_unchanged_and_every_legal_action_is_accepted() -> None:
    match = Match(setup_json([deck(c("equipment", 1)), deck()]))
    match.opening()
    state = match.state
    for action in GAME.legal_actions(state, 0):
        GAME.decide(state, 0, action, match.rng)
    match.refused(0, Play(c("crystal", 4), 0))
    assert match.state is state


def test_stacked_archipelagos_reveal_only_the_uppermost_face_down_tile_of_each_island() -> None:
    match = Match(setup_json(), stacked=True)
    assert GAME.legal_actions(match.state, 0) == tuple(Reveal(i, 0) for i in range(5))
    refused = match.refused(0, Reveal(2, 1))
    assert (refused.code, refused.reason) == (ErrorCode.ILLEGAL_ACTION, "tile_covered")
    match.reveal(0, 2, 0)
    assert Reveal(2, 1) in GAME.legal_actions(match.state, 1)
    assert Reveal(2, 2) not in GAME.legal_actions(match.state, 1)
    match.reveal(1, 2, 1)
    match.reveal(0, 2, 2)
    match.reveal(1, 2, 3)
    assert revealable(match.state) == ((0, 0), (1, 0), (3, 0), (4, 0))  # island 2 is all face up
