"""The generator's intermediate form: named classes and aliases over a small tree of types.

`codegen.schemas` reads JSON Schemas into it, `codegen.python` writes it out as Python. A `Ref`
names a class or an alias by its module and name, so one module's types can use another's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Prim:
    """`str`, `int`, `float`, `bool`, `None`, `datetime` or `Any`."""

    name: str


@dataclass(frozen=True)
class Lit:
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Ref:
    module: str
    name: str


@dataclass(frozen=True)
class Arr:
    item: Type


@dataclass(frozen=True)
class Map:
    key: Type
    value: Type


@dataclass(frozen=True)
class Union:
    items: tuple[Type, ...]


Type = Prim | Lit | Ref | Arr | Map | Union

ANY = Prim("Any")
NONE = Prim("None")


@dataclass
class Field:
    name: str  # the Python name
    key: str  # the JSON member
    type: Type
    required: bool
    default: Any = None  # a JSON scalar (or None) for an optional member
    doc: str = ""


@dataclass
class Class:
    name: str
    doc: str
    fields: list[Field] = field(default_factory=list)


@dataclass
class Alias:
    name: str
    doc: str
    type: Type


Decl = Class | Alias


@dataclass
class Module:
    """One generated module: its declarations in order, and a docstring."""

    name: str  # dotted, under the package, e.g. "games.yutaka"
    doc: str
    decls: dict[str, Decl] = field(default_factory=dict)

    def add(self, decl: Decl) -> Ref:
        old = self.decls.get(decl.name)
        if old is not None and old != decl:
            raise ValueError(f"{self.name}: two different declarations are both named {decl.name}")
        self.decls[decl.name] = decl
        return Ref(self.name, decl.name)


def union(*types: Type) -> Type:
    """A flattened union without repeats (a single member stands alone)."""
    items: list[Type] = []
    for t in types:
        for member in t.items if isinstance(t, Union) else (t,):
            if member not in items:
                items.append(member)
    if len(items) == 1:
        return items[0]
    # Merge literal alternatives into one `Literal[...]`; `None` goes last.
    lits = [m for m in items if isinstance(m, Lit)]
    if len(lits) > 1:
        merged = Lit(tuple(v for lit in lits for v in lit.values))
        items = [merged if m is lits[0] else m for m in items if not isinstance(m, Lit) or m is lits[0]]
    items.sort(key=lambda m: m == NONE)
    return Union(tuple(items))


def refs(t: Type) -> list[Ref]:
    """Every `Ref` inside a type."""
    if isinstance(t, Ref):
        return [t]
    if isinstance(t, Arr):
        return refs(t.item)
    if isinstance(t, Map):
        return refs(t.key) + refs(t.value)
    if isinstance(t, Union):
        return [r for item in t.items for r in refs(item)]
    return []
