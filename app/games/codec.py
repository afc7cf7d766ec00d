"""JSON codec for the frozen dataclasses that games use as actions and events.

Actions arrive as JSON from players and events are stored as JSON, so both directions live here,
once, for every game. A tagged dataclass declares `TYPE: ClassVar[str]`; its JSON form is an object
whose `"type"` member names it. Supported field types: `int`, `str`, `bool`, `float`, `None`,
`Literal`, `enum.Enum`, unions with `None`, `tuple[X, ...]`, `tuple[X, Y]`, nested dataclasses
and `Mapping[str, X]`. Decoders are compiled once per type and cached.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

JSON = Any  # a value made of dict, list, str, int, float, bool and None
Decoder = Callable[[Any, str], Any]


class DecodeError(ValueError):
    """Raised when JSON does not fit the expected type; the message names the offending path."""


def to_json(obj: Any) -> JSON:
    """Encode a dataclass (or any supported value) into plain JSON data."""
    encoder = _ENCODERS.get(type(obj))
    if encoder is None:
        encoder = _ENCODERS[type(obj)] = _encoder_for(type(obj))
    return encoder(obj)


Encoder = Callable[[Any], JSON]


def _identity(obj: Any) -> JSON:
    return obj


def _enum_value(obj: Any) -> JSON:
    return obj.value


def _sequence(obj: Any) -> JSON:
    return [to_json(v) for v in obj]


def _mapping(obj: Any) -> JSON:
    return {str(k): to_json(v) for k, v in obj.items()}


# One encoder per concrete type, built on first use: views and events are encoded on every
# action, and a dict lookup is much cheaper than walking a chain of isinstance checks.
_ENCODERS: dict[type, Encoder] = dict.fromkeys((type(None), bool, int, float, str), _identity)


def _encoder_for(cls: type) -> Encoder:
    if issubclass(cls, enum.Enum):
        return _enum_value
    if issubclass(cls, (bool, int, float, str)):
        return _identity
    if dataclasses.is_dataclass(cls):
        return _dataclass_encoder(cls)
    if issubclass(cls, (tuple, list, frozenset)):
        return _sequence
    if issubclass(cls, Mapping):
        return _mapping
    raise TypeError(f"cannot encode {cls.__name__}")


def _dataclass_encoder(cls: type) -> Encoder:
    tag = getattr(cls, "TYPE", None)
    names = _fields(cls)

    def encode(obj: Any) -> JSON:
        out: dict[str, JSON] = {"type": tag} if isinstance(tag, str) else {}
        for name in names:
            value = getattr(obj, name)
            encoder = _ENCODERS.get(type(value))
            out[name] = encoder(value) if encoder is not None else to_json(value)
        return out

    return encode


def from_json(tp: type[T], data: JSON) -> T:
    """Decode `data` as an instance of `tp`, raising `DecodeError` on any mismatch."""
    decoder: Decoder = _decoder(tp)  # type: ignore[arg-type]  # types are hashable
    result: T = decoder(data, "$")
    return result


def decode_tagged(classes: Mapping[str, type[T]], data: JSON, what: str = "value") -> T:
    """Decode an object whose `"type"` member picks one of `classes`."""
    if not isinstance(data, dict):
        raise DecodeError(f"{what} must be a JSON object with a 'type' member")
    tag = data.get("type")
    cls = classes.get(tag) if isinstance(tag, str) else None
    if cls is None:
        known = ", ".join(sorted(classes))
        raise DecodeError(f"unknown {what} type {tag!r}; expected one of: {known}")
    return from_json(cls, data)


@cache
def _fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@cache
def _decoder(tp: Any) -> Decoder:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return lambda v, p: v
    if tp is type(None):
        return _expect_none
    if tp is bool:
        return _expect_bool
    if tp is int:
        return _expect_int
    if tp is float:
        return _expect_float
    if tp is str:
        return _expect_str
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_decoder(tp)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_decoder(tp)
    if origin is typing.Literal:
        return _literal_decoder(args)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _var_tuple_decoder(_decoder(args[0]))
        return _fixed_tuple_decoder(tuple(_decoder(a) for a in args))
    if origin in (Mapping, dict) or (isinstance(origin, type) and issubclass(origin, Mapping)):
        return _mapping_decoder(_decoder(args[1]))
    raise TypeError(f"unsupported type for decoding: {tp!r}")


def _expect_none(v: Any, path: str) -> None:
    if v is not None:
        raise DecodeError(f"{path}: expected null")


def _expect_bool(v: Any, path: str) -> bool:
    if not isinstance(v, bool):
        raise DecodeError(f"{path}: expected a boolean")
    return v


def _expect_int(v: Any, path: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise DecodeError(f"{path}: expected an integer")
    return v


def _expect_float(v: Any, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DecodeError(f"{path}: expected a number")
    return float(v)


def _expect_str(v: Any, path: str) -> str:
    if not isinstance(v, str):
        raise DecodeError(f"{path}: expected a string")
    return v


def _enum_decoder(tp: type[enum.Enum]) -> Decoder:
    by_value = {m.value: m for m in tp}
    allowed = ", ".join(repr(v) for v in by_value)

    def decode(v: Any, path: str) -> enum.Enum:
        try:
            return by_value[v]
        except (KeyError, TypeError):
            raise DecodeError(f"{path}: expected one of {allowed}") from None

    return decode


def _literal_decoder(values: tuple[Any, ...]) -> Decoder:
    allowed = ", ".join(repr(v) for v in values)

    def decode(v: Any, path: str) -> Any:
        if isinstance(v, bool) != any(isinstance(x, bool) for x in values) or v not in values:
            raise DecodeError(f"{path}: expected one of {allowed}")
        return v

    return decode


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    decoders = [_decoder(a) for a in args]

    def decode(v: Any, path: str) -> Any:
        errors = []
        for d in decoders:
            try:
                return d(v, path)
            except DecodeError as e:
                errors.append(str(e))
        raise DecodeError(" or ".join(errors))

    return decode


def _var_tuple_decoder(item: Decoder) -> Decoder:
    def decode(v: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(v, (list, tuple)):
            raise DecodeError(f"{path}: expected an array")
        return tuple(item(x, f"{path}[{i}]") for i, x in enumerate(v))

    return decode


def _fixed_tuple_decoder(items: tuple[Decoder, ...]) -> Decoder:
    def decode(v: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(v, (list, tuple)) or len(v) != len(items):
            raise DecodeError(f"{path}: expected an array of {len(items)} items")
        return tuple(d(x, f"{path}[{i}]") for i, (d, x) in enumerate(zip(items, v, strict=True)))

    return decode


def _mapping_decoder(value: Decoder) -> Decoder:
    def decode(v: Any, path: str) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise DecodeError(f"{path}: expected an object")
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise DecodeError(f"{path}: keys must be strings")
            out[k] = value(x, f"{path}.{k}")
        return out

    return decode


def _dataclass_decoder(cls: type) -> Decoder:
    hints = typing.get_type_hints(cls)
    fields = [
        (f.name, f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    ]
    known = {name for name, _ in fields} | {"type"}
    tag = getattr(cls, "TYPE", None)
    # Decoders are built lazily so that recursive dataclasses do not recurse at compile time.
    field_decoders: dict[str, Decoder] = {}

    def decode(v: Any, path: str) -> Any:
        if not isinstance(v, dict):
            raise DecodeError(f"{path}: expected an object")
        if isinstance(tag, str) and v.get("type", tag) != tag:
            raise DecodeError(f"{path}.type: expected {tag!r}")
        extra = set(v) - known
        if extra:
            raise DecodeError(f"{path}: unknown member(s) {', '.join(sorted(map(str, extra)))}")
        kwargs = {}
        for name, optional in fields:
            if name not in v:
                if optional:
                    continue
                raise DecodeError(f"{path}.{name}: required")
            d = field_decoders.get(name)
            if d is None:
                d = field_decoders[name] = _decoder(hints[name])
            kwargs[name] = d(v[name], f"{path}.{name}")
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise DecodeError(f"{path}: {e}") from None

    return decode
