"""docs/rules.md §2.2 visibility per mode, hands, draws and the set-aside tiles, seen through `view` and
`redact` for each seat and for a spectator."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.codec import to_json
from app.games.core import ENVELOPE
from app.games.yutaka import GAME
from app.games.yutaka.events import CardDrawn
from tests.yutaka.rig import DYN, REVEAL_FIRST, Match, c, deck, rush, seen, setup_json

VIEWERS = (0, 1, None)


def face_down_types(tiles: list[list[dict[str, Any]]]) -> set[str | None]:
    return {tile["type"] for row in tiles for tile in row if not tile["face_up"]}


def view_tiles(view: Any) -> list[list[dict[str, Any]]]:
    return [island["tiles"] for island in view["islands"]]


@pytest.mark.parametrize(
    ("options", "shown"),
    [
        ({"mode": "mysteria"}, {None}),
        ({"mode": "tactika"}, {"idol", "dagger", "amphora", "crystal", "equipment"}),
        ({"mode": "mixed", "known_types": ["idol", "dagger"]}, {"idol", "dagger", None}),
        ({"mode": "mixed", "known_types": ["crystal"]}, {"crystal", None}),
        ({"mode": "mixed", "known_types": []}, {None}),
    ],
)
def test_face_down_tiles_show_their_type_only_where_the_mode_makes_it_public(
    options: dict[str, Any], shown: set[str | None]
) -> None:
    match = Match(setup_json(), **options)
    for seat in VIEWERS:
        started = seen(match.events[0], seat)
        for tiles in (view_tiles(match.view(seat)), started["islands"]):
            assert face_down_types(tiles) == shown
            assert all(tile["value"] is None for row in tiles for tile in row)
            for i, row in enumerate(tiles):
                for s, tile in enumerate(row):
                    true_type = match.state.islands[i][s].type.value
                    assert tile["type"] in (None, true_type)
                    assert (tile["type"] is not None) == (true_type in shown)


@pytest.mark.parametrize("mode", ["mysteria", "tactika", "mixed"])
def test_a_revealed_tile_shows_type_and_value_to_everyone(mode: str) -> None:
    match = Match(setup_json(), mode=mode)
    (event,) = match.reveal(0, 2, 1)
    tile = match.state.islands[2][1]
    for seat in VIEWERS:
        assert seen(event, seat)["tile"] == to_json(tile)
        shown = view_tiles(match.view(seat))[2][1]
        assert shown == {"slot": 1, "face_up": True, "type": tile.type.value, "value": tile.value}


@pytest.mark.parametrize("mode", ["mysteria", "tactika", "mixed"])
def test_set_aside_tiles_stay_hidden_type_too_until_the_end(mode: str) -> None:
    match = Match(setup_json(), mode=mode)
    match.opening()
    for seat in VIEWERS:
        view = match.view(seat)
        assert view["set_aside"] is None and view["set_aside_count"] == 5
        started = seen(match.events[0], seat)
        assert "set_aside" not in started and started["set_aside_count"] == 5
        assert "decks" not in started


def test_set_aside_tiles_are_shown_to_everyone_when_the_game_ends() -> None:
    match = rush()
    aside = to_json(match.state.set_aside)
    for seat in VIEWERS:
        assert seen(match.events[-1], seat)["set_aside"] == aside
        assert match.view(seat)["set_aside"] == aside
    assert GAME.outcome(match.state) is not None and match.view(0)["phase"] == "over"


def test_each_seat_sees_its_own_hand_and_only_the_size_of_the_other() -> None:
    decks = [deck(c("idol", 4)), deck(*REVEAL_FIRST)]
    match = Match(setup_json(decks))
    match.opening()
    for seat in (0, 1):
        view = match.view(seat)
        assert view["hand"] == to_json(match.state.hands[seat])
        assert view["hand_sizes"] == [6, 6] and view["deck_sizes"] == [18, 18]
        started = seen(match.events[0], seat)
        assert started["hand"] == to_json(decks[seat][:6])
        assert started["hand_sizes"] == [6, 6] and started["deck_sizes"] == [18, 18]
    assert match.view(None)["hand"] is None
    assert seen(match.events[0], None)["hand"] is None


def test_a_draw_is_shown_only_to_the_drawing_seat() -> None:
    match = Match(setup_json([deck(c("idol", 4)), deck()]))
    match.opening()
    _, drawn = match.play(0, c("idol", 4), 0)
    assert isinstance(drawn, CardDrawn)
    assert seen(drawn, 0) == {"type": "card_drawn", "seat": 0, "card": to_json(drawn.card)}
    assert seen(drawn, 1) == {"type": "card_drawn", "seat": 0}
    assert seen(drawn, None) == {"type": "card_drawn", "seat": 0}


def test_placed_cards_of_both_sides_are_public() -> None:
    match = Match(setup_json([deck(c("idol", 4)), deck(DYN)]))
    match.opening()
    match.turn(c("idol", 4), 3)
    match.turn(DYN, 3)
    for seat in VIEWERS:
        cards = match.view(seat)["islands"][3]["cards"]
        assert cards == [[to_json(c("idol", 4)), to_json(DYN)], []]


def test_legal_actions_belong_only_to_the_seat_to_act() -> None:
    match = Match(setup_json([deck(DYN), deck()]))
    match.opening()
    assert len(GAME.legal_actions(match.state, 0)) > 0
    assert GAME.legal_actions(match.state, 1) == ()
    match.play(0, DYN, 0)
    assert GAME.legal_actions(match.state, 0) == ()
    assert {a.TYPE for a in GAME.legal_actions(match.state, 1)} == {"reveal"}
    assert match.view(1)["phase"] == "reveal" and match.view(1)["turn"] == 0


def test_views_are_plain_json_without_envelope_members() -> None:
    match = rush()
    for seat in VIEWERS:
        view = match.view(seat)
        json.dumps(view)
        assert not set(ENVELOPE) & set(view)
        for event in match.events:
            json.dumps(seen(event, seat))


def test_view_members_are_todays_minus_the_envelope() -> None:
    assert list(Match(setup_json()).view(0)) == [
        "options", "first_player", "phase", "turn", "opening_reveals_left", "cards_played", "hand",
        "hand_sizes", "deck_sizes", "islands", "face_down", "set_aside", "set_aside_count",
    ]  # fmt: skip
