"""The Mount Drago track: space kinds, the two reconstructed board sides, and custom tracks.

RULES §1.2: no source prints the space sequence, so the two sides below are reconstructed data
(every fact the sources give holds for them). A match may replace the track; `parse_track`
validates such a replacement like any user input. `Track` precomputes what scoring needs per
space (small and large scoring values, where the summit starts) so a move costs two lookups.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from app.games.codec import JSON
from app.games.core import InvalidOptions


class SpaceKind(enum.StrEnum):
    START = "start"
    PLAIN = "plain"
    BLUE = "blue"  # small scoring
    GREEN = "green"  # large scoring
    SUMMIT = "summit"  # large scoring on a dragon's first entry


@dataclass(frozen=True, slots=True)
class Space:
    kind: SpaceKind
    value: int


MIN_SPACE_VALUE: Final = -2
MAX_SPACE_VALUE: Final = 8
SUMMIT_SPACES: Final = 4
# Decision (RULES §1.2): from the first summit space reached upwards; going further costs points.
SUMMIT_VALUES: Final = (4, 2, 0, -2)
SMALL_SCORING_MAX: Final = 3  # a blue scoring pays only spaces of printed value ≤ 3
MAX_TRACK_SPACES: Final = 200  # a sanity bound on custom tracks
_KINDS: Final = frozenset(k.value for k in SpaceKind)


def _side(spec: str) -> tuple[Space, ...]:
    kinds = {"B": SpaceKind.BLUE, "G": SpaceKind.GREEN, "R": SpaceKind.SUMMIT}
    spaces = [Space(SpaceKind.START, 0)]
    for token in spec.split(","):
        token = token.strip()
        kind = kinds.get(token[-1], SpaceKind.PLAIN)
        spaces.append(Space(kind, int(token if kind is SpaceKind.PLAIN else token[:-1])))
    return tuple(spaces)


# Reconstructed (RULES §1.2): spaces after the start, in order.
TRACK_2_3: Final = _side(
    "1, 2, 3B, 1, 5, 2, 4G, 3, 1, 6, 3B, 2, 5, 1, 7G, 3, 6, 2, 3B, 1, 5, 6, 8G, 2, 3B, 6, 4R, 2R, 0R, -2R"
)
TRACK_4_5: Final = _side(
    "2, 1, 3, 2B, 5, 1, 3, 4G, 2, 6, 1, 2B, 3, 5, 7G, 1, 6, 2B, 3, 5, 1, 8G, 6, 2B, 3, 4R, 2R, 0R, -2R"
)
TRACKS: Final = {"2-3": TRACK_2_3, "4-5": TRACK_4_5}


def side_for(players: int) -> str:
    """Name (in `TRACKS`) of the board side for `players` seats (RULES §1.3 step 1)."""
    return "2-3" if players <= 3 else "4-5"


def default_spaces(players: int) -> tuple[Space, ...]:
    return TRACKS[side_for(players)]


@dataclass(frozen=True, slots=True)
class Track:
    """A validated track with per-space scoring tables."""

    spaces: tuple[Space, ...]
    kinds: tuple[SpaceKind, ...]
    small: tuple[int, ...]  # what a blue scoring pays a dragon standing here
    large: tuple[int, ...]  # what a green or summit scoring pays
    summit_start: int  # index of the first summit space
    last: int  # index of the last space; movement beyond it is lost


def make_track(spaces: tuple[Space, ...]) -> Track:
    values = tuple(s.value for s in spaces)
    return Track(
        spaces=spaces,
        kinds=tuple(s.kind for s in spaces),
        small=tuple(v if v <= SMALL_SCORING_MAX else 0 for v in values),
        large=values,
        summit_start=len(spaces) - SUMMIT_SPACES,
        last=len(spaces) - 1,
    )


@functools.cache
def spaces_to_json(spaces: tuple[Space, ...]) -> JSON:
    """The track as JSON; computed once per track (it is in every view). Callers must not mutate it."""
    return [{"kind": s.kind.value, "value": s.value} for s in spaces]


def parse_track(raw: Any, path: str) -> tuple[Space, ...]:
    """Validate a custom track given as JSON (a list of `{"kind", "value"}` objects)."""
    if not isinstance(raw, (list, tuple)):
        raise InvalidOptions(f"{path}: expected an array of spaces", path)
    if not SUMMIT_SPACES + 1 <= len(raw) <= MAX_TRACK_SPACES:
        raise InvalidOptions(
            f"{path}: a track has {SUMMIT_SPACES + 1}…{MAX_TRACK_SPACES} spaces, not {len(raw)}", path
        )
    spaces = tuple(_parse_space(item, f"{path}[{i}]") for i, item in enumerate(raw))
    if spaces[0] != Space(SpaceKind.START, 0):
        raise InvalidOptions(f"{path}[0]: the first space must be the start with value 0", f"{path}[0]")
    summits = sum(space.kind is SpaceKind.SUMMIT for space in spaces)
    if summits != SUMMIT_SPACES:
        raise InvalidOptions(
            f"{path}: a track has exactly {SUMMIT_SPACES} summit spaces, not {summits}", path
        )
    for i, space in enumerate(spaces):
        at = f"{path}[{i}]"
        if i and space.kind is SpaceKind.START:
            raise InvalidOptions(f"{at}: only the first space may be the start", at)
        if (i >= len(spaces) - SUMMIT_SPACES) != (space.kind is SpaceKind.SUMMIT):
            raise InvalidOptions(f"{at}: the {SUMMIT_SPACES} summit spaces must be the last ones", at)
    return spaces


def _parse_space(item: Any, path: str) -> Space:
    if not isinstance(item, Mapping) or set(item) != {"kind", "value"}:
        raise InvalidOptions(f'{path}: expected an object with exactly "kind" and "value"', path)
    kind, value = item["kind"], item["value"]
    if not isinstance(kind, str) or kind not in _KINDS:
        known = ", ".join(k.value for k in SpaceKind)
        raise InvalidOptions(f"{path}.kind: unknown kind {kind!r}; expected one of {known}", f"{path}.kind")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptions(f"{path}.value: expected an integer", f"{path}.value")
    if not MIN_SPACE_VALUE <= value <= MAX_SPACE_VALUE:
        raise InvalidOptions(
            f"{path}.value: {value} is outside {MIN_SPACE_VALUE}…{MAX_SPACE_VALUE}", f"{path}.value"
        )
    return Space(SpaceKind(kind), value)


SPACE_SCHEMA: Final[JSON] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "value"],
    "properties": {
        "kind": {"enum": [k.value for k in SpaceKind]},
        "value": {"type": "integer", "minimum": MIN_SPACE_VALUE, "maximum": MAX_SPACE_VALUE},
    },
}
