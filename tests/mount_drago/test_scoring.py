"""Scoring (docs/rules.md §1.4.1 and §1.4.3): blue, green, summit first entry, the −2 convention, capping.

Board indices used here: 2–3 players: 3 = blue 3, 7 = green 4, 10 = plain 6, 23 = green 8,
27…30 = summit 4, 2, 0, −2. 4–5 players: 2 = plain 1, 4 = blue 2, 10 = plain 6, 22 = green 8,
26…29 = summit 4, 2, 0, −2.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.games.mount_drago.actions import ChooseRider, Play
from app.games.mount_drago.events import CardPlayed, CardsDrawn, Scored, TurnEnded
from app.games.mount_drago.state import State
from tests.mount_drago.helpers import act, at, card, hands, of_type, riders_state, two_players, types

FIVE = [card("red", 3), card("blue", 1), card("black", 1), card("yellow", 1), card("green", 1)]
OTHERS = [[card("gray", 1)], [card("gray", 2)], [card("purple", 1)], [card("purple", 2)]]


def _five(**options: bool) -> State:
    state = riders_state(FIVE, **options)
    return hands(state, [card("red", 2)] * 2 + [card("orange", 1)] * 2, *OTHERS)


def test_blue_pays_only_spaces_worth_three_or_less() -> None:
    state = replace(_five(), scores=(0, 5, 0, 0, 0))
    # red 2 → 4 (blue 2); blue on the −2 summit, black on a 5, yellow on the start, green on the 0 summit
    state = at(state, red=2, blue=29, black=5, yellow=0, green=28)
    events, after = act(state, 0, Play(card("red", 2)))
    assert of_type(events, Scored) == [Scored("blue", (2, -2, 0, 0, 0))]
    assert after.scores == (2, 3, 0, 0, 0)


def test_green_pays_everybody_their_printed_value() -> None:
    state = replace(_five(), scores=(0, 5, 0, 0, 0))
    state = at(state, red=20, blue=29, black=10, yellow=0, green=27)
    events, after = act(state, 0, Play(card("red", 2)))  # red 20 → 22, green 8
    assert of_type(events, Scored) == [Scored("green", (8, -2, 6, 0, 2))]
    assert after.scores == (8, 3, 6, 0, 2)


def test_plain_space_scores_nothing_and_the_hand_is_refilled() -> None:
    state = at(two_players([card("red", 1)] * 2 + [card("gray", 3)] * 3 + [card("black", 1)]), red=9)
    events, after = act(state, 0, Play(card("red", 1)))  # 9 → 10, plain 6
    assert "scored" not in types(events)
    assert len(of_type(events, CardsDrawn)[0].cards) == 1 and len(after.hands[0]) == 6


def test_a_scoring_where_nobody_gains_still_counts_as_a_scoring() -> None:
    # red on a 5 and blue on a 6: a blue scoring pays nobody, yet the player draws nothing
    state = at(two_players([card("black", 3)] * 3 + [card("gray", 3)] * 3), red=5, blue=10)
    _, state = act(state, 0, Play(card("black", 3)))  # black was last (on the start): choose
    events, after = act(state, 0, ChooseRider("keep"))
    assert of_type(events, Scored) == [Scored("blue", (0, 0))]
    assert types(events)[-1] == "turn_ended" and "cards_drawn" not in types(events)
    assert len(after.hands[0]) == 5


@pytest.mark.parametrize(("start", "value", "lands"), [(25, 3, 28), (26, 1, 27), (23, 5, 28), (26, 4, 30)])
def test_first_entry_into_any_summit_space_is_a_large_scoring(start: int, value: int, lands: int) -> None:
    state = at(
        two_players([card("red", value)] + [card("gray", 3)] * 3 + [card("black", 1)] * 2), red=start, blue=10
    )
    state = replace(state, scores=(5, 0))
    events, _ = act(state, 0, Play(card("red", value)))
    assert events[0] == CardPlayed(0, card("red", value), start, lands)
    assert of_type(events, Scored) == [Scored("summit", ({27: 4, 28: 2, 29: 0, 30: -2}[lands], 6))]


@pytest.mark.parametrize(("start", "value", "lands"), [(27, 2, 29), (28, 5, 30), (30, 1, 30)])
def test_moving_on_the_summit_triggers_nothing(start: int, value: int, lands: int) -> None:
    state = at(
        two_players([card("red", value)] + [card("gray", 3)] * 3 + [card("black", 1)] * 2), red=start, blue=10
    )
    events, after = act(state, 0, Play(card("red", value)))
    assert events[0] == CardPlayed(0, card("red", value), start, lands)  # capped at the last space
    assert "scored" not in types(events)
    assert len(after.hands[0]) == 6  # no scoring: refilled
    assert isinstance(events[-1], TurnEnded)


def test_movement_beyond_the_last_space_is_lost() -> None:
    state = at(two_players([card("red", 5)] + [card("gray", 3)] * 3 + [card("black", 1)] * 2), red=22)
    events, after = act(state, 0, Play(card("red", 5)))  # 22 + 5 = 27: first summit space
    assert events[0] == CardPlayed(0, card("red", 5), 22, 27)
    state = at(state, red=29)
    events, after = act(state, 0, Play(card("red", 5)))
    assert events[0] == CardPlayed(0, card("red", 5), 29, 30) and after.positions[3] == 30


@pytest.mark.parametrize(
    ("floor", "before", "change", "total"),
    [
        (True, 1, 0, 1),
        (True, 2, -2, 0),
        (True, 7, -2, 5),
        (True, 0, 0, 0),
        (False, 1, -2, -1),
        (False, 0, -2, -2),
    ],
)
def test_negative_floor(floor: bool, before: int, change: int, total: int) -> None:
    state = at(
        two_players([card("red", 3)] * 2 + [card("gray", 3)] * 3 + [card("black", 1)], negative_floor=floor),
        red=20,
        blue=30,
    )
    state = replace(state, scores=(0, before))
    events, after = act(state, 0, Play(card("red", 3)))  # red 20 → 23, green 8; blue on the −2 summit
    assert of_type(events, Scored) == [Scored("green", (8, change))]
    assert after.scores == (8, total)
