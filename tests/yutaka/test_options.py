"""Match options, explicit setups, their JSON Schemas and the catalogue: defaults, normalisation
and every refusal with its path."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import pytest

from app.games.codec import to_json
from app.games.core import InvalidOptions
from app.games.registry import GAMES
from app.games.yutaka import GAME
from app.games.yutaka.components import DECK, ISLAND_NAMES, RECONSTRUCTED_TILE_VALUES, TILE_TYPES, Tile
from app.games.yutaka.events import GameStarted
from tests.yutaka.rig import DYN, c, canonical_layout, deck, setup_json, t

DEFAULT_VALUES = {ty.value: list(RECONSTRUCTED_TILE_VALUES[ty]) for ty in TILE_TYPES}


def parse(raw: dict[str, Any], players: int = 2) -> Any:
    return GAME.parse_options(players, raw)


def refusal(raw: Any, players: int = 2) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as info:
        GAME.parse_options(players, raw)
    return info.value


def test_defaults_are_filled() -> None:
    assert parse({}) == {
        "mode": "mysteria",
        "known_types": [],
        "first_player": 0,
        "stacked": False,
        "tile_values": DEFAULT_VALUES,
        "tie_break": "equipment_tiles",
        "explicit_end_turn": False,
    }


def test_modes_normalise_known_types() -> None:
    assert parse({"mode": "tactika"})["known_types"] == [ty.value for ty in TILE_TYPES]
    assert parse({"mode": "mixed"})["known_types"] == ["idol", "dagger"]
    mixed = parse({"mode": "mixed", "known_types": ["equipment", "idol"]})
    assert mixed["known_types"] == ["idol", "equipment"]  # canonical order


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"mode": "tactika", "first_player": 1},
        {"mode": "mixed", "known_types": ["crystal"], "stacked": True},
        {"tile_values": {"idol": [1, 2, 3]}},
        {"first_player": "random", "tie_break": "shared", "explicit_end_turn": True},
    ],
)
def test_parsed_options_parse_to_themselves_and_fit_the_schema(raw: dict[str, Any]) -> None:
    once = parse(raw)
    assert parse(once) == once
    jsonschema.validate(raw, GAME.schemas()["options"])
    jsonschema.validate(once, GAME.schemas()["options"])


def test_replacement_tile_values_are_used_by_the_deal() -> None:
    opts = parse({"tile_values": {"idol": [9, 1, 2], "dagger": [1, 1, 1, 1]}})
    assert opts["tile_values"]["idol"] == [1, 2, 9]
    started = GAME.start(2, opts, random.Random(1))
    assert isinstance(started, GameStarted)
    tiles = [*(tile for row in started.islands for tile in row), *started.set_aside]
    assert Counter(tiles)[t("dagger", 1)] == 4
    assert {tile.value for tile in tiles if tile.type.value == "idol"} == {1, 2, 9}


@pytest.mark.parametrize(
    ("players", "raw", "path"),
    [
        (3, {}, "players"),
        (1, {}, "players"),
        (2, [], "options"),
        (2, {"colour": "red"}, "options.colour"),
        (2, {"mode": "blind"}, "options.mode"),
        (2, {"mode": 3}, "options.mode"),
        (2, {"first_player": 2}, "options.first_player"),
        (2, {"first_player": True}, "options.first_player"),
        (2, {"first_player": "0"}, "options.first_player"),
        (2, {"first_player": None}, "options.first_player"),
        (2, {"tie_break": "coin"}, "options.tie_break"),
        (2, {"explicit_end_turn": "yes"}, "options.explicit_end_turn"),
        (2, {"stacked": 1}, "options.stacked"),
        (2, {"known_types": ["idol"]}, "options.known_types"),  # mysteria hides every type
        (2, {"mode": "tactika", "known_types": ["idol"]}, "options.known_types"),
        (2, {"mode": "mixed", "known_types": "idol"}, "options.known_types"),
        (2, {"mode": "mixed", "known_types": ["idol", "gold"]}, "options.known_types[1]"),
        (2, {"mode": "mixed", "known_types": ["idol", "idol"]}, "options.known_types[1]"),
        (2, {"tile_values": [1]}, "options.tile_values"),
        (2, {"tile_values": {"gold": [1]}}, "options.tile_values.gold"),
        (2, {"tile_values": {"dagger": [1, 2, 3]}}, "options.tile_values.dagger"),
        (2, {"tile_values": {"idol": [1, 2, "3"]}}, "options.tile_values.idol[2]"),
        (2, {"tile_values": {"idol": [1, 2, 3.5]}}, "options.tile_values.idol[2]"),
        (2, {"tile_values": {"idol": [1, -2, 3]}}, "options.tile_values.idol[1]"),
        (2, {"tile_values": {"idol": [1, 2, 100]}}, "options.tile_values.idol[2]"),
        (2, {"tile_values": {"idol": [True, 2, 3]}}, "options.tile_values.idol[0]"),
    ],
)
def test_bad_options_are_refused_with_a_path(players: int, raw: Any, path: str) -> None:
    error = refusal(raw, players)
    assert error.path == path
    assert error.message


def started(setup: Any, **options: Any) -> GameStarted:
    event = GAME.start(2, parse(options), random.Random(0), setup)
    assert isinstance(event, GameStarted)
    return event


def setup_refusal(setup: Any, **options: Any) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as info:
        started(setup, **options)
    return info.value


def test_a_full_setup_fixes_the_deal_and_fits_the_schema() -> None:
    decks = [deck(DYN, c("idol", 4)), deck(c("crystal", 2))]
    islands, aside = canonical_layout()
    islands[0][0], aside[0] = aside[0], islands[0][0]
    setup = setup_json(decks, islands, aside, first_player=1)
    jsonschema.validate(setup, GAME.schemas()["setup"])
    event = started(setup)
    assert event.decks == tuple(decks)
    assert [list(row) for row in event.islands] == islands
    assert list(event.set_aside) == aside
    assert event.first_player == 1


def test_a_random_deal_shuffles_each_deck_and_the_tiles() -> None:
    event = started(None, first_player=1)
    assert all(Counter(d) == Counter(DECK) for d in event.decks)
    assert event.decks[0] != event.decks[1]
    tiles = [*(tile for row in event.islands for tile in row), *event.set_aside]
    assert sorted(tiles, key=str) == sorted(parse_tiles(), key=str)
    assert [len(row) for row in event.islands] == [4] * 5 and len(event.set_aside) == 5
    assert event.first_player == 1
    assert started(None) != event


def parse_tiles() -> list[Tile]:
    islands, aside = canonical_layout()
    return [*(tile for row in islands for tile in row), *aside]


def test_a_partial_setup_deals_the_rest() -> None:
    islands, aside = canonical_layout()
    only_islands = started({"islands": to_json(islands)})
    assert Counter(only_islands.set_aside) == Counter(aside)
    only_aside = started({"set_aside": to_json(aside)})
    assert list(only_aside.set_aside) == aside
    assert Counter(tile for row in only_aside.islands for tile in row) == Counter(
        tile for row in islands for tile in row
    )
    only_first = started({"first_player": 1})
    assert only_first.first_player == 1


def test_a_setup_is_checked_against_the_options_tile_values() -> None:
    error = setup_refusal(setup_json(), tile_values={"idol": [1, 2, 3]})
    assert error.path == "setup.islands[0][0]"  # idol 5 does not exist in this match
    custom = {"idol": [1, 2, 3]}
    assert started(setup_json(tile_values=custom), tile_values=custom).islands[0][0] == t("idol", 1)


def bad_setup(path: str, value: Any) -> Any:
    """The canonical setup with one member replaced; `path` like 'islands.2.1'."""
    setup = setup_json()
    *parents, last = path.split(".")
    target = setup
    for key in parents:
        target = target[int(key) if key.isdigit() else key]
    target[int(last) if last.isdigit() else last] = value
    return setup


@pytest.mark.parametrize(
    ("path", "value", "error_path"),
    [
        ("decks", [list(to_json(DECK))], "setup.decks"),
        ("decks.1", to_json(DECK[:23]), "setup.decks[1]"),
        ("decks.1.5", {"kind": "idol", "value": 1}, "setup.decks[1][5]"),  # idol 1 twice
        ("decks.0.23", {"kind": "dynamite", "value": 1}, "setup.decks[0][23]"),
        ("decks.0.0", {"kind": "sword", "value": 1}, "setup.decks[0][0].kind"),
        ("decks.0.0", {"kind": "idol"}, "setup.decks[0][0].value"),
        ("decks.0.0", {"kind": "idol", "value": "1"}, "setup.decks[0][0].value"),
        ("decks.0.0", {"kind": "idol", "value": 1, "x": 0}, "setup.decks[0][0].x"),
        ("decks.0.0", {"kind": "idol", "value": 5}, "setup.decks[0][0].value"),
        ("islands", [], "setup.islands"),
        ("islands.4", [], "setup.islands[4]"),
        ("islands.2.1", {"type": "idol", "value": 5}, "setup.islands[2][1]"),  # idol 5 twice
        ("islands.2.1", {"type": "idol", "value": 7}, "setup.islands[2][1]"),  # no such tile
        ("islands.2.1", {"type": "gold", "value": 5}, "setup.islands[2][1].type"),
        ("islands.2.1", {"type": "idol", "value": -5}, "setup.islands[2][1].value"),
        ("islands.2.1", "idol 5", "setup.islands[2][1]"),
        ("set_aside", [], "setup.set_aside"),
        ("set_aside.4", {"type": "idol", "value": 5}, "setup.set_aside[4]"),
        ("first_player", 2, "setup.first_player"),
        ("first_player", False, "setup.first_player"),
        ("seed", 3, "setup.seed"),
    ],
)
def test_bad_setups_are_refused_with_a_path(path: str, value: Any, error_path: str) -> None:
    error = setup_refusal(bad_setup(path, value))
    assert error.path == error_path
    assert error.message


def test_a_setup_must_be_an_object() -> None:
    assert setup_refusal([1]).path == "setup"


def test_the_catalogue_has_what_a_frontend_draws() -> None:
    catalogue = GAME.catalogue()
    assert [i["name"] for i in catalogue["islands"]] == list(ISLAND_NAMES)
    assert ISLAND_NAMES[0] == "Île du Pendu" and ISLAND_NAMES[4] == "Île du Singe"
    assert catalogue["slots_per_island"] == 4 and catalogue["max_cards_per_side"] == 5
    kinds = {ty["type"]: ty for ty in catalogue["tile_types"]}
    assert {k: (v["colour"], v["count"]) for k, v in kinds.items()} == {
        "idol": ("yellow", 3),
        "dagger": ("green", 4),
        "amphora": ("blue", 5),
        "crystal": ("red", 6),
        "equipment": ("gray", 7),
    }
    assert all(sum(v["values"]) == 30 for v in kinds.values())  # the reconstruction's invariant
    assert len(catalogue["deck"]) == 24
    assert catalogue["deck"].count({"kind": "dynamite", "value": 0}) == 4
    assert [m["mode"] for m in catalogue["modes"]] == ["mysteria", "tactika", "mixed"]
    assert catalogue["default_options"] == parse({})


def test_the_game_is_registered() -> None:
    assert GAMES["yutaka"] is GAME
    assert GAME.info.min_players == GAME.info.max_players == 2
