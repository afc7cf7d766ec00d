"""Match options of Yutakâ: the mode (which face-down tile types are public), the first player, the
stacked-archipelago variant and replacement tile values; parsing, defaults and JSON Schema.

`parse_options` accepts user JSON, fills defaults and raises `InvalidOptions` naming the offending
member; its output parses again to itself, so stored options can be re-validated at any time.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.games.codec import JSON, to_json
from app.games.core import InvalidOptions
from app.games.yutaka.components import (
    PLAYERS,
    RECONSTRUCTED_TILE_VALUES,
    TILE_COUNTS,
    TILE_TYPES,
    TILE_VALUE_MAX,
    TILE_VALUE_MIN,
    Tile,
    TileType,
)


class Mode(enum.StrEnum):
    MYSTERIA = "mysteria"  # every face-down tile is a black cube: type and value hidden
    TACTIKA = "tactika"  # every face-down tile shows its type's colour; values hidden
    MIXED = "mixed"  # the match lists the types whose colour is shown (`known_types`)


# Decisions on defaults.
DEFAULT_MODE = Mode.MYSTERIA
DEFAULT_MIXED_KNOWN_TYPES: tuple[TileType, ...] = (TileType.IDOL, TileType.DAGGER)  # the rulebook's example
DEFAULT_FIRST_PLAYER = 0
DEFAULT_STACKED = False

OPTION_KEYS = ("mode", "known_types", "first_player", "stacked", "tile_values")


@dataclass(frozen=True, slots=True)
class Options:
    """Parsed options. `known_types` lists the public face-down types for every mode (canonical
    order): none in mysteria, all in tactika. `tile_values` maps every type to its sorted values."""

    mode: Mode
    known_types: tuple[TileType, ...]
    first_player: int
    stacked: bool
    tile_values: Mapping[str, tuple[int, ...]]

    def tiles(self) -> tuple[Tile, ...]:
        """The 25 tiles of this match in canonical order."""
        return tuple(Tile(t, v) for t in TILE_TYPES for v in self.tile_values[t])


def _fail(message: str, path: str) -> InvalidOptions:
    return InvalidOptions(message, path)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_tile_type(raw: Any, path: str) -> TileType:
    try:
        return TileType(raw)
    except ValueError:
        names = ", ".join(t.value for t in TILE_TYPES)
        raise _fail(f"unknown tile type {raw!r}; expected one of: {names}", path) from None


def _parse_known_types(mode: Mode, raw: Any) -> tuple[TileType, ...]:
    path = "options.known_types"
    if raw is None:
        if mode is Mode.MIXED:
            return DEFAULT_MIXED_KNOWN_TYPES
        return () if mode is Mode.MYSTERIA else TILE_TYPES
    if not isinstance(raw, (list, tuple)):
        raise _fail("known_types must be a list of tile types", path)
    chosen: set[TileType] = set()
    for i, item in enumerate(raw):
        t = _parse_tile_type(item, f"{path}[{i}]")
        if t in chosen:
            raise _fail(f"tile type {t.value!r} is listed twice", f"{path}[{i}]")
        chosen.add(t)
    known = tuple(t for t in TILE_TYPES if t in chosen)
    implied = {Mode.MYSTERIA: (), Mode.TACTIKA: TILE_TYPES}.get(mode)
    if implied is not None and known != implied:
        # Accepted only when it says what the mode implies, so that parsed options parse again.
        raise _fail(f"known_types can be chosen only in mode 'mixed' (mode is {mode.value!r})", path)
    return known


def _parse_tile_values(raw: Any) -> dict[str, tuple[int, ...]]:
    path = "options.tile_values"
    values = {t.value: RECONSTRUCTED_TILE_VALUES[t] for t in TILE_TYPES}
    if raw is None:
        return values
    if not isinstance(raw, Mapping):
        raise _fail("tile_values must be an object mapping tile types to lists of values", path)
    for key, items in raw.items():
        t = _parse_tile_type(key, f"{path}.{key}")
        here = f"{path}.{t.value}"
        if not isinstance(items, (list, tuple)) or len(items) != TILE_COUNTS[t]:
            raise _fail(f"{t.value} needs exactly {TILE_COUNTS[t]} values", here)
        for i, v in enumerate(items):
            if not _is_int(v) or not TILE_VALUE_MIN <= v <= TILE_VALUE_MAX:
                raise _fail(
                    f"tile values are integers from {TILE_VALUE_MIN} to {TILE_VALUE_MAX}", f"{here}[{i}]"
                )
        values[t.value] = tuple(sorted(items))
    return values


def parse_options(players: int, raw: Mapping[str, Any] | None) -> Options:
    """Validate user options for `players` seats; raises `InvalidOptions`."""
    if players != PLAYERS:
        raise _fail(f"Yutakâ is played by exactly {PLAYERS} players, not {players}", "players")
    raw = {} if raw is None else raw
    if not isinstance(raw, Mapping):
        raise _fail("options must be a JSON object", "options")
    for key in raw:
        if key not in OPTION_KEYS:
            raise _fail(f"unknown option {key!r}; known: {', '.join(OPTION_KEYS)}", f"options.{key}")
    try:
        mode = Mode(raw.get("mode", DEFAULT_MODE))
    except ValueError:
        modes = ", ".join(m.value for m in Mode)
        raise _fail(f"mode must be one of: {modes}", "options.mode") from None
    first = raw.get("first_player", DEFAULT_FIRST_PLAYER)
    if not _is_int(first) or not 0 <= first < PLAYERS:
        raise _fail("first_player must be 0 or 1", "options.first_player")
    stacked = raw.get("stacked", DEFAULT_STACKED)
    if not isinstance(stacked, bool):
        raise _fail("stacked must be true or false", "options.stacked")
    return Options(
        mode=mode,
        known_types=_parse_known_types(mode, raw.get("known_types")),
        first_player=first,
        stacked=stacked,
        tile_values=_parse_tile_values(raw.get("tile_values")),
    )


def options_to_json(options: Options) -> JSON:
    return to_json(options)


def options_schema() -> JSON:
    types = [t.value for t in TILE_TYPES]
    value = {"type": "integer", "minimum": TILE_VALUE_MIN, "maximum": TILE_VALUE_MAX}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Yutakâ match options",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "mode": {
                "enum": [m.value for m in Mode],
                "default": DEFAULT_MODE.value,
                "description": "mysteria: face-down types hidden; tactika: types public; "
                "mixed: the types in known_types are public",
            },
            "known_types": {
                "type": "array",
                "items": {"enum": types},
                "uniqueItems": True,
                "default": [t.value for t in DEFAULT_MIXED_KNOWN_TYPES],
                "description": "mode mixed only: tile types whose face-down tiles show their type",
            },
            "first_player": {"enum": list(range(PLAYERS)), "default": DEFAULT_FIRST_PLAYER},
            "stacked": {
                "type": "boolean",
                "default": DEFAULT_STACKED,
                "description": "stacked archipelagos: on each island only the uppermost face-down "
                "tile (lowest slot) may be revealed",
            },
            "tile_values": {
                "type": "object",
                "additionalProperties": False,
                "description": "replacement tile values per type (reconstructed values by default)",
                "properties": {
                    t.value: {
                        "type": "array",
                        "items": value,
                        "minItems": TILE_COUNTS[t],
                        "maxItems": TILE_COUNTS[t],
                        "default": list(RECONSTRUCTED_TILE_VALUES[t]),
                    }
                    for t in TILE_TYPES
                },
            },
        },
    }
