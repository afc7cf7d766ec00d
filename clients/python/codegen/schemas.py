"""JSON Schemas → the generator's modules (`codegen.ir`).

Three sources make four kinds of module:

- `models`: the HTTP envelope (`components.schemas` of `openapi/openapi.json`, `…Out` names
  without the suffix) and the stream frames (`$defs` of `openapi/stream-frames.schema.json`);
  the same name in both must be the same schema.
- `games.<game>`: one game's served schemas (`GET /v1/games/{game}` → `schemas`): `View`, `Action`,
  `EventData`, `Options`, `Setup` and their `$defs`; a view's `game` member becomes the literal
  game name, so a union of views is discriminated by it.
- `games.common`: the `$defs` that every game defining them defines alike (match-level events, the
  view's clock and outcome, draft actions), so `isinstance(e, common.MatchEnded)` works for all.
- `games`: the unions over every game (`View`, `Action`, `EventData`, `Options`, `Setup`).

The envelope's game payloads (`EventOut.data`, `ViewOut`, `SubmitAction.action`…) refer to the
games' components of openapi.json (`MountDragoView`, `YutakaEvent`, `MatchEvent`, `MountDrago_Card`…);
those are the served schemas again, so `models` skips them and the `OVERRIDES` put the game unions
(or, where an unknown game's payload must pass, open objects) in their place.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Mapping
from typing import Any

from codegen.ir import ANY, NONE, Alias, Arr, Class, Field, Lit, Map, Module, Prim, Ref, Type, refs, union

JSON = dict[str, Any]
OPEN = Map(Prim("str"), ANY)
UNKNOWN = Ref("wire", "Unknown")
GAME_KINDS = {
    "view": "View",
    "action": "Action",
    "event": "EventData",
    "options": "Options",
    "setup": "Setup",
}
OVERRIDES: dict[tuple[str, str], Type] = {
    ("Event", "data"): Ref("games", "EventData"),
    ("SubmitAction", "action"): union(Ref("games", "Action"), OPEN),
    ("ActionFrame", "action"): union(Ref("games", "Action"), OPEN),
    ("CreateMatch", "options"): union(Ref("games", "Options"), OPEN),
    ("CreateMatch", "setup"): union(Ref("games", "Setup"), OPEN, NONE),
    ("View", "legal_actions"): Arr(OPEN),  # sent back unchanged: kept as the JSON objects they are
    ("Match", "options"): OPEN,
    ("CreatedMatch", "options"): OPEN,
    ("Reveal", "options"): OPEN,
}
"""Members the envelope leaves open and the game schemas describe."""
REPLACED = {"ViewOut": Ref("games", "View")}
"""Envelope schemas that stand for a game's payload: the union over the games replaces them."""
_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def model_name(name: str) -> str:
    """`MatchOut` → `Match`: response models are named for what they are."""
    return name[:-3] if name.endswith("Out") and len(name) > 3 else name


class Reader:
    """Reads the schemas of one document into `module`; `names` maps a `$ref` to its `Ref`."""

    def __init__(self, module: Module, names: Mapping[str, Ref]) -> None:
        self.module = module
        self.names = names

    def declare(self, name: str, schema: JSON) -> Ref:
        """A named schema: a class for an object with members, else an alias."""
        doc = str(schema.get("description", ""))
        if _is_class(schema):
            return self.module.add(self._class(name, schema, doc))
        return self.module.add(Alias(name, doc, self.type(schema, name)))

    def _class(self, name: str, schema: JSON, doc: str) -> Class:
        required = set(schema.get("required", ()))
        fields: list[Field] = []
        for key, prop in schema["properties"].items():
            override = OVERRIDES.get((name, key))
            tp = override if override is not None else self.type(prop, name + _camel(key))
            default = prop.get("default") if isinstance(prop, dict) else None
            if key not in required:
                if not _scalar(default):
                    default = None
                if default is None:
                    tp = union(tp, NONE)
            fields.append(
                Field(_identifier(key), key, tp, key in required, default, str(prop.get("description", "")))
            )
        return Class(name, doc, fields)

    def type(self, schema: Any, hint: str) -> Type:
        """The type of a schema; an inline object with members becomes a class named `hint`."""
        if not isinstance(schema, dict) or not schema:
            return ANY
        if "$ref" in schema:
            return self.names[schema["$ref"]]
        if "const" in schema:
            return Lit((schema["const"],))
        if "enum" in schema:
            return union(*(NONE if v is None else Lit((v,)) for v in schema["enum"]))
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return union(*(self.type(s, hint) for s in schema[key]))
        kind = schema.get("type")
        if isinstance(kind, list):
            return union(*(self.type({**schema, "type": k}, hint) for k in kind))
        if kind == "array":
            return Arr(self.type(schema.get("items"), hint + "Item"))
        if kind == "object":
            if _is_class(schema):
                name = _inline_name(schema, hint)
                return self.module.add(self._class(name, schema, str(schema.get("description", ""))))
            extra = schema.get("additionalProperties", True)
            names = self.type(schema["propertyNames"], hint) if "propertyNames" in schema else Prim("str")
            return Map(names, self.type(extra, hint + "Value") if isinstance(extra, dict) else ANY)
        if kind == "string" and schema.get("format") == "date-time":
            return Prim("datetime")
        if kind in _SCALARS:
            return Prim(_SCALARS[kind])
        return ANY


def read_models(openapi: JSON, frames: JSON, games: Mapping[str, Any] | None = None) -> Module:
    module = Module("models", "The HTTP API's envelope types and the stream frames.")
    games = games or {}
    sources = [
        ("#/components/schemas/", openapi["components"]["schemas"]),
        ("#/$defs/", frames["$defs"]),
    ]
    names: dict[str, Ref] = {}
    for prefix, defs in sources:
        for name in defs:
            if not _game_component(name, games):
                names[prefix + name] = REPLACED.get(name) or Ref("models", model_name(name))
    reader = Reader(module, names)
    for _, defs in sources:
        for name, schema in sorted(defs.items()):
            if name not in REPLACED and not _game_component(name, games):
                reader.declare(model_name(name), schema)
    return module


def _game_component(name: str, games: Mapping[str, Any]) -> bool:
    """A game's component of the documents (`MountDragoView`, `MountDrago_Card`, `MatchEvent`,
    `Match_SeatJoined`…): the served schemas again, which `read_games` reads."""
    if name == "MatchEvent" or name.startswith("Match_"):
        return True
    for game in games:
        prefix = "".join(w.capitalize() for w in game.split("_"))
        if name.startswith(prefix + "_") or name in {prefix + k for k in (*GAME_KINDS.values(), "Event")}:
            return True
    return False


def read_games(games: Mapping[str, Mapping[str, JSON]], envelope: JSON) -> list[Module]:
    """`games.common`, one `games.<game>` per game, then `games` (the unions).

    `envelope` is the API's schema of any view (`ViewOut`): its members, typed as the games type
    them, make `common.AnyView`, the view of a game this client does not know, so that every
    member of the `View` union has the envelope's attributes.
    """
    defs = {game: _game_defs(game, schemas) for game, schemas in sorted(games.items())}
    shared = _shared(defs)
    common = Module(
        "games.common", "The game schemas' types that every game shares: match-level events and more."
    )
    modules = [common]
    for game, own in defs.items():
        module = Module(
            f"games.{game}", f"The payloads of {game}: its view, actions, events, options and setup."
        )
        names = {f"#/$defs/{n}": Ref(common.name if n in shared else module.name, n) for n in own}
        for name, schema in own.items():
            Reader(common if name in shared else module, names).declare(name, schema)
        for kind, root in GAME_KINDS.items():
            schema = _root(games[game][kind])
            if root == "View":
                schema = _with_game(schema, game)
            Reader(module, names).declare(root, schema)
        modules.append(module)
    common.add(_any_view(modules[1], envelope))
    top = Module("games", "Every game's payload types, and unions over the games.")
    for root, doc in TOP_DOCS.items():
        members = [Ref(f"games.{game}", root) for game in defs]
        extra = {"View": [Ref(common.name, "AnyView")], "EventData": [UNKNOWN]}.get(root, [])
        top.add(Alias(root, doc, union(*members, *extra)))
    return [*modules, top]


TOP_DOCS = {
    "View": "A view of any game: the game's class (its `game` tells which), or `common.AnyView`.",
    "Action": "An action of any game.",
    "EventData": "The `data` of any event: a game's event, a match-level one, or `Unknown` (a newer server).",
    "Options": "The options of any game (`createMatch`).",
    "Setup": "The development-only explicit deal of any game (`createMatch`).",
}


def _any_view(game_module: Module, envelope: JSON) -> Class:
    view = game_module.decls["View"]
    assert isinstance(view, Class)
    keys = set(envelope["properties"])
    fields = [f for f in view.fields if f.key in keys]
    fields = [
        Field(f.name, f.key, Prim("str"), f.required, f.default, f.doc) if f.key == "game" else f
        for f in fields
    ]
    doc = "The view of a game this client was not generated for: the match envelope's members only."
    return Class("AnyView", doc, fields)


def _game_defs(game: str, schemas: Mapping[str, JSON]) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for kind in GAME_KINDS:
        for name, schema in schemas[kind].get("$defs", {}).items():
            if out.setdefault(name, schema) != schema:
                raise ValueError(f"{game}: two different schemas are both named {name}")
    return dict(sorted(out.items()))


def _shared(defs: Mapping[str, Mapping[str, JSON]]) -> set[str]:
    """Names defined alike by every game that defines them (at least two), refs included."""
    by_name: dict[str, list[str]] = {}
    for own in defs.values():
        for name, schema in own.items():
            by_name.setdefault(name, []).append(json.dumps(schema, sort_keys=True))
    shared = {n for n, texts in by_name.items() if len(texts) > 1 and len(set(texts)) == 1}
    changed = True
    while changed:  # a shared schema must refer to shared schemas only
        changed = False
        for name in sorted(shared):
            text = json.loads(by_name[name][0])
            if any(ref not in shared for ref in _refs_of(text)):
                shared.discard(name)
                changed = True
    return shared


def _refs_of(schema: Any) -> set[str]:
    if isinstance(schema, dict):
        found = {schema["$ref"].rsplit("/", 1)[-1]} if isinstance(schema.get("$ref"), str) else set()
        return found.union(*(_refs_of(v) for v in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_refs_of(v) for v in schema))
    return set()


def _root(schema: JSON) -> JSON:
    return {k: v for k, v in schema.items() if k not in ("$defs", "$schema")}


def _with_game(view: JSON, game: str) -> JSON:
    """The view with its `game` member pinned to `game` (what the server sends for this game)."""
    props = dict(view.get("properties", {}))
    if "game" in props:
        props["game"] = {**props["game"], "const": game}
    return {**view, "properties": props}


def _inline_name(schema: JSON, hint: str) -> str:
    """An inline object's class name: its title, else its `type` constant in camel case, else `hint`."""
    if isinstance(schema.get("title"), str) and schema["title"].isidentifier():
        return str(schema["title"])
    tag = schema["properties"].get("type")
    if isinstance(tag, dict) and isinstance(tag.get("const"), str):
        return _camel(tag["const"])
    return hint


def _is_class(schema: Any) -> bool:
    return isinstance(schema, dict) and bool(schema.get("properties")) and "$ref" not in schema


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _camel(key: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", key) if part)


def _identifier(key: str) -> str:
    name = re.sub(r"\W", "_", key)
    if not name or name[0].isdigit():
        name = "_" + name
    return name + "_" if keyword.iskeyword(name) else name


__all__ = ["Reader", "read_games", "read_models", "refs"]
