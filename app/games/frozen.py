"""`replace` for frozen dataclasses, as `dataclasses.replace` but compiled once per class; `thaw`
and `freeze` for changing a copy in place before anyone sees it.

Folding a match makes a new state for every event, and `dataclasses.replace` inspects the class's
fields on every call: measured with `python -m bench.stack`, it was close to a fifth of an action's
time in the service. This builds, once per class, a function that calls the class's own `__init__`
with each field taken from the changes or from the old object, so the result is exactly what
`dataclasses.replace` gives (fields with `init=False` take their defaults, `__post_init__` runs).

A class with slots and no `__post_init__` (the games' states, `Match`) is built without its
`__init__`: a frozen dataclass's `__setattr__` refuses writes, so its `__init__` sets each field
through `object.__setattr__`, a slow generic call. The builder fills a plain twin of the class
instead (the same slots, so the same memory layout, and no `__setattr__` of its own) with ordinary
attribute stores, then re-labels the finished object as the frozen class (`__class__` assignment,
which Python allows between classes of identical layout). It stores exactly what `__init__` would,
the defaults of fields out of `__init__` included, about ten times faster for the 17 fields of
Mount Drago's state than calling each slot's descriptor.

The rules use the same twin openly: `thaw(state, Draft)` copies a state into its declared mutable
twin (a plain class whose `__slots__` are the state's), which one decision or one event then
changes with ordinary assignments, and `freeze(draft, State)` re-labels it as the frozen state.
A decision that changes a state several times so pays for one copy, not one per change. After
`freeze` the draft is the state: whoever froze it must not touch it again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")
D = TypeVar("D")

Builder = Callable[[object, dict[str, object]], object]  # (the old object, the changes) → the new one
_COMPILED: dict[type, Builder] = {}
_COPIERS: dict[tuple[type, type], Callable[[object], object]] = {}
_TWINS: dict[type, type] = {}


def replace(obj: T, /, **changes: object) -> T:
    """A copy of the frozen dataclass `obj` with `changes` (names of `__init__` fields only)."""
    cls = type(obj)
    build = _COMPILED.get(cls)
    if build is None:
        build = _COMPILED[cls] = _compile(cls)
    return cast(T, build(obj, changes))  # a `type(obj)`


def constructor(cls: type[T], /) -> Callable[..., T]:
    """A positional constructor for the slotted frozen dataclass `cls`, built as `replace` builds
    (its plain twin filled with ordinary stores, then re-labelled): `constructor(cls)(*args)` is the
    object `cls(*args)` makes, with every `__init__` field given in order, several times faster.
    For records made by the thousand, such as Yutakâ's scoring awards."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # a TypeError if not a dataclass
    if not _slotted(cls, fields):
        raise TypeError(f"{cls.__name__} is not a slotted frozen dataclass without __post_init__")
    params = ", ".join(f"v_{f.name}" for f in fields if f.init)  # prefixed: no clash with the names below
    namespace: dict[str, Any] = {"cls": cls, "draft": _twin(cls)}
    body = _stores(fields, namespace, lambda name: f"v_{name}")
    source = f"def make({params}):\n    new_ = draft()\n{body}    new_.__class__ = cls\n    return new_\n"
    exec(source, namespace)  # noqa: S102
    make: Callable[..., T] = namespace["make"]
    return make


def _stores(
    fields: tuple[dataclasses.Field[object], ...], namespace: dict[str, object], given: Callable[[str], str]
) -> str:
    """The lines that fill a twin's slots, as `__init__` would: `given(name)` for an `__init__` field,
    else its default (a factory or a value, put in `namespace`)."""
    lines = []
    for f in fields:
        if f.init:
            value = given(f.name)
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"make_{f.name}"] = f.default_factory
            value = f"make_{f.name}()"
        else:
            namespace[f"default_{f.name}"] = f.default
            value = f"default_{f.name}"
        lines.append(f"    new_.{f.name} = {value}\n")
    return "".join(lines)


def thaw(obj: object, draft: type[D], /) -> D:
    """A mutable copy of the slotted frozen dataclass `obj` as an instance of `draft`, a plain
    class with exactly the same `__slots__` (checked once per pair of classes)."""
    copy = _COPIERS.get((type(obj), draft))
    if copy is None:
        copy = _COPIERS[type(obj), draft] = _compile_copy(type(obj), draft)
    return cast(D, copy(obj))


def freeze(draft: Any, cls: type[T], /) -> T:
    """`draft` (from `thaw`) re-labelled as the frozen class `cls`; the draft must not be changed after."""
    draft.__class__ = cls
    result: T = draft
    return result


def _compile_copy(cls: type, draft: type) -> Callable[[object], object]:
    slots = getattr(cls, "__slots__", None)
    if slots is None or cls.__bases__ != (object,) or draft.__bases__ != (object,):
        raise TypeError(f"{cls.__name__} and {draft.__name__} must be slotted direct subclasses of object")
    if tuple(getattr(draft, "__slots__", ())) != tuple(slots) or "__setattr__" in vars(draft):
        raise TypeError(f"{draft.__name__} is not a plain twin of {cls.__name__} (same __slots__)")
    lines = "".join(f"    new_.{name} = o.{name}\n" for name in slots)
    namespace: dict[str, object] = {"draft": draft}
    exec(f"def copy(o):\n    new_ = draft()\n{lines}    return new_\n", namespace)  # noqa: S102
    return cast(Callable[[object], object], namespace["copy"])


def _compile(cls: type) -> Builder:
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields if f.init]
    known = frozenset(names)
    namespace: dict[str, object] = {"cls": cls}
    if _slotted(cls, fields):  # names from the class, values from the object, the changes or defaults
        # A plain twin of the class: the same slots (so the same memory layout), no frozen
        # `__setattr__`, so each field is an ordinary attribute store; the finished object is then
        # re-labelled as `cls`, which CPython allows between classes of identical layout.
        namespace["draft"] = _twin(cls)
        body = _stores(fields, namespace, lambda name: f"c[{name!r}] if {name!r} in c else o.{name}")
        source = f"def build(o, c):\n    new_ = draft()\n{body}    new_.__class__ = cls\n    return new_\n"
    else:
        args = ", ".join(f"{n}=c[{n!r}] if {n!r} in c else o.{n}" for n in names)
        source = f"def build(o, c):\n    return cls({args})\n"
    exec(source, namespace)  # noqa: S102
    build = cast(Builder, namespace["build"])

    def checked(obj: object, changes: dict[str, object]) -> object:
        if not known.issuperset(changes):
            unknown = sorted(changes.keys() - known)
            raise TypeError(f"{cls.__name__} has no init field(s) {', '.join(unknown)}")
        return build(obj, changes)

    return checked


def _twin(cls: type) -> type:
    """The plain class with the same slots as `cls` (made once per class)."""
    twin = _TWINS.get(cls)
    if twin is None:
        twin = _TWINS[cls] = type(f"{cls.__name__}Draft", (), {"__slots__": vars(cls)["__slots__"]})
    return twin


def _slotted(cls: type, fields: tuple[dataclasses.Field[object], ...]) -> bool:
    """Whether `cls` can be built by setting its slots as its `__init__` does: a direct subclass of
    `object` whose own slots are exactly its fields, each field out of `__init__` with a default,
    and no `__post_init__`."""
    slots = set(getattr(cls, "__slots__", ()))
    return (
        cls.__bases__ == (object,)
        and {f.name for f in fields} == slots
        and all(
            f.init or f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            for f in fields
        )
        and not hasattr(cls, "__post_init__")
    )
