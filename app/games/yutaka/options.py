"""Match options of Yutakâ: one dataclass that the codec decodes, checks and publishes.

`Options` declares every option with its default and documentation; `parse_options` decodes user
JSON into it with the generic codec (the published schema is generated from the same declaration),
checks what a schema cannot say (`known_types` only in mode mixed, no type listed twice) and
normalises: `known_types` is resolved from the mode and sorted, tile values are sorted. Its output
parses again to itself, so stored options can be re-validated at any time. Refusals are
`InvalidOptions` naming the member, such as `options.tile_values.idol[2]`.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from app.games.codec import DecodeError, Doc, from_json, memo_json, to_json
from app.games.core import InvalidOptions
from app.games.frozen import replace
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
from app.games.yutaka.scoring import DEFAULT_TIE_BREAK, TieBreak


class Mode(enum.StrEnum):
    """Which face-down tiles show their type: none (`mysteria`), all (`tactika`), or the types in
    `known_types` (`mixed`). Values stay hidden in every mode."""

    MYSTERIA = "mysteria"  # every face-down tile is a black cube: type and value hidden
    TACTIKA = "tactika"  # every face-down tile shows its type's colour; values hidden
    MIXED = "mixed"  # the match lists the types whose colour is shown (`known_types`)


# Decisions on defaults.
DEFAULT_MODE = Mode.MYSTERIA
DEFAULT_MIXED_KNOWN_TYPES: tuple[TileType, ...] = (TileType.IDOL, TileType.DAGGER)  # the rulebook's example
DEFAULT_FIRST_PLAYER = 0
DEFAULT_STACKED = False


TileValue = Annotated[int, Doc(minimum=TILE_VALUE_MIN, maximum=TILE_VALUE_MAX)]


def _exactly(t: TileType) -> Doc:
    n = TILE_COUNTS[t]
    return Doc(f"The values of the {n} {t.value} tiles (any order).", minItems=n, maxItems=n)


@dataclass(frozen=True, slots=True)
class TileValues:
    """Tile values per type (`{"idol": [5, 10, 15], …}`); a type left out keeps the reconstructed
    values shown as defaults. Parsed options list every type, values sorted."""

    idol: Annotated[tuple[TileValue, ...], _exactly(TileType.IDOL)] = RECONSTRUCTED_TILE_VALUES[TileType.IDOL]
    dagger: Annotated[tuple[TileValue, ...], _exactly(TileType.DAGGER)] = RECONSTRUCTED_TILE_VALUES[
        TileType.DAGGER
    ]
    amphora: Annotated[tuple[TileValue, ...], _exactly(TileType.AMPHORA)] = RECONSTRUCTED_TILE_VALUES[
        TileType.AMPHORA
    ]
    crystal: Annotated[tuple[TileValue, ...], _exactly(TileType.CRYSTAL)] = RECONSTRUCTED_TILE_VALUES[
        TileType.CRYSTAL
    ]
    equipment: Annotated[tuple[TileValue, ...], _exactly(TileType.EQUIPMENT)] = RECONSTRUCTED_TILE_VALUES[
        TileType.EQUIPMENT
    ]

    def of(self, t: TileType) -> tuple[int, ...]:
        values: tuple[int, ...] = getattr(self, t.value)
        return values


@dataclass(frozen=True, slots=True)
class Options:
    """Yutakâ match options. Every member is optional; `{}` plays the default game."""

    mode: Mode = DEFAULT_MODE
    known_types: Annotated[
        tuple[TileType, ...] | None,
        Doc(
            "The tile types whose face-down tiles show their type. Chosen only in mode mixed "
            "(default idol and dagger); otherwise implied by the mode (none in mysteria, all in "
            "tactika). Parsed options always list them, in canonical order.",
            uniqueItems=True,
        ),
    ] = None
    first_player: Annotated[
        Annotated[int, Doc(minimum=0, maximum=PLAYERS - 1)] | Literal["random"],
        Doc('Seat of player 1, who reveals first and plays first; "random": drawn at setup.'),
    ] = DEFAULT_FIRST_PLAYER
    stacked: Annotated[
        bool,
        Doc(
            "Stacked archipelagos: on each island only the uppermost face-down tile (lowest slot) "
            "may be revealed."
        ),
    ] = DEFAULT_STACKED
    tile_values: TileValues = TileValues()
    tie_break: Annotated[
        TieBreak,
        Doc(
            "Equal totals: `equipment_tiles` (more equipment tiles won, then more equipment "
            "points), `equipment_points` (more equipment points, then more equipment tiles), each "
            "ending in a shared win; or `shared` (a shared win at once)."
        ),
    ] = DEFAULT_TIE_BREAK
    explicit_end_turn: Annotated[
        bool,
        Doc(
            "The turn never ends by itself: after a treasure card or dynamite the player sends "
            "`end_turn` (legal only with this option), which draws or hands the reveal to the "
            "opponent. After equipment the player's own reveal closes the turn as without it."
        ),
    ] = False

    def tiles(self) -> tuple[Tile, ...]:
        """The 25 tiles of this match in canonical order."""
        return _tiles(self.tile_values)


@functools.lru_cache(maxsize=64)
def _tiles(values: TileValues) -> tuple[Tile, ...]:
    """The tiles with these values, made once: every match with them shares the objects."""
    return tuple(Tile(t, v) for t in TILE_TYPES for v in values.of(t))


@memo_json  # a pure function of its input, parsed by every game start (see codec.memo)
def parse_options(players: int, raw: Mapping[str, object] | None) -> Options:
    """Decode, check and normalise user options for `players` seats; raises `InvalidOptions`."""
    if players != PLAYERS:
        raise InvalidOptions(f"Yutakâ is played by exactly {PLAYERS} players, not {players}", "players")
    try:
        opts = from_json(Options, {} if raw is None else raw, "options")
    except DecodeError as e:
        raise InvalidOptions(str(e), e.path) from None
    values = opts.tile_values
    return replace(
        opts,
        known_types=_known_types(opts.mode, opts.known_types),
        tile_values=TileValues(*(tuple(sorted(values.of(t))) for t in TILE_TYPES)),
    )


def _known_types(mode: Mode, chosen: tuple[TileType, ...] | None) -> tuple[TileType, ...]:
    path = "options.known_types"
    implied = {Mode.MYSTERIA: (), Mode.TACTIKA: TILE_TYPES}.get(mode)
    if chosen is None:
        return DEFAULT_MIXED_KNOWN_TYPES if implied is None else implied
    for i, t in enumerate(chosen):
        if t in chosen[:i]:
            raise InvalidOptions(f"{path}[{i}]: tile type {t.value!r} is listed twice", f"{path}[{i}]")
    known = tuple(t for t in TILE_TYPES if t in chosen)
    if implied is not None and known != implied:
        # Accepted only when it says what the mode implies, so that parsed options parse again.
        raise InvalidOptions(
            f"{path}: known_types can be chosen only in mode 'mixed' (mode is {mode.value!r})", path
        )
    return known


def options_to_json(options: Options) -> Any:
    return to_json(options)
