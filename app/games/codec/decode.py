"""Decoding: JSON data into frozen dataclasses, with errors that name the offending path.

Supported types: `int`, `str`, `bool`, `float`, `None`, `Any`, `Literal`, `enum.Enum`, unions,
`tuple[X, ...]`, `tuple[X, Y]`, nested dataclasses, `Mapping[K, X]` (K `str`, an enum or a
`Literal` of strings) and `Annotated[X, Doc(...)]`, whose bounds (`minimum`, `maximum`, `minItems`,
`maxItems`) are enforced. A dataclass refuses unknown members and fills missing ones that have a
default. Objects may arrive as any `Mapping`. Decoders are compiled once per type and cached.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal, TypeVar, cast

from app.games.codec.doc import JSON, merged

T = TypeVar("T")
Decoder = Callable[[object, str], object]


class DecodeError(ValueError):
    """JSON that does not fit the expected type; `str()` is `"<path>: <problem>"`.

    `path` names the offending member (`$.card.value`, or from another root such as
    `options.track[3].value`); `kind` is `"type"` when the value has the wrong shape and `"bound"`
    when it has the right shape but lies outside a declared bound.
    """

    def __init__(self, path: str, problem: str, kind: Literal["type", "bound"] = "type") -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem
        self.kind = kind


def from_json(tp: type[T], data: JSON, path: str = "$") -> T:
    """Decode `data` as an instance of `tp`, raising `DecodeError`; `path` names the root in errors."""
    decoder: Decoder = _decoder(tp)  # type: ignore[arg-type]  # types are hashable
    return cast(T, decoder(data, path))  # the decoder of `tp` returns a `tp`


def by_tag(union: object) -> Mapping[str, type]:
    """The classes of a union of tagged dataclasses (`A | B | …`) by their `TYPE`, in the union's
    order: the `classes` of `decode_tagged`, derived from the union rather than listed again."""
    return {cls.TYPE: cls for cls in typing.get_args(union)}


def decode_tagged(classes: Mapping[str, type[T]], data: JSON, what: str = "value", path: str = "$") -> T:
    """Decode an object whose `"type"` member picks one of `classes`."""
    if not isinstance(data, dict):
        raise DecodeError(path, f"{what} must be a JSON object with a 'type' member")
    tag = data.get("type")
    cls = classes.get(tag) if isinstance(tag, str) else None
    if cls is None:
        known = ", ".join(sorted(classes))
        raise DecodeError(f"{path}.type", f"unknown {what} type {tag!r}; expected one of: {known}")
    return from_json(cls, data, path)


@cache
def _decoder(tp: object) -> Decoder:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    simple = _SIMPLE.get(tp)
    if simple is not None:
        return simple
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_decoder(tp)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_decoder(tp)
    if origin is typing.Annotated:
        return _bounded(_decoder(args[0]), args[1:])  # `Annotated[X, *metadata]`
    if origin is typing.Literal:
        return _literal_decoder(args)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _var_tuple_decoder(_decoder(args[0]))
        return _fixed_tuple_decoder(tuple(_decoder(a) for a in args))
    if origin in (Mapping, dict) or (isinstance(origin, type) and issubclass(origin, Mapping)):
        key = None if args[0] is str else _decoder(args[0])
        return _mapping_decoder(key, _decoder(args[1]))
    raise TypeError(f"unsupported type for decoding: {tp!r}")


def _any(v: object, path: str) -> object:
    return v


def _expect_none(v: object, path: str) -> None:
    if v is not None:
        raise DecodeError(path, "expected null")


def _expect_bool(v: object, path: str) -> bool:
    if not isinstance(v, bool):
        raise DecodeError(path, "expected a boolean")
    return v


def _expect_int(v: object, path: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise DecodeError(path, "expected an integer")
    return v


def _expect_float(v: object, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DecodeError(path, "expected a number")
    return float(v)


def _expect_str(v: object, path: str) -> str:
    if not isinstance(v, str):
        raise DecodeError(path, "expected a string")
    return v


_SIMPLE: dict[object, Decoder] = {
    Any: _any,
    type(None): _expect_none,
    bool: _expect_bool,
    int: _expect_int,
    float: _expect_float,
    str: _expect_str,
}


def _enum_decoder(tp: type[enum.Enum]) -> Decoder:
    by_value = {m.value: m for m in tp}
    allowed = ", ".join(repr(v) for v in by_value)

    def decode(v: object, path: str) -> enum.Enum:
        try:
            return by_value[v]
        except (KeyError, TypeError):
            raise DecodeError(path, f"expected one of {allowed}") from None

    return decode


def _literal_decoder(values: tuple[object, ...]) -> Decoder:
    allowed = ", ".join(repr(v) for v in values)

    def decode(v: object, path: str) -> object:
        if isinstance(v, bool) != any(isinstance(x, bool) for x in values) or v not in values:
            raise DecodeError(path, f"expected one of {allowed}")
        return v

    return decode


def _union_decoder(args: tuple[object, ...]) -> Decoder:
    decoders = [_decoder(a) for a in args]

    def decode(v: object, path: str) -> object:
        # The alternatives' errors are kept without their tracebacks, and the one raised is no
        # longer a local when this frame goes into its traceback: otherwise each miss would leave a
        # reference cycle (error → traceback → this frame → error) for the collector.
        errors: list[DecodeError] = []
        for d in decoders:
            try:
                return d(v, path)
            except DecodeError as e:
                errors.append(e.with_traceback(None))
        error = _best(path, errors)
        errors.clear()
        try:
            raise error
        finally:
            del error

    return decode


def _best(path: str, errors: list[DecodeError]) -> DecodeError:
    """The most telling error of a union: the alternative that got deepest into the value, or the
    one whose shape fitted but whose bounds did not; otherwise every expectation, joined."""
    deeper = [e for e in errors if e.path != path]
    if deeper:
        return max(deeper, key=lambda e: len(e.path))
    bounded = [e for e in errors if e.kind == "bound"]
    if len(bounded) == 1:
        return bounded[0]
    return DecodeError(path, " or ".join(dict.fromkeys(e.problem for e in errors)))


def _var_tuple_decoder(item: Decoder) -> Decoder:
    def decode(v: object, path: str) -> tuple[object, ...]:
        if not isinstance(v, (list, tuple)):
            raise DecodeError(path, "expected an array")
        return tuple(item(x, f"{path}[{i}]") for i, x in enumerate(v))

    return decode


def _fixed_tuple_decoder(items: tuple[Decoder, ...]) -> Decoder:
    def decode(v: object, path: str) -> tuple[object, ...]:
        if not isinstance(v, (list, tuple)) or len(v) != len(items):
            raise DecodeError(path, f"expected an array of {len(items)} items")
        return tuple(d(x, f"{path}[{i}]") for i, (d, x) in enumerate(zip(items, v, strict=True)))

    return decode


def _mapping_decoder(key: Decoder | None, value: Decoder) -> Decoder:
    def decode(v: object, path: str) -> dict[object, object]:
        if not isinstance(v, dict) and not isinstance(v, Mapping):
            raise DecodeError(path, "expected an object")
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise DecodeError(path, "keys must be strings")
            out[k if key is None else key(k, f"{path}.{k}")] = value(x, f"{path}.{k}")
        return out

    return decode


def _bounded(inner: Decoder, metadata: tuple[object, ...]) -> Decoder:
    """`inner`, then the bounds of the `Doc` annotations (numbers for integers, lengths for arrays)."""
    keywords = merged(metadata).keywords
    low, high = keywords.get("minimum"), keywords.get("maximum")
    fewest, most = keywords.get("minItems"), keywords.get("maxItems")
    if low is None and high is None and fewest is None and most is None:
        return inner
    span = _span(low, high)
    count = _span(fewest, most)

    def decode(v: object, path: str) -> object:
        out = inner(v, path)
        if isinstance(out, (int, float)) and not isinstance(out, bool):
            if (low is not None and out < low) or (high is not None and out > high):
                raise DecodeError(path, f"{out} is outside {span}", "bound")
        elif isinstance(out, tuple) and (
            (fewest is not None and len(out) < fewest) or (most is not None and len(out) > most)
        ):
            raise DecodeError(path, f"expected {count} items, got {len(out)}", "bound")
        return out

    return decode


def _span(low: object, high: object) -> str:
    if low is not None and high is not None:
        return str(low) if low == high else f"{low}…{high}"
    return f"≥ {low}" if low is not None else f"≤ {high}"


def _dataclass_decoder(cls: type) -> Decoder:
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = [
        (f.name, f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    ]
    known = {name for name, _ in fields} | {"type"}
    tag = getattr(cls, "TYPE", None)
    # Decoders are built lazily so that recursive dataclasses do not recurse at compile time.
    field_decoders: dict[str, Decoder] = {}

    def decode(v: object, path: str) -> object:
        if not isinstance(v, dict) and not isinstance(v, Mapping):
            raise DecodeError(path, "expected an object")
        if isinstance(tag, str) and v.get("type", tag) != tag:
            raise DecodeError(f"{path}.type", f"expected {tag!r}")
        extra = sorted(str(k) for k in v if k not in known)
        if extra:
            raise DecodeError(f"{path}.{extra[0]}", f"unknown member(s) {', '.join(extra)}")
        kwargs = {}
        for name, optional in fields:
            if name not in v:
                if optional:
                    continue
                raise DecodeError(f"{path}.{name}", "required")
            d = field_decoders.get(name)
            if d is None:
                d = field_decoders[name] = _decoder(hints[name])
            kwargs[name] = d(v[name], f"{path}.{name}")
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise DecodeError(path, str(e)) from None

    return decode
