"""The JSON codec shared by both games: round trips and readable errors."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Literal

import pytest

from app.games.codec import DecodeError, decode_tagged, from_json, to_json


class Colour(enum.StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Card:
    colour: Colour
    value: int


@dataclass(frozen=True, slots=True)
class Play:
    TYPE: ClassVar[str] = "play"
    card: Card
    cards: tuple[Card, ...] = ()
    choice: Literal["keep", "switch"] | None = None
    pair: tuple[int, str] = (0, "")


@dataclass(frozen=True, slots=True)
class Pass:
    TYPE: ClassVar[str] = "pass"


ACTIONS: dict[str, type[object]] = {"play": Play, "pass": Pass}


def test_round_trip() -> None:
    action = Play(Card(Colour.RED, 3), (Card(Colour.BLUE, 1),), "keep", (2, "x"))
    data = to_json(action)
    assert data == {
        "type": "play",
        "card": {"colour": "red", "value": 3},
        "cards": [{"colour": "blue", "value": 1}],
        "choice": "keep",
        "pair": [2, "x"],
    }
    assert decode_tagged(ACTIONS, data) == action
    assert decode_tagged(ACTIONS, {"type": "pass"}) == Pass()


def test_defaults_fill_missing_optional_members() -> None:
    assert from_json(Play, {"card": {"colour": "blue", "value": 1}}) == Play(Card(Colour.BLUE, 1))


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"type": "fly"}, "unknown value type 'fly'"),
        ([], "must be a JSON object"),
        ({"type": "play"}, "$.card: required"),
        ({"type": "play", "card": {"colour": "green", "value": 1}}, "$.card.colour: expected one of"),
        ({"type": "play", "card": {"colour": "red", "value": True}}, "$.card.value: expected an integer"),
        ({"type": "play", "card": {"colour": "red", "value": 1}, "x": 1}, "unknown member(s) x"),
        ({"type": "play", "card": {"colour": "red", "value": 1}, "choice": "maybe"}, "expected one of"),
        ({"type": "play", "card": {"colour": "red", "value": 1}, "cards": {}}, "expected an array"),
        ({"type": "play", "card": {"colour": "red", "value": 1}, "pair": [1]}, "array of 2 items"),
    ],
)
def test_decode_errors_name_the_path(data: object, fragment: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode_tagged(ACTIONS, data)
    assert fragment in str(info.value)


def test_unencodable_value_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        to_json(object())
