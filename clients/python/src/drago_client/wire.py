"""JSON ⇄ the generated dataclasses: one small decoder driven by the type hints, and its encoder.

The generated modules (`drago_client.models`, `drago_client.games.*`) only declare frozen
dataclasses, `Literal` aliases and unions; this module reads and writes them. A union of classes is
decoded by trying its members: those whose `type` literal matches first, an exact fit (no unknown
key) before a lenient one (a newer server may add members), so an event and its redacted form (same
`type`, other members) each find their class. Game payloads depend on the match's game: the
decoder carries it down from the nearest `game` member (or the caller's `game=`), and members of
another game's module are skipped. Whatever still fits nothing, where a union allows it, becomes
`Unknown` instead of an error, so a client survives a server that has learnt a new event.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, overload

from drago_client.errors import DecodeError

T = TypeVar("T")
_GAMES_PACKAGE = "drago_client.games."


@dataclass(frozen=True, slots=True)
class Unknown:
    """A payload none of the generated types describe (a newer server): its `type` and raw JSON."""

    type: str | None
    raw: Mapping[str, Any]


@overload
def decode(tp: type[T], value: Any, *, game: str | None = None, strict: bool = False) -> T: ...
@overload
def decode(tp: object, value: Any, *, game: str | None = None, strict: bool = False) -> Any: ...
def decode(tp: object, value: Any, *, game: str | None = None, strict: bool = False) -> Any:
    """`value` (parsed JSON) as `tp` (a generated class or a union of them); `game` names the
    match's game where the JSON does not say it. `strict`: refuse members the types do not know and
    never fall back on `Unknown` (tests use it to prove that the types match the server)."""
    return _decode(tp, value, _Ctx(game, strict=strict), "$")


def encode(value: Any) -> Any:
    """The JSON of a generated dataclass (or of plain JSON): optional members left unset are omitted."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is None and f.default is None:
                continue  # an optional member left unset: the server applies its default
            out[f.metadata.get("json", f.name)] = encode(item)
        return out
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dt.datetime):
        return value.isoformat().replace("+00:00", "Z")
    return value


@dataclass(frozen=True, slots=True)
class _Ctx:
    game: str | None
    strict: bool


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, value: Any, ctx: _Ctx, path: str) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return value
    if origin is Union or origin is types.UnionType:
        return _union(get_args(tp), value, ctx, path)
    if origin is Literal:
        if any(value == a and type(value) is type(a) for a in get_args(tp)):
            return value
        raise DecodeError(f"expected one of {list(get_args(tp))}, got {value!r}", path)
    if origin is tuple:
        item = get_args(tp)[0]
        return tuple(_decode(item, v, ctx, f"{path}[{i}]") for i, v in enumerate(_expect(list, value, path)))
    if origin in (Mapping, dict):
        key_tp, item_tp = get_args(tp) or (str, Any)
        items = _expect(dict, value, path)
        return {
            _decode(key_tp, k, ctx, path): _decode(item_tp, v, ctx, f"{path}.{k}") for k, v in items.items()
        }
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _object(tp, value, ctx, path)
    return _scalar(tp, value, path)


def _scalar(tp: Any, value: Any, path: str) -> Any:
    if tp is type(None):
        if value is None:
            return None
    elif tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif tp is str:
        if isinstance(value, str):
            return value
    elif tp is dt.datetime:
        if isinstance(value, str):
            try:
                return dt.datetime.fromisoformat(value)
            except ValueError:
                pass
    else:
        raise DecodeError(f"cannot decode into {tp!r}", path)
    raise DecodeError(f"expected {getattr(tp, '__name__', tp)}, got {type(value).__name__}", path)


def _expect(kind: type[T], value: Any, path: str) -> T:
    if not isinstance(value, kind):
        raise DecodeError(
            f"expected {'an array' if kind is list else 'an object'}, got {type(value).__name__}", path
        )
    return value


def _object(cls: type, value: Any, ctx: _Ctx, path: str) -> Any:
    raw = _expect(dict, value, path)
    ctx = _Ctx(_game_of(raw) or ctx.game, ctx.strict)
    hints = _hints(cls)
    fields = dataclasses.fields(cls)
    if ctx.strict:
        known = {f.metadata.get("json", f.name) for f in fields}
        extra = [k for k in raw if k not in known]
        if extra:
            raise DecodeError(f"unknown members {extra}", path)
    kwargs: dict[str, Any] = {}
    for f in fields:
        key = f.metadata.get("json", f.name)
        if key in raw:
            kwargs[f.name] = _decode(hints[f.name], raw[key], ctx, f"{path}.{key}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise DecodeError(f"missing member {key!r}", path)
    return cls(**kwargs)


def _game_of(raw: dict[str, Any]) -> str | None:
    """The game a JSON object says it belongs to: its own `game`, or its view's (an action reply)."""
    game = raw.get("game")
    if isinstance(game, str):
        return game
    view = raw.get("view")
    if isinstance(view, dict) and isinstance(view.get("game"), str):
        return str(view["game"])
    return None


def _union(members: tuple[Any, ...], value: Any, ctx: _Ctx, path: str) -> Any:
    if value is None and type(None) in members:
        return None
    candidates = [m for m in members if m is not type(None) and m is not Unknown and _in_game(m, ctx.game)]
    kind = value.get("type") if isinstance(value, dict) else None
    if kind is not None:  # members whose `type` literal matches come first
        candidates.sort(key=lambda m: not _has_type(m, kind))
    errors: list[DecodeError] = []
    for strict in (True, False) if not ctx.strict else (True,):
        for member in candidates:
            try:
                return _decode(member, value, _Ctx(ctx.game, strict), path)
            except DecodeError as e:
                errors.append(e)
    if Unknown in members and isinstance(value, dict) and not ctx.strict:
        return Unknown(kind if isinstance(kind, str) else None, value)
    closest = errors[-1] if errors else DecodeError("no alternative", path)
    raise DecodeError(f"matches none of {len(candidates)} alternatives (last: {closest})", path)


def _in_game(member: Any, game: str | None) -> bool:
    module = getattr(member, "__module__", "")
    if game is None or not module.startswith(_GAMES_PACKAGE):
        return True
    own = module[len(_GAMES_PACKAGE) :]
    return own in (game, "common")


def _has_type(member: Any, kind: object) -> bool:
    if not (dataclasses.is_dataclass(member) and isinstance(member, type)):
        return False
    hint = _hints(member).get("type")
    return get_origin(hint) is Literal and kind in get_args(hint)
