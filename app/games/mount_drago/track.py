"""The Mount Drago track: space kinds, the two reconstructed board sides, and custom tracks.

docs/rules.md §1.2: no source prints the space sequence, so the two sides below are reconstructed data
(every fact the sources give holds for them). A match may replace the track: the codec decodes the
replacement (`TrackSpaces`) and `check_track` applies the domain rules. `Track` precomputes what
scoring needs per space (small and large scoring values, where the summit starts) so a move costs
two lookups.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Annotated, Final

from app.games.codec import JSON, Doc
from app.games.core import InvalidOptions


class SpaceKind(enum.StrEnum):
    """What landing on a space does: `start` and `plain` nothing, `blue` a small scoring (only
    dragons on spaces worth ≤ 3 pay), `green` a large scoring, `summit` a large scoring when a
    dragon first enters the summit (the last four spaces)."""

    START = "start"
    PLAIN = "plain"
    BLUE = "blue"  # small scoring
    GREEN = "green"  # large scoring
    SUMMIT = "summit"  # large scoring on a dragon's first entry


MIN_SPACE_VALUE: Final = -2
MAX_SPACE_VALUE: Final = 8


@dataclass(frozen=True, slots=True)
class Space:
    """A track space, always written `{"kind": ..., "value": ...}`."""

    kind: SpaceKind
    value: Annotated[
        int,
        Doc(
            "Printed value: what a scoring pays a rider whose dragon stands here.",
            minimum=MIN_SPACE_VALUE,
            maximum=MAX_SPACE_VALUE,
        ),
    ]


SUMMIT_SPACES: Final = 4
# Decision (docs/rules.md §1.2): from the first summit space reached upwards; going further costs points.
SUMMIT_VALUES: Final = (4, 2, 0, -2)
SMALL_SCORING_MAX: Final = 3  # a blue scoring pays only spaces of printed value ≤ 3
MAX_TRACK_SPACES: Final = 200  # a sanity bound on custom tracks

TrackSpaces = Annotated[
    tuple[Space, ...],
    Doc(
        "Spaces from the start (index 0, `{kind: start, value: 0}`) to the last summit space; "
        f"exactly the last {SUMMIT_SPACES} are of kind summit. A dragon's position is an index here.",
        minItems=SUMMIT_SPACES + 1,
        maxItems=MAX_TRACK_SPACES,
    ),
]


def _side(spec: str) -> tuple[Space, ...]:
    kinds = {"B": SpaceKind.BLUE, "G": SpaceKind.GREEN, "R": SpaceKind.SUMMIT}
    spaces = [Space(SpaceKind.START, 0)]
    for token in spec.split(","):
        token = token.strip()
        kind = kinds.get(token[-1], SpaceKind.PLAIN)
        spaces.append(Space(kind, int(token if kind is SpaceKind.PLAIN else token[:-1])))
    return tuple(spaces)


# Reconstructed (docs/rules.md §1.2): spaces after the start, in order.
TRACK_2_3: Final = _side(
    "1, 2, 3B, 1, 5, 2, 4G, 3, 1, 6, 3B, 2, 5, 1, 7G, 3, 6, 2, 3B, 1, 5, 6, 8G, 2, 3B, 6, 4R, 2R, 0R, -2R"
)
TRACK_4_5: Final = _side(
    "2, 1, 3, 2B, 5, 1, 3, 4G, 2, 6, 1, 2B, 3, 5, 7G, 1, 6, 2B, 3, 5, 1, 8G, 6, 2B, 3, 4R, 2R, 0R, -2R"
)
TRACKS: Final = {"2-3": TRACK_2_3, "4-5": TRACK_4_5}


def side_for(players: int) -> str:
    """Name (in `TRACKS`) of the board side for `players` seats (docs/rules.md §1.3 step 1)."""
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


# Tracks made, by the identity of their spaces (every match on one board side shares that tuple;
# hashing it would cost more than building the track), each with the spaces it was made from.
_TRACKS: dict[int, tuple[tuple[Space, ...], Track]] = {}


def make_track(spaces: tuple[Space, ...]) -> Track:
    """The `Track` of these spaces, made once per spaces object."""
    found = _TRACKS.get(id(spaces))
    if found is not None and found[0] is spaces:
        return found[1]
    if len(_TRACKS) > 256:
        _TRACKS.clear()
    track = _make_track(spaces)
    _TRACKS[id(spaces)] = (spaces, track)
    return track


def _make_track(spaces: tuple[Space, ...]) -> Track:
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


def check_track(spaces: tuple[Space, ...], path: str) -> tuple[Space, ...]:
    """The domain rules of a custom track the codec decoded (docs/rules.md §1.2); raises `InvalidOptions`."""
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
