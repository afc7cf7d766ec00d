"""Encoding: frozen dataclasses (and the values they hold) into plain JSON data.

A tagged dataclass (one with `TYPE: ClassVar[str]`) becomes an object whose first member is
`"type": TYPE`; other dataclasses become objects of their fields; enums their values; tuples,
lists and frozensets arrays; mappings objects with string keys (an enum key becomes its value).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from app.games.codec.doc import JSON

Encoder = Callable[[Any], JSON]


def to_json(obj: Any) -> JSON:
    """Encode a dataclass (or any supported value) into plain JSON data."""
    encoder = _ENCODERS.get(type(obj))
    if encoder is None:
        encoder = _ENCODERS[type(obj)] = _encoder_for(type(obj))
    return encoder(obj)


def _identity(obj: Any) -> JSON:
    return obj


def _enum_value(obj: Any) -> JSON:
    return obj.value


def _sequence(obj: Any) -> JSON:
    return [to_json(v) for v in obj]


def _key(k: Any) -> str:
    return k.value if isinstance(k, enum.Enum) else str(k)


def _mapping(obj: Any) -> JSON:
    return {_key(k): to_json(v) for k, v in obj.items()}


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


@cache
def field_names(cls: type) -> tuple[str, ...]:
    """The encoded members of a dataclass, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(cls))


def _dataclass_encoder(cls: type) -> Encoder:
    tag = getattr(cls, "TYPE", None)
    names = field_names(cls)

    def encode(obj: Any) -> JSON:
        out: dict[str, JSON] = {"type": tag} if isinstance(tag, str) else {}
        for name in names:
            value = getattr(obj, name)
            encoder = _ENCODERS.get(type(value))
            out[name] = encoder(value) if encoder is not None else to_json(value)
        return out

    return encode
