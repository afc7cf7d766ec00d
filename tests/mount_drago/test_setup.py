"""Components, tracks, options, explicit setups and the random deal (docs/rules.md §1.1–1.3)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import pytest

from app.games.codec import to_json
from app.games.core import InvalidOptions
from app.games.mount_drago import GAME
from app.games.mount_drago.cards import DECK, DRAGONS, Card, code_of
from app.games.mount_drago.events import GameStarted
from app.games.mount_drago.state import PLAY
from app.games.mount_drago.track import TRACK_2_3, TRACK_4_5, SpaceKind, spaces_to_json
from app.games.registry import GAMES
from tests.mount_drago.helpers import D, card, cj, rigged, setup_json


def test_registered() -> None:
    assert GAMES["mount_drago"] is GAME
    assert (GAME.info.min_players, GAME.info.max_players) == (2, 5)


def test_dragons_and_deck() -> None:
    assert [d.value for d in DRAGONS] == [
        "blue", "brown", "black", "red", "yellow", "green", "gray", "light_blue", "purple", "orange"
    ]  # fmt: skip
    assert len(DECK) == 110
    per_dragon = Counter(code // 5 for code in DECK)
    assert set(per_dragon.values()) == {11}
    values = sorted(
        c.value for c in (Card(D.RED, v) for v in range(1, 6)) for _ in range(DECK.count(code_of(c)))
    )
    assert values == [1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5]
    with pytest.raises(ValueError):
        Card(D.RED, 6)


@pytest.mark.parametrize(("spaces", "blue_value", "length"), [(TRACK_2_3, 3, 31), (TRACK_4_5, 2, 30)])
def test_reconstructed_tracks(spaces: Any, blue_value: int, length: int) -> None:
    assert len(spaces) == length
    assert (spaces[0].kind, spaces[0].value) == (SpaceKind.START, 0)
    kinds = [s.kind for s in spaces]
    assert [s.value for s in spaces if s.kind is SpaceKind.BLUE] == [blue_value] * 4
    assert [s.value for s in spaces if s.kind is SpaceKind.GREEN] == [4, 7, 8]
    assert kinds[-4:] == [SpaceKind.SUMMIT] * 4 and kinds.count(SpaceKind.SUMMIT) == 4
    assert [s.value for s in spaces[-4:]] == [4, 2, 0, -2]
    assert all(-2 <= s.value <= 8 for s in spaces)


def test_track_by_player_count_and_catalogue() -> None:
    for players, spaces in ((2, TRACK_2_3), (3, TRACK_2_3), (4, TRACK_4_5), (5, TRACK_4_5)):
        first = GAME.start(players, GAME.parse_options(players, {}), random.Random(1))
        assert isinstance(first, GameStarted) and first.track == spaces
    cat = GAME.catalogue()
    assert cat["dragons"][0] == "blue" and len(cat["dragons"]) == 10
    assert cat["tracks"]["2-3"] == spaces_to_json(TRACK_2_3)
    assert cat["tracks"]["4-5"][4] == {"kind": "blue", "value": 2}
    assert cat["track_by_players"] == {"2": "2-3", "3": "2-3", "4": "4-5", "5": "4-5"}
    assert cat["summit_values"] == [4, 2, 0, -2]
    assert cat["players"] == {"min": 2, "max": 5}
    assert cat["cards"] == {"values_per_dragon": [1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5], "total": 110}


def test_options_defaults_and_schema() -> None:
    opts = GAME.parse_options(3, {})
    assert opts == {
        "negative_floor": True,
        "track": None,
        "first_player": None,
        "explicit_end_turn": False,
        "refill_after_discard_empty": True,
        "zero_scoring_counts": True,
    }
    assert GAME.parse_options(3, opts) == opts  # normalised options parse to themselves
    schema = GAME.schemas()["options"]
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(opts, schema)
    jsonschema.validate({"track": spaces_to_json(TRACK_4_5), "first_player": 2}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"turbo": True}, schema)


@pytest.mark.parametrize(
    ("players", "raw", "path"),
    [
        (1, {}, "players"),
        (6, {}, "players"),
        (3, {"turbo": True}, "options.turbo"),
        (3, {"negative_floor": 1}, "options.negative_floor"),
        (3, {"first_player": 3}, "options.first_player"),
        (3, {"first_player": True}, "options.first_player"),
        (3, {"first_player": "0"}, "options.first_player"),
        (3, {"track": "long"}, "options.track"),
    ],
)
def test_bad_options(players: int, raw: dict[str, Any], path: str) -> None:
    with pytest.raises(InvalidOptions) as e:
        GAME.parse_options(players, raw)
    assert e.value.path == path


def _track(*spaces: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"kind": k, "value": v} for k, v in spaces]


GOOD = [
    ("start", 0),
    ("plain", 1),
    ("blue", 3),
    ("green", 8),
    ("summit", 4),
    ("summit", 2),
    ("summit", 0),
    ("summit", -2),
]


@pytest.mark.parametrize(
    ("track", "path", "words"),
    [
        (_track(("plain", 0), *GOOD[1:]), "options.track[0]", "start"),
        (_track(("start", 1), *GOOD[1:]), "options.track[0]", "start"),
        (_track(*GOOD[:2], ("start", 0), *GOOD[3:]), "options.track[2]", "only the first"),
        (_track(*GOOD[:2], ("lava", 3), *GOOD[3:]), "options.track[2].kind", "expected one of 'start'"),
        (_track(*GOOD[:2], ("blue", 9), *GOOD[3:]), "options.track[2].value", "9 is outside -2…8"),
        (_track(*GOOD[:2], ("blue", -3), *GOOD[3:]), "options.track[2].value", "outside"),
        (_track(*GOOD[:2], ("blue", True), *GOOD[3:]), "options.track[2].value", "integer"),
        (_track(*GOOD[:-1]), "options.track", "exactly 4 summit spaces, not 3"),
        (_track(*GOOD[:-1], ("plain", 1)), "options.track", "exactly 4 summit spaces, not 3"),
        (_track(*GOOD[:2], ("summit", 3), *GOOD[3:]), "options.track", "exactly 4 summit spaces, not 5"),
        (_track(*GOOD[:4], ("summit", 3), ("plain", 1), *GOOD[5:]), "options.track[4]", "must be the last"),
        ([*_track(*GOOD[:2]), {"kind": "blue"}, *_track(*GOOD[3:])], "options.track[2].value", "required"),
        (
            [*_track(*GOOD[:2]), {"kind": "blue", "value": 1, "x": 0}, *_track(*GOOD[3:])],
            "options.track[2].x",
            "unknown",
        ),
        (_track(("start", 0), ("summit", 4), ("summit", 2), ("summit", 0)), "options.track", "5…200 items"),
    ],
)
def test_bad_custom_track(track: list[dict[str, Any]], path: str, words: str) -> None:
    with pytest.raises(InvalidOptions) as e:
        GAME.parse_options(2, {"track": track})
    assert e.value.path == path
    assert words in e.value.message


def test_custom_track_is_used() -> None:
    opts = GAME.parse_options(4, {"track": _track(*GOOD)})
    first = GAME.start(4, opts, random.Random(3))
    assert isinstance(first, GameStarted)
    assert spaces_to_json(first.track) == _track(*GOOD)
    state = GAME.initial_state(first)
    assert (state.track.summit_start, state.track.last) == (4, 7)
    assert to_json(GAME.view(state, None))["track"] == _track(*GOOD)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_deal(players: int) -> None:
    firsts = set()
    for seed in range(30):
        first = GAME.start(players, GAME.parse_options(players, {}), random.Random(seed))
        assert isinstance(first, GameStarted)
        assert len({c.dragon for c in first.riders}) == players
        assert [len(h) for h in first.hands] == [6] * players
        everything = [*first.riders, *(c for h in first.hands for c in h), *first.draw_pile]
        assert sorted(code_of(c) for c in everything) == sorted(DECK)
        firsts.add(first.first_player)
        state = GAME.initial_state(first)
        assert state.phase == PLAY and state.current == first.first_player
        assert state.positions == (0,) * 10
    assert firsts == set(range(players))  # random first player
    fixed = GAME.start(players, GAME.parse_options(players, {"first_player": players - 1}), random.Random(0))
    assert isinstance(fixed, GameStarted) and fixed.first_player == players - 1


class _NoShuffle(random.Random):
    """Keeps the deck in canonical order and records what was shuffled."""

    def __init__(self) -> None:
        super().__init__(0)
        self.shuffled: list[list[Any]] = []

    def shuffle(self, x: Any) -> None:
        self.shuffled.append(list(x))


def test_set_aside_rider_cards_are_shuffled_back() -> None:
    rng = _NoShuffle()
    first = GAME.start(3, GAME.parse_options(3, {"first_player": 0}), rng)
    assert isinstance(first, GameStarted)
    # canonical order: 11 blue, 11 brown, 11 black…: riders are the first card of each dragon
    assert first.riders == (card("blue", 1), card("brown", 1), card("black", 1))
    assert len(rng.shuffled) == 2
    back = Counter(rng.shuffled[1])  # the second shuffle: the rest of the deck plus the set-aside cards
    assert back[code_of(card("blue", 5))] == 2 and back[code_of(card("brown", 1))] == 1
    assert sum(back.values()) == 110 - 3
    # without a real shuffle the set-aside blue and brown cards end at the bottom of the pile
    assert {c.dragon for c in first.draw_pile[-20:]} == {D.BLUE, D.BROWN}


HAND_0 = (card("red", 1),) * 2 + (card("yellow", 5),) * 2 + (card("gray", 2),) * 2
HAND_1 = (card("green", 3),) * 3 + (card("orange", 4),) * 2 + (card("blue", 5),)


def test_explicit_setup() -> None:
    riders = [card("red", 3), card("blue", 1)]
    hands = [list(HAND_0), list(HAND_1)]
    first, state = rigged(riders, hands, top=[card("purple", 2)], first_player=1)
    assert first.riders == tuple(riders) and first.first_player == 1 and state.current == 1
    assert first.hands[1][0] == card("green", 3)
    assert first.draw_pile[0] == card("purple", 2) and len(first.draw_pile) == 110 - 14
    jsonschema.validate(setup_json(riders, hands), GAME.schemas()["setup"])
    jsonschema.Draft202012Validator.check_schema(GAME.schemas()["setup"])


def _base() -> dict[str, Any]:
    hands = [list(HAND_0), list(HAND_1)]
    return setup_json([card("red", 3), card("blue", 1)], hands)


def _mutate(change: str) -> dict[str, Any]:
    s = _base()
    if change == "hand_size":
        s["hands"][1] = s["hands"][1][:5]
        s["draw_pile"].append(_base()["hands"][1][5])
    elif change == "duplicate":
        s["draw_pile"][0] = cj("red", 1)  # a third red 1
    elif change == "missing":
        s["draw_pile"].pop()
    elif change == "riders_same_dragon":
        s["draw_pile"].remove(cj("red", 4))
        s["draw_pile"].append(s["riders"][1])
        s["riders"][1] = cj("red", 4)
    elif change == "seats":
        s["riders"].append(s["draw_pile"].pop())
    elif change == "bad_card":
        s["hands"][0][3] = cj("red", 6)
    elif change == "bad_dragon":
        s["draw_pile"][5] = {"dragon": "pink", "value": 1}
    elif change == "first_player":
        s["first_player"] = 2
    elif change == "unknown":
        s["seed"] = 4
    elif change == "no_pile":
        del s["draw_pile"]
    return s


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ("hand_size", "setup.hands[1]"),
        ("duplicate", "setup.draw_pile[0]"),
        ("missing", "setup"),
        ("riders_same_dragon", "setup.riders[1]"),
        ("seats", "setup.riders"),
        ("bad_card", "setup.hands[0][3].value"),
        ("bad_dragon", "setup.draw_pile[5].dragon"),
        ("first_player", "setup.first_player"),
        ("unknown", "setup.seed"),
        ("no_pile", "setup.draw_pile"),
    ],
)
def test_bad_setup(change: str, path: str) -> None:
    GAME.start(2, GAME.parse_options(2, {}), random.Random(0), _base())  # the base is valid
    with pytest.raises(InvalidOptions) as e:
        GAME.start(2, GAME.parse_options(2, {}), random.Random(0), _mutate(change))
    assert e.value.path == path, e.value.message


def test_setup_first_player_conflicts_with_option() -> None:
    with pytest.raises(InvalidOptions) as e:
        GAME.start(
            2, GAME.parse_options(2, {"first_player": 0}), random.Random(0), {**_base(), "first_player": 1}
        )
    assert e.value.path == "setup.first_player"
    without = {k: v for k, v in _base().items() if k != "first_player"}
    first = GAME.start(2, GAME.parse_options(2, {"first_player": 1}), random.Random(0), without)
    assert isinstance(first, GameStarted) and first.first_player == 1
