"""JSON Schemas and JSON values written for people: types in words, member tables, compact JSON.

`words(schema)` says what a member holds ("array of `Card`", "integer 1–5", "`Dragon` → integer",
"string or null"); `rows(schema)` lists an object's members with their type, default and the
schema's own description; `form_of(data, alternatives)` names the alternative of a union a payload
is (by its `type` and its members: an event and its redacted form share a `type`); `dump` writes
JSON with short arrays and objects kept on one line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from app.games.codec import JSON

WIDTH: Final = 104
"""Characters per line of the JSON examples."""
PACKED: Final = 40
"""Arrays whose items are all this short are written several items per line."""


def ref_name(schema: Mapping[str, JSON]) -> str | None:
    ref = schema.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def words(schema: Mapping[str, JSON]) -> str:
    """What a value of `schema` is, in a few words."""
    name = ref_name(schema)
    if name is not None:
        return f"`{name}`"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    for union in ("oneOf", "anyOf"):
        if union in schema:
            return " or ".join(words(alt) for alt in schema[union])
    kind = schema.get("type")
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(words(item) for item in schema["prefixItems"]) + "]"
        return f"array of {words(schema.get('items', {}))}"
    if kind == "object":
        tag = schema.get("properties", {}).get("type", {}).get("const")
        if isinstance(tag, str) and set(schema["properties"]) == {"type"}:
            return f'`{{"type": "{tag}"}}`'
        values = schema.get("additionalProperties")
        keys = schema.get("propertyNames")
        if isinstance(values, dict):
            value_words = words(values) if values else "any value"
            return f"object: {words(keys) if keys else 'name'} → {value_words}"
        return "object"
    if kind == "integer":
        return "integer" + _bounds(schema)
    if kind in ("string", "boolean", "number", "null"):
        return str(kind)
    return "any JSON value"


def _bounds(schema: Mapping[str, JSON]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" ≥ {low}"
    if high is not None:
        return f" ≤ {high}"
    return ""


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    type: str
    description: str
    default: str | None  # the JSON of the default, when the member has one


def rows(schema: Mapping[str, JSON]) -> list[Row]:
    """The members of an object schema, in order (`type` left out: it is the heading)."""
    out = []
    for name, member in schema.get("properties", {}).items():
        if name == "type" and "const" in member:
            continue
        default = json.dumps(member["default"], ensure_ascii=False) if "default" in member else None
        out.append(Row(name, words(member), member.get("description", ""), default))
    return out


def form_of(data: Mapping[str, JSON], alternatives: Mapping[str, Mapping[str, JSON]]) -> str:
    """The name of the alternative `data` is: same `type`, every required member there and no other."""
    found = [
        name
        for name, alt in alternatives.items()
        if alt.get("properties", {}).get("type", {}).get("const") == data.get("type")
        and set(alt.get("required", ())) <= set(data) <= set(alt.get("properties", {}))
    ]
    if len(found) != 1:
        raise ValueError(f"{data.get('type')}: {len(found)} alternatives fit {sorted(data)}")
    return found[0]


def dump(value: JSON, indent: int = 0, column: int | None = None) -> str:
    """JSON, two-space indented, with anything that fits on its line kept on one line (`column`: where
    the value starts, after its member's name)."""
    flat = json.dumps(value, ensure_ascii=False)
    start = indent if column is None else column
    if start + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [json.dumps(item, ensure_ascii=False) for item in value]
        if max(map(len, items)) <= PACKED:  # many small items: as many per line as fit
            lines = [pad]
            for item in items:
                if lines[-1] != pad and len(lines[-1]) + len(item) + 2 > WIDTH:
                    lines[-1] = lines[-1].rstrip()
                    lines.append(pad)
                lines[-1] += item + ", "
            lines[-1] = lines[-1].rstrip()
            return "[\n" + "\n".join(lines)[:-1] + "\n" + " " * indent + "]"
        lines = [pad + dump(item, indent + 2) for item in value]
    else:
        lines = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False)
            lines.append(f"{pad}{key}: {dump(v, indent + 2, indent + 4 + len(key))}")
    opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
    return opening + "\n" + ",\n".join(lines) + "\n" + " " * indent + closing
