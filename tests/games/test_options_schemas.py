"""The published options and setup schemas against the parsers: what a parser accepts, its schema
accepts (the schema is generated from the very dataclass the parser decodes into), and bad inputs
are refused by both. Domain rules no JSON Schema can state (a track's shape, a deck's exact
composition, a seat of *this* match) are refused by the parser alone and listed as such."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.core import InvalidOptions
from app.games.mount_drago.track import TRACK_2_3, spaces_to_json
from app.games.registry import GAMES
from tests.games.support import validator
from tests.mount_drago.helpers import card, setup_json
from tests.yutaka.rig import DYN, c, deck
from tests.yutaka.rig import setup_json as yutaka_setup

SHORT_TRACK = spaces_to_json((*TRACK_2_3[:8], *TRACK_2_3[-4:]))
MD_HANDS = [
    [card("red", 1)] * 2 + [card("yellow", 5)] * 2 + [card("gray", 2)] * 2,
    [card("green", 3)] * 3 + [card("orange", 4)] * 2 + [card("blue", 5)],
]
MD_SETUP = setup_json([card("red", 3), card("blue", 1)], MD_HANDS)

GOOD_OPTIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("mount_drago", 3, {}),
    ("mount_drago", 3, {"negative_floor": False, "first_player": 2, "track": SHORT_TRACK}),
    ("mount_drago", 5, {"track": None, "first_player": None, "explicit_end_turn": True}),
    ("mount_drago", 2, {"refill_after_discard_empty": False, "zero_scoring_counts": False}),
    ("yutaka", 2, {}),
    ("yutaka", 2, {"mode": "tactika", "first_player": 1, "stacked": True}),
    ("yutaka", 2, {"mode": "mixed", "known_types": ["equipment", "idol"], "tie_break": "equipment_points"}),
    (
        "yutaka",
        2,
        {"mode": "mysteria", "known_types": [], "first_player": "random", "explicit_end_turn": True},
    ),
    (
        "yutaka",
        2,
        {"tile_values": {"idol": [1, 2, 99], "equipment": [0, 0, 0, 0, 0, 0, 0]}, "tie_break": "shared"},
    ),
]
BAD_OPTIONS: list[tuple[str, int, Any]] = [
    ("mount_drago", 3, []),
    ("mount_drago", 3, {"turbo": True}),
    ("mount_drago", 3, {"negative_floor": 1}),
    ("mount_drago", 3, {"first_player": "0"}),
    ("mount_drago", 3, {"first_player": True}),
    ("mount_drago", 3, {"first_player": 7}),
    ("mount_drago", 3, {"explicit_end_turn": "yes"}),
    ("mount_drago", 3, {"track": "long"}),
    ("mount_drago", 3, {"track": SHORT_TRACK[:4]}),
    ("mount_drago", 3, {"track": [*SHORT_TRACK[:2], {"kind": "lava", "value": 3}, *SHORT_TRACK[3:]]}),
    ("mount_drago", 3, {"track": [*SHORT_TRACK[:2], {"kind": "blue", "value": 9}, *SHORT_TRACK[3:]]}),
    ("mount_drago", 3, {"track": [*SHORT_TRACK[:2], {"kind": "blue"}, *SHORT_TRACK[3:]]}),
    ("yutaka", 2, [1]),
    ("yutaka", 2, {"colour": "red"}),
    ("yutaka", 2, {"mode": "blind"}),
    ("yutaka", 2, {"first_player": 2}),
    ("yutaka", 2, {"first_player": "any"}),
    ("yutaka", 2, {"first_player": None}),
    ("yutaka", 2, {"stacked": 1}),
    ("yutaka", 2, {"tie_break": "coin"}),
    ("yutaka", 2, {"mode": "mixed", "known_types": "idol"}),
    ("yutaka", 2, {"mode": "mixed", "known_types": ["idol", "gold"]}),
    ("yutaka", 2, {"mode": "mixed", "known_types": ["idol", "idol"]}),
    ("yutaka", 2, {"tile_values": {"gold": [1]}}),
    ("yutaka", 2, {"tile_values": {"dagger": [1, 2, 3]}}),
    ("yutaka", 2, {"tile_values": {"idol": [1, 2, 100]}}),
    ("yutaka", 2, {"tile_values": {"idol": [1, 2, 3.5]}}),
]
# Refused by the parser only: rules that depend on the match or on a whole track.
PARSER_ONLY_OPTIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("mount_drago", 3, {"first_player": 3}),  # no seat 3 in a 3-player match
    ("mount_drago", 3, {"track": [{"kind": "plain", "value": 0}, *SHORT_TRACK[1:]]}),  # no start
    ("mount_drago", 3, {"track": [*SHORT_TRACK[:-1], {"kind": "plain", "value": 1}]}),  # 3 summits
    ("yutaka", 2, {"known_types": ["idol"]}),  # chosen types only in mode mixed
]


def _parse(name: str, players: int, raw: Any) -> Any:
    return GAMES[name].parse_options(players, raw)


@pytest.mark.parametrize(("name", "players", "raw"), GOOD_OPTIONS)
def test_options_the_parser_accepts_fit_the_schema(name: str, players: int, raw: dict[str, Any]) -> None:
    schema = validator(name, "options")
    parsed = _parse(name, players, raw)
    schema.validate(raw)
    schema.validate(parsed)  # normalised options too (they are stored and shown in views)
    assert _parse(name, players, parsed) == parsed


@pytest.mark.parametrize(("name", "players", "raw"), BAD_OPTIONS)
def test_bad_options_are_refused_by_parser_and_schema(name: str, players: int, raw: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        _parse(name, players, raw)
    assert refused.value.path.startswith("options")
    assert not validator(name, "options").is_valid(raw)


@pytest.mark.parametrize(("name", "players", "raw"), PARSER_ONLY_OPTIONS)
def test_domain_rules_are_the_parsers(name: str, players: int, raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        _parse(name, players, raw)
    assert validator(name, "options").is_valid(raw)


def _with(setup: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of `setup` with the member at `path` (keys and indexes joined by '.') replaced."""
    out: Any = _copy(setup)
    target = out
    *parents, last = path.split(".")
    for key in parents:
        target = target[int(key) if key.isdigit() else key]
    target[int(last) if last.isdigit() else last] = value
    result: dict[str, Any] = out
    return result


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


YUTAKA_SETUP = yutaka_setup([deck(DYN, c("idol", 4)), deck(c("crystal", 2))], first_player=1)
GOOD_SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("mount_drago", 2, MD_SETUP),
    ("mount_drago", 2, {**MD_SETUP, "first_player": None}),
    ("yutaka", 2, YUTAKA_SETUP),
    ("yutaka", 2, {"islands": YUTAKA_SETUP["islands"]}),
    ("yutaka", 2, {"set_aside": YUTAKA_SETUP["set_aside"], "first_player": None}),
    ("yutaka", 2, {}),
]
BAD_SETUPS: list[tuple[str, int, Any]] = [
    ("mount_drago", 2, [1]),
    ("mount_drago", 2, {k: v for k, v in MD_SETUP.items() if k != "draw_pile"}),
    ("mount_drago", 2, {**MD_SETUP, "seed": 4}),
    ("mount_drago", 2, _with(MD_SETUP, "hands.1", MD_SETUP["hands"][1][:5])),
    ("mount_drago", 2, _with(MD_SETUP, "hands.0.3", {"dragon": "red", "value": 6})),
    ("mount_drago", 2, _with(MD_SETUP, "draw_pile.5", {"dragon": "pink", "value": 1})),
    ("mount_drago", 2, _with(MD_SETUP, "riders", [MD_SETUP["riders"][0]])),
    ("yutaka", 2, _with(YUTAKA_SETUP, "decks.1", YUTAKA_SETUP["decks"][1][:23])),
    ("yutaka", 2, _with(YUTAKA_SETUP, "decks.0.0", {"kind": "sword", "value": 1})),
    ("yutaka", 2, _with(YUTAKA_SETUP, "decks.0.0", {"kind": "idol", "value": 5})),
    ("yutaka", 2, _with(YUTAKA_SETUP, "islands.4", [])),
    ("yutaka", 2, _with(YUTAKA_SETUP, "islands.2.1", {"type": "gold", "value": 5})),
    ("yutaka", 2, _with(YUTAKA_SETUP, "islands.2.1", {"type": "idol", "value": -5})),
    ("yutaka", 2, _with(YUTAKA_SETUP, "set_aside", [])),
    ("yutaka", 2, _with(YUTAKA_SETUP, "first_player", 2)),
    ("yutaka", 2, {**YUTAKA_SETUP, "seed": 3}),
]
PARSER_ONLY_SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("mount_drago", 2, _with(MD_SETUP, "draw_pile.0", {"dragon": "red", "value": 1})),  # a third red 1
    ("mount_drago", 2, _with(MD_SETUP, "riders.1", {"dragon": "red", "value": 4})),  # two red riders
    ("mount_drago", 2, {**MD_SETUP, "first_player": 3}),  # no seat 3 in a 2-player match
    ("yutaka", 2, _with(YUTAKA_SETUP, "decks.1.5", {"kind": "idol", "value": 1})),  # idol 1 twice
    ("yutaka", 2, _with(YUTAKA_SETUP, "islands.2.1", {"type": "idol", "value": 7})),  # no such tile
]


def _start(name: str, players: int, setup: Any) -> Any:
    game = GAMES[name]
    return game.start(players, game.parse_options(players, {}), random.Random(0), setup)


@pytest.mark.parametrize(("name", "players", "setup"), GOOD_SETUPS)
def test_setups_the_parser_accepts_fit_the_schema(name: str, players: int, setup: dict[str, Any]) -> None:
    _start(name, players, setup)
    validator(name, "setup").validate(setup)


@pytest.mark.parametrize(("name", "players", "setup"), BAD_SETUPS)
def test_bad_setups_are_refused_by_parser_and_schema(name: str, players: int, setup: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        _start(name, players, setup)
    assert refused.value.path.startswith("setup")
    assert not validator(name, "setup").is_valid(setup)


@pytest.mark.parametrize(("name", "players", "setup"), PARSER_ONLY_SETUPS)
def test_deck_composition_is_the_parsers(name: str, players: int, setup: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        _start(name, players, setup)
    assert validator(name, "setup").is_valid(setup)
