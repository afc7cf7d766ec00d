"""The worked examples of the rulebooks (docs/rules.md §1.6)."""

from __future__ import annotations

from app.games.mount_drago.actions import Discard, EndTurn, Play
from app.games.mount_drago.cards import code_of
from app.games.mount_drago.events import CardsDiscarded, CardsDrawn, RiderSettled, Scored
from app.games.mount_drago.state import DISCARD
from tests.mount_drago.helpers import act, at, card, hands, of_type, riders_state, two_players, types


def test_opponent_dragon_onto_green_and_onto_blue() -> None:
    # you ride red on a 6 (space 10); you move the opponent's blue dragon onto the green 4 (space 7)
    state = at(
        two_players([card("blue", 2)] + [card("gray", 2)] * 2 + [card("black", 5)] * 2 + [card("black", 4)]),
        red=10,
        blue=5,
    )
    events, after = act(state, 0, Play(card("blue", 2)))
    assert of_type(events, Scored) == [Scored("green", (6, 4))]
    assert after.scores == (6, 4)
    assert of_type(events, RiderSettled)[0].result == "under"
    # onto a blue space (3B, space 3) instead: 6 > 3, you score nothing; the opponent scores 3
    events, after = act(at(state, blue=1), 0, Play(card("blue", 2)))
    assert of_type(events, Scored) == [Scored("blue", (0, 3))]


def test_three_players_own_dragon_onto_blue() -> None:
    state = riders_state([card("red", 3), card("blue", 1), card("black", 1)])
    state = hands(state, [card("red", 2)] * 2, [card("green", 1)], [card("gray", 1)])
    state = at(state, red=1, blue=4, black=10)  # opponents on a 1 and on a 6
    events, after = act(state, 0, Play(card("red", 2)))  # red: 1 → 3, a blue space worth 3
    assert of_type(events, Scored) == [Scored("blue", (3, 1, 0))]
    assert after.scores == (3, 1, 0)


def test_summit_discard_keeps_what_you_want() -> None:
    # an opponent's yellow dragon is on a summit space; you hold yellow 4 and yellow 2
    riders = [card("red", 3), card("yellow", 1)]
    state = riders_state(riders)
    state = hands(
        state,
        [card("yellow", 4), card("yellow", 2), card("red", 1)] + [card("gray", 1)] * 3,
        [card("green", 1)],
    )
    state = at(state, yellow=28)
    events, state = act(state, 0, Play(card("red", 1)))
    assert state.phase == DISCARD and types(events) == ["card_played", "rider_settled"]
    events, state = act(state, 0, Discard((card("yellow", 4),)))
    assert events == (CardsDiscarded(0, (card("yellow", 4),)),)
    assert code_of(card("yellow", 2)) in state.hands[0] and code_of(card("yellow", 4)) not in state.hands[0]
    assert state.discard_pile == (code_of(card("yellow", 4)),)
    events, state = act(state, 0, EndTurn())
    drawn = of_type(events, CardsDrawn)
    assert len(drawn) == 1 and len(drawn[0].cards) == 2  # no scoring: refill to 6
    assert len(state.hands[0]) == 6 and code_of(card("yellow", 2)) in state.hands[0]


def test_original_english_green_space_example() -> None:
    # 3 players: you move your own dragon onto the green 4; an opponent's dragon stands on a 1,
    # the other's on a 6: a large scoring pays every rider the printed value under its dragon
    state = riders_state([card("red", 3), card("blue", 1), card("black", 1)])
    state = hands(state, [card("red", 2)] * 2, [card("green", 1)], [card("gray", 1)])
    state = at(state, red=5, blue=1, black=10)  # red on a 5, blue on a 1, black on a 6
    events, after = act(state, 0, Play(card("red", 2)))  # red: 5 → 7, the green 4
    assert of_type(events, Scored) == [Scored("green", (4, 1, 6))]
    assert after.scores == (4, 1, 6)
    assert types(events) == ["card_played", "rider_settled", "scored", "turn_ended"]  # scored: no draw
