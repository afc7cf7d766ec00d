"""Each named component of openapi.json says exactly what the served schema of its game says.

With every `$ref` replaced by its target, a game's `<Game>View`, `<Game>Action`, `<Game>Options`
and `<Game>Setup` equal the served `view`, `action`, `options` and `setup`, and `<Game>Event` with
`MatchEvent` spelled out lists the served `event`'s alternatives in the same order. So a payload is
valid against a component exactly when it is valid against the served schema (the playouts check
both on every payload anyway). And the app serves exactly `wire_schemas` under `schemas`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from app.api.components import KIND_NAMES, MATCH_EVENT, component_name
from app.games.registry import GAMES
from app.matches.contract import wire_schemas
from app.openapi import DEFAULT_PATH
from tests.contract.server import serving

COMPONENTS: dict[str, Any] = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))["components"]["schemas"]
REF = "#/components/schemas/"


def inline(node: Any, target: Callable[[str], Any], depth: int = 0) -> Any:
    """`node` with every `$ref` replaced by its target (the schemas are not recursive)."""
    assert depth < 40, "recursive"
    if isinstance(node, list):
        return [inline(item, target, depth) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: inline(v, target, depth) for k, v in node.items() if k not in ("$ref", "$defs", "$schema")}
    if "$ref" in node:
        out = {**inline(target(node["$ref"]), target, depth + 1), **out}
    return out


def _served(game: str, kind: str) -> Any:
    document = wire_schemas(GAMES[game])[kind]
    return inline(document, lambda ref: document["$defs"][ref.removeprefix("#/$defs/")])


def _component(name: str) -> Any:
    return inline(COMPONENTS[name], lambda ref: COMPONENTS[ref.removeprefix(REF)])


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("kind", [k for k in KIND_NAMES if k != "event"])
def test_a_component_is_its_served_schema(game: str, kind: str) -> None:
    assert _component(component_name(GAMES[game], kind)) == _served(game, kind)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_event_component_lists_the_served_alternatives(game: str) -> None:
    served = _served(game, "event")
    component = _component(component_name(GAMES[game], "event"))
    *own, match = component["anyOf"]
    assert match == _component(MATCH_EVENT)
    assert [*own, *match["oneOf"]] == served["anyOf"]
    component.pop("anyOf"), served.pop("anyOf")
    assert component == served  # title, description


async def test_the_app_serves_the_wire_schemas() -> None:
    async with serving() as server:
        for game in sorted(GAMES):
            r = await server.client.get(f"/v1/games/{game}")
            assert r.status_code == 200
            assert r.json()["schemas"] == json.loads(json.dumps(wire_schemas(GAMES[game])))
