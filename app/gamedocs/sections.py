"""Markdown building blocks of a game page: member tables, JSON blocks, a schema's `$defs`.

Small helpers shared by `render` (vocabulary, view, actions, options) and `events`. A `Doc` is one
served schema document with its `$defs`, so that references can be followed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from app.gamedocs.words import Row, dump, ref_name, rows
from app.games.codec import JSON


@dataclass(frozen=True)
class Doc:
    """A served schema document (`view`, `action`, `event`, `options` or `setup`)."""

    schema: Mapping[str, JSON]

    @property
    def defs(self) -> Mapping[str, Mapping[str, JSON]]:
        defs: Mapping[str, Mapping[str, JSON]] = self.schema.get("$defs", {})
        return defs

    def resolve(self, node: Mapping[str, JSON]) -> Mapping[str, JSON]:
        name = ref_name(node)
        return node if name is None else self.defs[name]

    def alternatives(self) -> dict[str, Mapping[str, JSON]]:
        """The alternatives of a union document by name (a definition's name, else its `type`)."""
        out: dict[str, Mapping[str, JSON]] = {}
        for node in self.schema.get("anyOf", self.schema.get("oneOf", ())):
            name = ref_name(node) or node["properties"]["type"]["const"]
            out[name] = self.resolve(node)
        return out


def code(text: str) -> str:
    return f"`{text}`"


def json_block(value: JSON) -> str:
    return f"```json\n{dump(value)}\n```"


def table(entries: Iterable[Row], meanings: Mapping[str, str] | None = None, defaults: bool = False) -> str:
    """A member table: name, JSON type, (default,) meaning — `meanings[name]` if given, else the
    schema's description. A member without either is an error: every member is explained."""
    head = "| member | JSON | default | meaning |" if defaults else "| member | JSON | meaning |"
    lines = [head, "|---" * (4 if defaults else 3) + "|"]
    for row in entries:
        meaning = (meanings or {}).get(row.name) or row.description
        if not meaning:
            raise ValueError(f"member {row.name} has neither a description nor a text")
        cells = [code(row.name), row.type, *([code(row.default or "—")] if defaults else []), _cell(meaning)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def members_of(schema: Mapping[str, JSON], glossary: Mapping[str, str], defaults: bool = False) -> str:
    """An object's member table: each schema description, else the glossary's text for that member
    of that definition (`"Tile.value"`), else for that member name."""
    title = schema.get("title", "")

    def explained(row: Row) -> Row:
        text = row.description or glossary.get(f"{title}.{row.name}") or glossary.get(row.name, "")
        return replace(row, description=text)

    entries = [explained(r) for r in rows(schema)]
    return table(entries, defaults=defaults) if entries else "No members besides `type`."


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def anchor(title: str) -> str:
    """GitHub's anchor of a heading."""
    kept = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_")
    return "#" + kept.replace(" ", "-")
