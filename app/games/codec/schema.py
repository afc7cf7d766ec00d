"""JSON Schema (Draft 2020-12) generated from the same types the codec encodes and decodes.

`json_schema(tp)` covers every type the decoder supports. A dataclass is an object with
`additionalProperties: false`, its fields as properties (with their defaults), `required` = the
fields without a default, and `"type": {"const": TAG}` first and required when it is tagged; its
description is the class docstring. `Annotated[X, Doc(text, **keywords)]` adds a description and
keywords (bounds, examples) to X. Optional members are a `null` alternative, `Literal` and enums an
`enum`, tuples arrays (fixed-length ones with `prefixItems`), `Mapping[K, X]` an object whose
values are X (and whose names are K when K is an enum). Dataclasses and enums are defined once
under `$defs` and referenced, so recursive types work; the root type is written inline.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeGuard

from app.games.codec.doc import JSON, merged
from app.games.codec.encode import to_json

DRAFT = "https://json-schema.org/draft/2020-12/schema"

_PRIMITIVES: dict[object, JSON] = {
    type(None): {"type": "null"},
    bool: {"type": "boolean"},
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
}


def json_schema(tp: object, title: str | None = None, description: str | None = None) -> dict[str, JSON]:
    """A standalone Draft 2020-12 schema document for values of type `tp`."""
    builder = _Builder()
    root = builder.root(tp)
    out: dict[str, JSON] = {"$schema": DRAFT, **root}
    if title:
        out["title"] = title
    if description:
        out["description"] = description
    if builder.defs:
        out["$defs"] = dict(sorted(builder.defs.items()))
    return out


def describe(obj: type) -> str | None:
    """The docstring of a class, unless it is the one `dataclasses` or `enum` generated."""
    doc = getattr(obj, "__doc__", None)
    if not doc or doc.startswith(f"{obj.__name__}(") or doc == enum.Enum.__doc__:
        return None
    # Paragraphs unwrapped: a schema is read by tools that wrap text themselves.
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, JSON] = {}
        self.names: dict[object, str] = {}
        self.referenced: set[str] = set()

    def root(self, tp: object) -> JSON:
        if not _named(tp):
            return self.schema(tp)
        name = self.define(tp)
        if name in self.referenced:  # recursive: the root must stay addressable
            return {"$ref": f"#/$defs/{name}"}
        body: JSON = self.defs.pop(name)
        return body

    def schema(self, tp: object) -> JSON:
        if tp is Any:
            return {}
        if tp in _PRIMITIVES:
            return dict(_PRIMITIVES[tp])
        if _named(tp):
            name = self.define(tp)
            self.referenced.add(name)
            return {"$ref": f"#/$defs/{name}"}
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Annotated:
            out = dict(self.schema(args[0]))
            doc = merged(args[1:])
            if doc.text:
                out["description"] = doc.text
            out.update(doc.keywords)
            return out
        if origin is typing.Literal:
            return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if origin in (typing.Union, types.UnionType):
            return {"oneOf": [self.schema(a) for a in args]}
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.schema(args[0])}
            items = [self.schema(a) for a in args]
            return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items)}
        if origin in (Mapping, dict) or (isinstance(origin, type) and issubclass(origin, Mapping)):
            out = {"type": "object", "additionalProperties": self.schema(args[1])}
            if args[0] is not str:
                out["propertyNames"] = self.schema(args[0])
            return out
        raise TypeError(f"no JSON Schema for {tp!r}")

    def define(self, tp: type) -> str:
        """Name `tp` under `$defs`, writing its definition the first time it is met."""
        name = self.names.get(tp)
        if name is not None:
            return name
        name = tp.__name__
        n = 1
        while name in self.names.values():
            n += 1
            name = f"{tp.__name__}{n}"
        self.names[tp] = name
        self.defs[name] = {}  # reserved before recursing, so a self-reference finds it
        self.defs[name] = self._enum(tp) if issubclass(tp, enum.Enum) else self._object(tp)
        return name

    def _enum(self, tp: type[enum.Enum]) -> JSON:
        values = [m.value for m in tp]
        out: JSON = {"title": tp.__name__}
        if all(isinstance(v, str) for v in values):
            out["type"] = "string"
        doc = describe(tp)
        if doc:
            out["description"] = doc
        out["enum"] = values
        return out

    def _object(self, cls: type) -> JSON:
        hints = typing.get_type_hints(cls, include_extras=True)
        properties: dict[str, JSON] = {}
        required: list[str] = []
        tag = getattr(cls, "TYPE", None)
        if isinstance(tag, str):
            properties["type"] = {"const": tag}
            required.append("type")
        for f in dataclasses.fields(cls):
            member = self.schema(hints[f.name])
            if f.default is not dataclasses.MISSING:
                member = {**member, "default": to_json(f.default)}
            elif f.default_factory is not dataclasses.MISSING:
                member = {**member, "default": to_json(f.default_factory())}
            else:
                required.append(f.name)
            properties[f.name] = member
        out: JSON = {"title": cls.__name__, "type": "object"}
        doc = describe(cls)
        if doc:
            out["description"] = doc
        out["properties"] = properties
        out["required"] = required
        out["additionalProperties"] = False
        return out


def _named(tp: object) -> TypeGuard[type]:
    """Types that get a `$defs` entry: dataclasses and enums."""
    return isinstance(tp, type) and (dataclasses.is_dataclass(tp) or issubclass(tp, enum.Enum))
