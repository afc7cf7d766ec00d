"""Encoding: frozen dataclasses (and the values they hold) into plain JSON data.

A tagged dataclass (one with `TYPE: ClassVar[str]`) becomes an object whose first member is
`"type": TYPE`; other dataclasses become objects of their fields; enums their values; tuples,
lists and frozensets arrays; mappings objects with string keys (an enum key becomes its value).

Views are encoded on every request, so the encoders are compiled once per type and two kinds of
values are encoded once per object and then shared: members annotated `ONCE` (a match's track)
and instances of classes registered with `encode_once` (the shared card objects). Callers must
therefore treat the output as read-only below its top level.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, Final, cast

from app.games.codec.doc import JSON, Once

Encoder = Callable[[object], JSON]

MEMO_LIMIT: Final = 4096  # objects remembered by identity before the memo starts afresh


def to_json(obj: object) -> JSON:
    """Encode a dataclass (or any supported value) into plain JSON data."""
    encoder = _ENCODERS.get(type(obj))
    if encoder is None:
        encoder = _ENCODERS[type(obj)] = _encoder_for(type(obj))
    return encoder(obj)


def encode_once(cls: type) -> None:
    """Encode instances of `cls` once per object (for a few long-lived shared instances)."""
    _ENCODERS[cls] = _memoized(_encoder_for(cls))


def _memoized(encoder: Encoder) -> Encoder:
    # Keyed by identity, and holding the object, so that an id cannot be reused while remembered;
    # hashing by value would cost as much as encoding these small objects.
    memo: dict[int, tuple[object, JSON]] = {}

    def encode(obj: object) -> JSON:
        hit = memo.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        out = encoder(obj)
        memo[id(obj)] = (obj, out)
        return out

    return encode


def _identity(obj: object) -> JSON:
    return obj


# The generic encoders below take their values' types (no `cast` per call: this runs for every
# list and mapping of every view); `_encoder_for` registers each for those types only.
def _enum_value(obj: enum.Enum) -> JSON:
    return obj.value


def _sequence(obj: Iterable[object]) -> JSON:
    return [to_json(v) for v in obj]


def _key(k: object) -> str:
    # str() of a StrEnum member is its plain value (and much cheaper than `.value`)
    return str(k) if isinstance(k, str) or not isinstance(k, enum.Enum) else str(k.value)


def _mapping(obj: Mapping[object, object]) -> JSON:
    return {_key(k): to_json(v) for k, v in obj.items()}


# One encoder per concrete type, built on first use: views and events are encoded on every
# action, and a dict lookup is much cheaper than walking a chain of isinstance checks.
_ENCODERS: dict[type, Encoder] = dict.fromkeys((type(None), bool, int, float, str), _identity)


def _encoder_for(cls: type) -> Encoder:
    if issubclass(cls, enum.Enum):
        if issubclass(cls, str):
            return str  # a StrEnum's str() is its value
        return cast(Encoder, int) if issubclass(cls, int) else cast(Encoder, _enum_value)
    if issubclass(cls, (bool, int, float, str)):
        return _identity
    if dataclasses.is_dataclass(cls):
        return _dataclass_encoder(cls)
    if issubclass(cls, (tuple, list, frozenset)):
        return cast(Encoder, _sequence)
    if issubclass(cls, Mapping):
        return cast(Encoder, _mapping)
    raise TypeError(f"cannot encode {cls.__name__}")


@cache
def field_names(cls: type) -> tuple[str, ...]:
    """The encoded members of a dataclass, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _hints(cls: type) -> dict[str, object]:
    """The declared field types; none when they cannot be resolved (then every member is generic)."""
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:  # a type only used at runtime may not resolve: stay generic
        return {}


_PLAIN: Final = frozenset((type(None), bool, int, float, str))


def _is_plain(tp: object) -> bool:
    """Values of `tp` are JSON as they are (plain scalars, a Literal of them, unions of those)."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _is_plain(typing.get_args(tp)[0])
    if origin is typing.Literal:
        return all(type(v) in _PLAIN for v in typing.get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return all(_is_plain(a) for a in typing.get_args(tp))
    return tp in _PLAIN


def _expression(tp: object, expr: str) -> str:
    """Python source encoding `expr`, a value of the declared type `tp`: inlined for plain values,
    string enums and tuples or mappings of them, `to_json(...)` for everything else."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        return _expression(args[0], expr)
    if _is_plain(tp):
        return expr
    if isinstance(tp, type) and issubclass(tp, enum.Enum) and issubclass(tp, str):
        return f"str({expr})"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis and _is_plain(args[0]):
        return f"list({expr})"
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping) and _is_plain(args[1]):
        key = args[0]
        if key is str or (isinstance(key, type) and issubclass(key, enum.Enum) and issubclass(key, str)):
            return f"{{str(k): v for k, v in {expr}.items()}}"
    return f"to_json({expr})"


def _is_once(tp: object) -> bool:
    return typing.get_origin(tp) is typing.Annotated and any(
        isinstance(m, Once) for m in typing.get_args(tp)[1:]
    )


def _dataclass_encoder(cls: type) -> Encoder:
    """One generated function per class: a dict display of its members, each encoded by an
    expression chosen from its declared type (plain members are not even called on). Measured at
    a third of the cost of a loop over the fields through `to_json`."""
    tag = getattr(cls, "TYPE", None)
    hints = _hints(cls)
    scope: dict[str, object] = {"to_json": to_json, "tag": tag}
    members = ['"type": tag'] if isinstance(tag, str) else []
    for i, name in enumerate(field_names(cls)):
        tp = hints.get(name, Any)
        if _is_once(tp):
            scope[f"once_{i}"] = _memoized(to_json)
            members.append(f"{name!r}: once_{i}(obj.{name})")
        else:
            members.append(f"{name!r}: {_expression(tp, f'obj.{name}')}")
    source = f"def encode(obj):\n    return {{{', '.join(members)}}}\n"
    exec(source, scope)  # noqa: S102  # the source is built from field names and fixed fragments
    return cast(Encoder, scope["encode"])
