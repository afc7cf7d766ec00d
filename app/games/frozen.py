"""`replace` for frozen dataclasses, as `dataclasses.replace` but compiled once per class.

Folding a match makes a new state for every event, and `dataclasses.replace` inspects the class's
fields on every call: measured with `python -m bench.stack`, it was close to a fifth of an action's
time in the service. This builds, once per class, a function that calls the class's own `__init__`
with each field taken from the changes or from the old object, so the result is exactly what
`dataclasses.replace` gives (fields with `init=False` take their defaults, `__post_init__` runs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_COMPILED: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass `obj` with `changes` (names of `__init__` fields only)."""
    cls = type(obj)
    build = _COMPILED.get(cls)
    if build is None:
        build = _COMPILED[cls] = _compile(cls)
    result: T = build(obj, changes)
    return result


def _compile(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    names = [f.name for f in dataclasses.fields(cls) if f.init]
    args = ", ".join(f"{n}=c[{n!r}] if {n!r} in c else o.{n}" for n in names)
    known = frozenset(names)
    namespace: dict[str, Any] = {"cls": cls}
    exec(f"def build(o, c):\n    return cls({args})\n", namespace)  # noqa: S102  # names from the class
    build: Callable[[Any, dict[str, Any]], Any] = namespace["build"]

    def checked(obj: Any, changes: dict[str, Any]) -> Any:
        unknown = changes.keys() - known
        if unknown:
            raise TypeError(f"{cls.__name__} has no init field(s) {', '.join(sorted(unknown))}")
        return build(obj, changes)

    return checked
