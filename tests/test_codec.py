"""The JSON codec shared by both games: round trips, readable errors, bounds and JSON Schemas."""

from __future__ import annotations

import enum
import gc
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the dev extras

from app.games.codec import (
    DecodeError,
    Doc,
    decode_tagged,
    from_json,
    json_key,
    json_schema,
    memo_json,
    to_json,
)


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


# --- annotations: descriptions and bounds ---------------------------------------------------------

Value = Annotated[int, Doc("A card value.", minimum=1, maximum=5)]


@dataclass(frozen=True, slots=True)
class Hand:
    """Cards held by one player."""

    cards: Annotated[tuple[Card, ...], Doc("Top first.", maxItems=2)]
    values: tuple[Value, ...] = ()
    by_colour: Mapping[Colour, int] = field(default_factory=dict)
    owner: Annotated[Value, Doc("Seat of the owner.")] | None = None


@pytest.mark.parametrize(
    ("data", "path", "problem"),
    [
        ({"cards": [], "values": [0]}, "$.values[0]", "0 is outside 1…5"),
        ({"cards": [{"colour": "red", "value": 1}] * 3}, "$.cards", "expected ≤ 2 items, got 3"),
        ({"cards": [], "owner": 9}, "$.owner", "9 is outside 1…5"),
        ({"cards": [], "owner": "x"}, "$.owner", "expected an integer or expected null"),
        ({"cards": [], "by_colour": {"green": 1}}, "$.by_colour.green", "expected one of 'red', 'blue'"),
        ({"cards": [], "seat": 1}, "$.seat", "unknown member(s) seat"),
    ],
)
def test_annotated_bounds_are_enforced(data: object, path: str, problem: str) -> None:
    with pytest.raises(DecodeError) as info:
        from_json(Hand, data)
    assert (info.value.path, info.value.problem) == (path, problem)


def test_another_root_names_the_paths() -> None:
    with pytest.raises(DecodeError) as info:
        from_json(Hand, {"cards": [], "values": [7]}, "options.hand")
    assert str(info.value) == "options.hand.values[0]: 7 is outside 1…5"


def test_enum_keys_round_trip() -> None:
    hand = Hand((), by_colour={Colour.RED: 2})
    assert to_json(hand)["by_colour"] == {"red": 2}
    assert from_json(Hand, to_json(hand)) == hand


# --- JSON Schema ----------------------------------------------------------------------------------


def test_schema_of_a_tagged_dataclass() -> None:
    schema = json_schema(Play)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == ["type", "card"] and schema["additionalProperties"] is False
    props = schema["properties"]
    assert props["type"] == {"const": "play"}
    assert props["card"] == {"$ref": "#/$defs/Card"}
    assert props["choice"]["oneOf"] == [{"enum": ["keep", "switch"]}, {"type": "null"}]
    assert props["pair"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "items": False,
        "minItems": 2,
        "default": [0, ""],
    }
    assert schema["$defs"]["Colour"] == {"title": "Colour", "type": "string", "enum": ["red", "blue"]}
    card = schema["$defs"]["Card"]
    assert card["required"] == ["colour", "value"] and "description" not in card  # generated docstring


def test_schema_of_annotations_mappings_and_defaults() -> None:
    schema = json_schema(Hand, title="A hand")
    assert schema["title"] == "A hand" and schema["description"] == "Cards held by one player."
    props = schema["properties"]
    assert props["cards"]["description"] == "Top first." and props["cards"]["maxItems"] == 2
    assert props["values"]["items"] == {
        "type": "integer",
        "description": "A card value.",
        "minimum": 1,
        "maximum": 5,
    }
    assert props["owner"]["oneOf"][0]["description"] == "Seat of the owner."
    assert props["owner"]["oneOf"][0]["maximum"] == 5
    assert props["by_colour"] == {
        "type": "object",
        "additionalProperties": {"type": "integer"},
        "propertyNames": {"$ref": "#/$defs/Colour"},
        "default": {},
    }
    assert schema["required"] == ["cards"]


@dataclass(frozen=True, slots=True)
class Node:
    """A tree."""

    children: tuple[Node, ...] = ()


def test_schema_of_unions_and_recursive_types() -> None:
    schema = json_schema(Play | Pass)
    assert schema["oneOf"] == [{"$ref": "#/$defs/Play"}, {"$ref": "#/$defs/Pass"}]
    tree = json_schema(Node)
    assert tree["$ref"] == "#/$defs/Node" and tree["$defs"]["Node"]["properties"]["children"]["items"]
    validator = Draft202012Validator(tree)
    assert validator.is_valid({"children": [{"children": []}, {}]})
    assert not validator.is_valid({"children": [{"leaves": 1}]})


@pytest.mark.parametrize(
    "value",
    [
        Play(Card(Colour.RED, 3), (Card(Colour.BLUE, 1),), "keep", (2, "x")),
        Play(Card(Colour.BLUE, 5)),
        Pass(),
        Hand((Card(Colour.RED, 1),), (1, 5), {Colour.BLUE: 3}, 2),
    ],
)
def test_encoded_values_fit_their_schema(value: object) -> None:
    Draft202012Validator(json_schema(Play | Pass | Hand)).validate(to_json(value))


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play"},
        {"type": "play", "card": {"colour": "red", "value": 1}, "extra": 1},
        {"type": "pass", "card": {"colour": "red", "value": 1}},
        {"cards": [], "values": [6]},
        {"cards": [], "by_colour": {"green": 1}},
    ],
)
def test_what_the_decoder_refuses_the_schema_refuses(data: object) -> None:
    assert not Draft202012Validator(json_schema(Play | Pass | Hand)).is_valid(data)


def test_a_union_that_tries_several_alternatives_leaves_no_garbage_cycle() -> None:
    """The errors of the alternatives a union tried are kept without their tracebacks (each would
    hold its frame, which holds the list of errors: a cycle per miss on a hot path)."""
    gc.collect()
    gc.disable()
    try:
        either: Any = Pass | Play
        assert from_json(either, {"card": {"colour": "blue", "value": 1}}) == Play(Card(Colour.BLUE, 1))
        with pytest.raises(DecodeError):
            from_json(either, {"card": 3})
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_json_key_tells_equal_json_of_other_types_apart() -> None:
    assert json_key({"a": [1, {"b": None}]}) == json_key({"a": (1, {"b": None})})
    keys = {json_key(v) for v in (1, 1.0, True, "1", [1], {"1": 1})}
    assert len(keys) == 6
    with pytest.raises(TypeError, match="not JSON"):
        json_key({"a": object()})


def test_memo_json_remembers_results_not_refusals() -> None:
    calls: list[object] = []

    @memo_json
    def parse(players: int, raw: Mapping[str, Any] | None) -> tuple[int, str]:
        calls.append(raw)
        if raw and raw.get("bad"):
            raise ValueError("bad")
        return players, repr(raw)

    first = parse(2, {"x": [1]})
    assert parse(2, {"x": [1]}) is first and len(calls) == 1
    assert parse(2, {"x": [True]}) != first and parse(3, {"x": [1]}) != first  # other input: parsed
    assert parse(2, None) is parse(2, {})
    for _ in range(2):
        with pytest.raises(ValueError, match="bad"):
            parse(2, {"bad": 1})
    assert calls.count({"bad": 1}) == 2
    before = len(calls)
    parse(2.0, {"x": [1]})  # type: ignore[arg-type]  # 2.0 is not 2 to a parser: parsed again
    assert len(calls) == before + 1
