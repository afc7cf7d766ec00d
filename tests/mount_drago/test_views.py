"""Per-seat views and redacted events: what each viewer may see, and nothing more, as typed values
and as the JSON a client receives (the same members as before views were typed, minus the match
envelope: seq, seat, to_act, legal_actions and outcome come from the match layer)."""

from __future__ import annotations

import json
import random

from app.games.codec import to_json
from app.games.core import ENVELOPE
from app.games.mount_drago import GAME
from app.games.mount_drago.actions import Play
from app.games.mount_drago.cards import DRAGONS, Card, code_of
from app.games.mount_drago.events import CardPlayed, CardsDrawn, DrawPileReshuffled, GameStarted
from app.games.mount_drago.redaction import CardsDrawnRedacted
from app.games.mount_drago.state import State
from tests.mount_drago.helpers import act, card, cj, rigged

HAND_0 = [
    card("red", 1),
    card("red", 2),
    card("yellow", 2),
    card("gray", 3),
    card("gray", 4),
    card("black", 5),
]
HAND_1 = [
    card("green", 1),
    card("green", 2),
    card("purple", 1),
    card("purple", 2),
    card("orange", 4),
    card("brown", 3),
]


def _sorted(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=code_of)


def _started() -> tuple[GameStarted, State]:
    return rigged([card("red", 3), card("blue", 1)], [HAND_0, HAND_1], top=[card("orange", 5)])


def test_seat_view() -> None:
    _, state = _started()
    view = to_json(GAME.view(state, 0))
    json.dumps(view)
    assert not set(ENVELOPE) & set(view)
    assert view["hand"] == sorted(
        [to_json(c) for c in HAND_0], key=lambda c: (DRAGONS.index(c["dragon"]), c["value"])
    )
    assert view["hand_sizes"] == [6, 6] and view["draw_pile_size"] == 110 - 14
    assert view["positions"] == {d.value: 0 for d in DRAGONS}
    assert view["riders"] == ["red", "blue"]
    assert view["rider_piles"] == [{"top": cj("red", 3), "size": 1}, {"top": cj("blue", 1), "size": 1}]
    assert view["scores"] == [0, 0] and view["discard_pile"] == [] and view["summit_dragons"] == []
    assert (view["phase"], view["current_player"]) == ("play", 0)
    assert view["options"]["negative_floor"] is True and view["pending_card"] is None
    assert GAME.legal_actions(state, 0) == tuple(Play(c) for c in _sorted(HAND_0))  # canonical order
    other = to_json(GAME.view(state, 1))
    assert other["hand"] == [to_json(c) for c in _sorted(HAND_1)]
    for c in HAND_1:
        assert to_json(c) not in view["hand"]


def test_view_members_are_todays_minus_the_envelope() -> None:
    _, state = _started()
    assert list(to_json(GAME.view(state, 0))) == [
        "players", "phase", "current_player", "hand", "hand_sizes", "positions", "summit_dragons",
        "riders", "rider_piles", "scores", "draw_pile_size", "discard_pile", "pending_card",
        "turn_scored", "options", "track",
    ]  # fmt: skip
    assert isinstance(GAME.view(state, 0), GAME.view_type)


def test_spectator_view() -> None:
    _, state = _started()
    view = GAME.view(state, None)
    assert view.hand is None and view.hand_sizes == (6, 6)
    text = json.dumps(to_json(view))
    assert '"orange", "value": 5' not in text  # the top of the draw pile


def test_pending_card_is_public_during_the_rider_choice() -> None:
    _, state = _started()
    _, state = act(state, 0, Play(card("gray", 3)))
    assert to_json(GAME.view(state, 1))["pending_card"] == cj("gray", 3)
    assert GAME.view(state, 0).phase == "choose_rider"


def test_redacted_game_started() -> None:
    first, _ = _started()
    mine = to_json(GAME.redact(first, 1))
    assert mine["type"] == "game_started"
    assert mine["hands"][0] is None and mine["hands"][1] == [to_json(c) for c in first.hands[1]]
    assert mine["hand_sizes"] == [6, 6] and mine["draw_pile_size"] == 96
    assert "draw_pile" not in mine and mine["riders"] == [cj("red", 3), cj("blue", 1)]
    spectator = to_json(GAME.redact(first, None))
    assert spectator["hands"] == [None, None] and "draw_pile" not in spectator
    assert mine["first_player"] == 0 and mine["track"][3] == {"kind": "blue", "value": 3}
    assert set(mine) == {*to_json(first), "hand_sizes", "draw_pile_size"} - {"draw_pile"}


def test_redacted_draws_and_reshuffles() -> None:
    drawn = CardsDrawn(1, (card("red", 5), card("blue", 2)))
    assert GAME.redact(drawn, 1) is drawn
    assert GAME.redact(drawn, 0) == GAME.redact(drawn, None) == CardsDrawnRedacted(1, 2)
    assert to_json(GAME.redact(drawn, 0)) == {"type": "cards_drawn", "seat": 1, "count": 2}
    order = tuple(card("gray", v) for v in (1, 2, 3, 4, 5))
    reshuffled = DrawPileReshuffled(order, True)
    for seat in (0, 1, None):
        assert to_json(GAME.redact(reshuffled, seat)) == {
            "type": "draw_pile_reshuffled",
            "size": 5,
            "summit_discards": True,
        }
    played = CardPlayed(0, card("red", 2), 0, 2)
    assert GAME.redact(played, 1) is GAME.redact(played, None) is played


def test_first_event_is_a_full_record_of_the_deal() -> None:
    first = GAME.start(3, GAME.parse_options(3, {}), random.Random(5))
    assert isinstance(first, GameStarted)
    data = to_json(first)
    assert len(data["draw_pile"]) == 110 - 3 - 18 and data["options"] == GAME.parse_options(3, {})
