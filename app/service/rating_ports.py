"""The ratings projection's port: the records that cross it and `RatingStore`.

Ratings are a projection of the event log (`app.service.rating_projection`): each finished rated
match is applied once, in one transaction that writes the players' new ratings, one history row
per seat, the match's place in the order of application (`RatedMatch.ord`) and moves the
projection's cursor from `ord - 1` to `ord`. A writer whose cursor is stale (another process
applied a match meanwhile) gets `RatingConflict` and nothing is written; it reads again and
retries. The event stores implement this port beside `EventStore` (same database, same
migrations); the memory store is its twin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable


class RatingConflict(Exception):
    """The projection's cursor moved (or the match is applied already): nothing was written."""


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A player's rating in a game as stored; `name` and `bot` are the player's (for listings)."""

    player_id: str
    game: str
    mu: float
    sigma: float
    games: int
    wins: int
    last_played: datetime
    name: str = ""
    bot: bool = False


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """One seat's rating change in one rated match (a history row)."""

    ord: int  # the match's place in the order of application
    match_id: str
    game: str
    seat: int
    player_id: str
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: datetime  # when the match ended


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """Everything one application writes; `ratings` are the players' new rows."""

    ord: int
    match_id: str
    game: str
    ended_at: datetime
    ratings: tuple[RatingRecord, ...]
    points: tuple[RatingPoint, ...]


@runtime_checkable
class RatingStore(Protocol):
    async def rating_cursor(self) -> int:
        """How many rated matches the projection has applied (the last `ord`)."""
        ...

    async def unrated_ends(self, limit: int) -> list[str]:
        """Finished rated matches not applied yet, by (last update, id)."""
        ...

    async def is_applied(self, match_id: str) -> bool: ...

    async def last_applied(self) -> str | None:
        """The match at the cursor (the last applied), or None when none is."""
        ...

    async def rated_order(self) -> list[str]:
        """The applied matches' ids by `ord`."""
        ...

    async def get_ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingRecord]: ...

    async def apply_rated(self, rated: RatedMatch) -> None:
        """Write `rated` if the cursor is at `rated.ord - 1`, else raise `RatingConflict`."""
        ...

    async def reset_ratings(self) -> None:
        """Forget every rating, history row and applied match (the rebuild starts from nothing)."""
        ...

    async def leaderboard(self, game: str, min_games: int, limit: int, offset: int) -> list[RatingRecord]:
        """Ratings with at least `min_games`, best ordinal (μ − 3σ) first, then player id."""
        ...

    async def player_ratings(self, player_id: str) -> list[RatingRecord]: ...

    async def rating_history(self, player_id: str, game: str) -> list[RatingPoint]: ...

    async def match_points(self, match_id: str) -> list[RatingPoint]: ...

    async def rating_tables(self) -> tuple[list[RatingRecord], list[RatingPoint]]:
        """Every rating (by game, player) and every history row (by ord, seat): for comparisons."""
        ...
