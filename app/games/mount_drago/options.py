"""Match options of Mount Drago: one dataclass that the codec decodes, checks and publishes.

`Options` declares every option with its default and its documentation; `parse_options` decodes
user JSON into it with the generic codec (so the published schema is generated from the same
declaration) and then checks what a schema cannot say: the first player must be a seat of this
match and a custom track must follow the domain rules (`track.check_track`). Every refusal is an
`InvalidOptions` whose path names the member, e.g. `options.track[3].value`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Final

from app.games.codec import DecodeError, Doc, from_json, memo_json
from app.games.core import InvalidOptions
from app.games.mount_drago.track import TrackSpaces, check_track

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
# Decision (docs/rules.md §1.4.3, Yucata convention): a negative change applies only if the total stays ≥ 0.
NEGATIVE_FLOOR_DEFAULT: Final = True
# Decision (docs/rules.md §1.4.5): an empty hand after a scoring is refilled also when discards emptied it.
REFILL_AFTER_DISCARD_EMPTY_DEFAULT: Final = True
# Decision (docs/rules.md §1.4.3): a blue/green/summit landing is a scoring even if nobody's total changes.
ZERO_SCORING_COUNTS_DEFAULT: Final = True

FirstPlayer = Annotated[int, Doc(minimum=0, maximum=MAX_PLAYERS - 1)]


@dataclass(frozen=True, slots=True)
class Options:
    """Mount Drago match options. Every member is optional; `{}` plays the default game."""

    negative_floor: Annotated[
        bool,
        Doc(
            "A negative scoring change is applied only if the player's total stays ≥ 0 (otherwise "
            "that total is left unchanged, not clamped). Off: totals may go negative."
        ),
    ] = NEGATIVE_FLOOR_DEFAULT
    track: Annotated[
        TrackSpaces | None,
        Doc(
            "null: the board side for the player count (2–3 or 4–5 players). Otherwise a custom "
            "track of spaces `{kind, value}`: the first `{kind: start, value: 0}`, exactly the last "
            "four of kind summit, no other start, values −2…8."
        ),
    ] = None
    first_player: Annotated[
        FirstPlayer | None, Doc("Seat that plays first; null: drawn at random at setup.")
    ] = None
    explicit_end_turn: Annotated[
        bool,
        Doc(
            "The turn never ends by itself: after the play (and the rider choice) the phase stays "
            "`discard` with `end_turn` legal even when no card can be discarded, and the draw "
            "happens at `end_turn`. Off: a turn without discardable cards ends by itself."
        ),
    ] = False
    refill_after_discard_empty: Annotated[
        bool,
        Doc(
            "After a scoring, a hand emptied by summit discards is refilled to six like a hand "
            "emptied by playing. Off: only a hand whose last card was played is refilled."
        ),
    ] = REFILL_AFTER_DISCARD_EMPTY_DEFAULT
    zero_scoring_counts: Annotated[
        bool,
        Doc(
            "Landing on a blue or green space (or first entering the summit) counts as a scoring, "
            "so the player draws nothing, even when it changes nobody's total. Off: a scoring that "
            "changes no total does not stop the draw."
        ),
    ] = ZERO_SCORING_COUNTS_DEFAULT


def check_players(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions(f"Mount Drago is played by {MIN_PLAYERS} to {MAX_PLAYERS} players", "players")


@memo_json  # a pure function of its input, parsed by every game start (see codec.memo)
def parse_options(players: int, raw: Mapping[str, object] | None) -> Options:
    """Decode and check `raw` for `players` seats; raises `InvalidOptions` naming the bad member."""
    check_players(players)
    try:
        opts = from_json(Options, {} if raw is None else raw, "options")
    except DecodeError as e:
        raise InvalidOptions(str(e), e.path) from None
    if opts.track is not None:
        check_track(opts.track, "options.track")
    if opts.first_player is not None and opts.first_player >= players:
        raise InvalidOptions(
            f"options.first_player: expected a seat 0…{players - 1} or null", "options.first_player"
        )
    return opts
