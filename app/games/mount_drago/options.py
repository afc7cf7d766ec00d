"""Match options of Mount Drago: parsing with defaults, validation and their JSON Schema.

Options are `negative_floor` (RULES §1.4.3 Decision, default on), `track` (null: the board side
for the player count; otherwise a custom track, see `track.parse_track`) and `first_player`
(null: drawn at random at setup). Anything else is refused with `InvalidOptions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from app.games.codec import JSON
from app.games.core import InvalidOptions
from app.games.mount_drago.track import SPACE_SCHEMA, SUMMIT_SPACES, Space, parse_track

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
# Decision (RULES §1.4.3, Yucata convention): a negative change is applied only if the total stays ≥ 0.
NEGATIVE_FLOOR_DEFAULT: Final = True


@dataclass(frozen=True, slots=True)
class Options:
    negative_floor: bool = NEGATIVE_FLOOR_DEFAULT
    track: tuple[Space, ...] | None = None
    first_player: int | None = None


def check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions(f"Mount Drago is played by {MIN_PLAYERS} to {MAX_PLAYERS} players", "players")


def parse_options(players: int, raw: Mapping[str, Any]) -> Options:
    """Validate `raw` for `players` seats; raises `InvalidOptions` naming the bad member."""
    check_players(players)
    if not isinstance(raw, Mapping):
        raise InvalidOptions("options: expected an object")
    unknown = sorted(str(k) for k in raw if k not in _KNOWN)
    if unknown:
        raise InvalidOptions(
            f"options: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(_KNOWN))}",
            f"options.{unknown[0]}",
        )
    floor = raw.get("negative_floor", NEGATIVE_FLOOR_DEFAULT)
    if not isinstance(floor, bool):
        raise InvalidOptions("options.negative_floor: expected true or false", "options.negative_floor")
    raw_track = raw.get("track")
    track = None if raw_track is None else parse_track(raw_track, "options.track")
    first = raw.get("first_player")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players
    ):
        raise InvalidOptions(
            f"options.first_player: expected a seat 0…{players - 1} or null", "options.first_player"
        )
    return Options(negative_floor=floor, track=track, first_player=first)


_KNOWN: Final = frozenset(("negative_floor", "track", "first_player"))

OPTIONS_SCHEMA: Final[JSON] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Mount Drago match options",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "negative_floor": {
            "type": "boolean",
            "default": NEGATIVE_FLOOR_DEFAULT,
            "description": "A negative scoring change is applied only if the player's total stays ≥ 0 "
            "(otherwise the total is left unchanged). Off: totals may go negative.",
        },
        "track": {
            "default": None,
            "description": "null: the board side for the player count (2–3 or 4–5 players). Otherwise "
            "a custom track: a list of spaces, the first {kind: start, value: 0}, the last "
            f"{SUMMIT_SPACES} of kind summit and no other summit, values −2…8.",
            "oneOf": [
                {"type": "null"},
                {"type": "array", "minItems": SUMMIT_SPACES + 1, "items": {"$ref": "#/$defs/space"}},
            ],
        },
        "first_player": {
            "default": None,
            "description": "Seat that plays first; null: drawn at random at setup.",
            "oneOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}],
        },
    },
    "$defs": {"space": SPACE_SCHEMA},
}
