"""The games' wire schemas as named components of the published documents, and references to them.

`openapi/openapi.json` and `openapi/stream-frames.schema.json` describe views, actions, event data,
options and setups with the JSON Schemas each game serves at `GET /v1/games/{game}`
(`app.matches.contract.wire_schemas`), lifted into named components:

- `<Game><Kind>`, e.g. `MountDragoView`, `MountDragoAction`, `MountDragoEvent`, `MountDragoOptions`,
  `MountDragoSetup`, `YutakaView`, …, where `<Game>` is the game's name in CamelCase;
- `MatchEvent`: the match-level events (seats, start, end, drafts…), which every `<Game>Event` lists
  beside the game's own events;
- each document's `$defs` as `<Game>_<Name>` (`MountDrago_Card`, `Yutaka_Tile`), except those of the
  match layer, the same in every game, which are `Match_<Name>` once (`Match_SeatJoined`,
  `Match_SeatClock`). Every `#/$defs/X` reference is rewritten to the component's.

`reference_games` then points the API's generic members at them: a view (`ViewOut`, the envelope's
members) is also `oneOf` the games' views, discriminated by `game`; an `action` is `anyOf` every
game's actions, an event's `data` `anyOf` every game's events (the event envelope does not name its
game), `options` and `setup` `anyOf` the games' own (the game is named beside them). Validating a
payload against a component is validating it against the served schema: the contract tests check
both on every payload they see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from app.games.codec import JSON, json_schema
from app.games.core import AnyGame
from app.matches.contract import Envelope, game_event_schema, match_event_schema, wire_schemas

MATCH_EVENT: Final = "MatchEvent"
MATCH_PREFIX: Final = "Match"
KIND_NAMES: Final = {
    "view": "View", "action": "Action", "event": "Event", "options": "Options", "setup": "Setup"
}  # fmt: skip
"""The component suffix of each kind of `wire_schemas`."""
_DROPPED: Final = ("$schema", "$defs")

Games = Iterable[AnyGame]


def prefix_of(game: AnyGame) -> str:
    """`mount_drago` → `MountDrago`."""
    return "".join(part.capitalize() for part in game.info.name.split("_"))


def component_name(game: AnyGame, kind: str) -> str:
    return prefix_of(game) + KIND_NAMES[kind]


def game_components(games: Games, ref: str) -> dict[str, JSON]:
    """Every game's wire schemas and `MatchEvent` as components whose references start with `ref`
    (`#/components/schemas/` or `#/$defs/`)."""
    shared = _match_defs()
    out: dict[str, JSON] = {}
    _add(out, _Lifter(MATCH_PREFIX, shared, ref).lift(MATCH_EVENT, match_event_schema()))
    for game in games:
        lifter = _Lifter(prefix_of(game), shared, ref)
        wire = wire_schemas(game)
        for kind in KIND_NAMES:
            name = component_name(game, kind)
            if kind != "event":
                _add(out, lifter.lift(name, wire[kind]))
                continue
            # The game's half, with the match-level half referenced as one component.
            lifted = lifter.lift(name, game_event_schema(game))
            root = lifted[name]
            root["anyOf"] = [*root["anyOf"], {"$ref": ref + MATCH_EVENT}]
            root["title"], root["description"] = wire[kind]["title"], wire[kind]["description"]
            _add(out, lifted)
    return out


UNDEALT = "UndealtView"  # the component of a view before the deal


def reference_games(
    schemas: dict[str, JSON],
    games: Games,
    ref: str,
    members: Iterable[tuple[str, str, str]],
    *,
    view: str | None = "ViewOut",
) -> None:
    """Point `schemas` (a document's components or `$defs`, changed in place) at the games'
    components, which are added: `view` (the envelope's members) is also `oneOf` the games' views
    and `UndealtView` (a match before its deal), and each `(component, member, kind)`
    of `members` becomes `anyOf` every game's schemas of that kind (`null` stays allowed where it
    was). A named component or member that does not exist is an error: renaming a model must not
    silently unlink it."""
    games = list(games)
    for name, schema in game_components(games, ref).items():
        if schemas.setdefault(name, schema) != schema:
            raise ValueError(f"the component {name} exists already")
    if view is not None:
        # The envelope's members stay (every game's view has them, typed as here or closer); the
        # game's view, closed, is one of the games' and says the rest.
        old = schemas[view]
        views = {g.info.name: ref + component_name(g, "view") for g in games}
        new: dict[str, JSON] = {k: v for k, v in old.items() if k != "additionalProperties"}
        new["description"] = (
            "The caller's view of a match: the match envelope's members (below) beside the game's own, "
            "in one object: exactly one of the games' views (`<Game>View`), told apart by `game`, or, "
            "before a drago-fair-2 match is dealt, `UndealtView` (the envelope alone)."
        )
        # A drago-fair-2 match is dealt when its last seat is taken: until then (and if it is aborted
        # before) its view is the envelope alone, closed (docs/fairness.md).
        schemas[UNDEALT] = {
            "title": UNDEALT,
            "description": "The view of a match not dealt yet: the envelope's members alone.",
            "type": "object",
            "properties": old["properties"],
            "required": old.get("required", []),
            "additionalProperties": False,
        }
        # No OpenAPI `discriminator`: `game` names the game of an undealt view too, which has no
        # game members; the closed schemas tell the alternatives apart.
        new["oneOf"] = [{"$ref": target} for target in [*views.values(), ref + UNDEALT]]
        schemas[view] = new
    for component, member, kind in members:
        properties = schemas[component]["properties"]
        old = properties[member]
        alternatives: list[JSON] = [{"$ref": ref + component_name(g, kind)} for g in games]
        if any(alt.get("type") == "null" for alt in old.get("anyOf", ())):
            alternatives.append({"type": "null"})
        kept = {k: v for k, v in old.items() if k in ("title", "description", "default", "examples")}
        properties[member] = {**kept, "anyOf": alternatives}


def prune(schemas: dict[str, JSON], roots: JSON, ref: str) -> None:
    """Remove the components of `schemas` that nothing reachable from `roots` refers to (the models
    that only the generic view described before `reference_games` replaced it)."""
    seen: set[str] = set()
    todo = list(_refs(roots, ref))
    while todo:
        name = todo.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            todo.extend(_refs(schemas[name], ref))
    for name in [n for n in schemas if n not in seen]:
        del schemas[name]


def _refs(node: JSON, ref: str) -> Iterable[str]:
    if isinstance(node, dict):
        target = node.get("$ref")
        if isinstance(target, str) and target.startswith(ref):
            yield target.removeprefix(ref)
        for value in node.values():
            yield from _refs(value, ref)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item, ref)


def _match_defs() -> dict[str, JSON]:
    """The definitions the match layer contributes to every game's documents."""
    return {**match_event_schema().get("$defs", {}), **json_schema(Envelope).get("$defs", {})}


def _add(out: dict[str, JSON], lifted: Mapping[str, JSON]) -> None:
    for name, schema in lifted.items():
        if out.setdefault(name, schema) != schema:
            raise ValueError(f"two different schemas are both named {name}")


class _Lifter:
    """Lifts one standalone document and its `$defs` into components (see the module docstring)."""

    def __init__(self, prefix: str, shared: Mapping[str, JSON], ref: str) -> None:
        self.prefix = prefix
        self.shared = shared
        self.ref = ref

    def lift(self, name: str, document: Mapping[str, JSON]) -> dict[str, JSON]:
        defs: Mapping[str, JSON] = document.get("$defs", {})
        names = {
            d: f"{MATCH_PREFIX}_{d}" if self.shared.get(d) == schema else f"{self.prefix}_{d}"
            for d, schema in defs.items()
        }
        out = {name: self._rewrite({k: v for k, v in document.items() if k not in _DROPPED}, names)}
        for d, schema in defs.items():
            out[names[d]] = self._rewrite(schema, names)
        return out

    def _rewrite(self, node: JSON, names: Mapping[str, str]) -> JSON:
        if isinstance(node, list):
            return [self._rewrite(item, names) for item in node]
        if not isinstance(node, dict):
            return node
        out = {k: self._rewrite(v, names) for k, v in node.items()}
        target = node.get("$ref")
        if isinstance(target, str):
            out["$ref"] = self.ref + names[target.removeprefix("#/$defs/")]
        return out
